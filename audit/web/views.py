"""The pit's pages: the dashboard, a trainee's page and one decision's drill-down, and the
forms a pit boss acts with (review, flag, sign off). Compliance sees them read-only.

Over 400 lines: the pit's pages share their access checks, form handling and the rows
they show; the compliance pages are in compliance_views."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from audit import selectors as audit_selectors
from audit.certification import CertificationRule, profile_label
from audit.forms import (
    DashboardFilter,
    FlagForm,
    LiftFlagForm,
    RefresherForm,
    ReviewForm,
    SignOffForm,
    WithdrawForm,
)
from audit.models import Certification, RetrainingFlag, Review
from audit.services import reviews
from audit.services.training_record import training_record_pdf
from audit.web import charts
from config import pages
from core.access import role_required
from core.durations import duration_text
from core.errors import TrainerError
from core.roles import Role
from trainer import rules
from trainer.models import Grade
from trainer.selectors import dashboard as figures_sel
from trainer.selectors import evidence, runs, visibility
from trainer.selectors import grades as grade_rows
from trainer.selectors.attempts import public_question
from trainer.selectors.chip_figures import chip_figures
from trainer.web.display import (
    answer_label,
    kind_label,
    question_table,
    rule_text,
    table_view,
)
from trainer.words import question_text, seat_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User

P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponse]


def pit_view(*, write: bool = False) -> Callable[[View[P]], View[P]]:
    """Pit bosses and admins act; compliance officers also read (config.pages, which the
    top bar follows too)."""
    roles = pages.PIT_ACTORS if write else pages.PIT.roles
    return role_required(*roles, refusal=pages.PIT.refusal)


def _rule() -> CertificationRule:
    return CertificationRule.from_settings()


NO_FIGURE = "—"


@dataclass(frozen=True)
class Badge:
    """A trainee's standing at one table, written out: the words and their tone (good,
    warn, bad, plain or muted)."""

    text: str
    tone: str


def _day(when: datetime | None) -> str:
    return timezone.localtime(when).date().isoformat() if when else "?"


def standing_badge(state: audit_selectors.TableState, *, with_table: bool = True) -> Badge:
    """What the pit reads for a trainee's standing at a table (named first, unless the
    page already names it)."""
    standing = audit_selectors.TableStanding
    when = _day(state.when)
    renew = "; a passed sitting can renew it" if state.ready else ""
    match state.standing:
        case standing.CERTIFIED:
            text, tone = f"certified until {when}{renew}", "good"
        case standing.EXPIRING:
            text, tone = f"certified until {when}, expiring soon{renew}", "warn"
        case standing.EXPIRED:
            text, tone = f"certification expired {when}", "bad"
        case standing.WITHDRAWN:
            text, tone = f"certification withdrawn {when}", "bad"
        case standing.PASSED:
            text, tone = "passed, not signed", "plain"
        case standing.NOT_PASSED:
            text, tone = "not passed", "muted"
        case _:
            text, tone = "not sat", "muted"
    return Badge(f"{state.profile}: {text}" if with_table else text, tone)


@dataclass(frozen=True)
class _TraineeRow:
    """One trainee's row of the dashboard, its figures already written out: a page of two
    hundred rows spent most of its time formatting numbers in the template."""

    username: str
    name: str
    url: str
    attempts: str
    accuracy: str
    mean_time: str
    p90_time: str
    overpaid: str
    underpaid: str
    unanswered: str
    tables: list[Badge]
    flagged: bool

    @classmethod
    def of(
        cls,
        trainee: User,
        figures: figures_sel.Figures,
        *,
        tables: list[audit_selectors.TableState],
        flagged: bool,
    ) -> _TraineeRow:
        return cls(
            username=trainee.username,
            name=trainee.get_full_name() or trainee.username,
            url=reverse("pit:trainee", args=[trainee.pk]),
            attempts=str(figures.attempts),
            accuracy=NO_FIGURE if figures.accuracy is None else f"{figures.accuracy} %",
            mean_time=duration_text(figures.mean_ms, "ms"),
            p90_time=duration_text(figures.p90_ms, "ms"),
            overpaid=str(figures.overpaid),
            underpaid=str(figures.underpaid),
            unanswered=str(figures.unanswered),
            tables=[standing_badge(state) for state in tables],
            flagged=flagged,
        )


@require_GET
@pit_view()
def dashboard(request: HttpRequest) -> HttpResponse:
    trainees = visibility.trainees_visible_to(user=request.user)
    filterset = DashboardFilter(request.GET or None, trainees=trainees)
    filters = filterset.as_stats_filter()
    # The totals over every trainee in view, the tables for a page of classes only.
    figures = figures_sel.grade_totals(trainees=trainees.values("pk"), filters=filters)
    page = figures_sel.dashboard_class_page(
        user=request.user, filters=filters, page=_page_number(request)
    )
    classes = page.blocks
    ids = {trainee.pk for block in classes for trainee, _ in block.rows}
    rule = _rule()
    flagged = audit_selectors.flags_in_force(trainee_ids=ids)
    standings = audit_selectors.table_states(trainee_ids=ids, rule=rule)
    context = {
        "filterset": filterset,
        "classes": [
            {
                "training_class": block.training_class,
                "rows": [
                    _TraineeRow.of(
                        trainee,
                        figures,
                        tables=standings.get(trainee.pk, []),
                        flagged=bool(flagged.get(trainee.pk)),
                    )
                    for trainee, figures in block.rows
                ],
            }
            for block in classes
        ],
        "total": figures_sel.figures_total(figures=figures),
        "class_page": page,
        "previous_page": _query_with_page(request, page.number - 1) if page.number > 1 else None,
        "next_page": _query_with_page(request, page.number + 1)
        if page.number < page.pages
        else None,
        "rule": rule,
        "error_mix": charts.error_mix_svg(figures_sel.errors_by_category(figures=figures)),
        "chip_work": chip_figures(tally=figures.total),
        "speed": charts.speed_svg(
            figures_sel.speed_histogram(figures=figures), last=figures_sel.SPEED_BUCKETS_SECONDS
        ),
    }
    return render(request, "audit/pit/dashboard.html", context)


MISTAKES_PER_PAGE = 25


def _page_number(request: HttpRequest) -> int:
    """The mistakes list's page from ?page=N; anything else is the first page."""
    raw = request.GET.get("page", "1")
    return int(raw) if raw.isdigit() and 0 < int(raw) < 100_000 else 1


def _query_with_page(request: HttpRequest, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return query.urlencode()


def _trainee_page(
    request: HttpRequest,
    trainee_id: int,
    *,
    forms: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    trainee = visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user)
    filterset = DashboardFilter(
        request.GET or None,
        trainees=visibility.trainees_visible_to(user=request.user).filter(pk=trainee.pk),
    )
    filters = filterset.as_stats_filter()
    figures = figures_sel.grade_figures(trainees=[trainee.pk], filters=filters)
    page = _page_number(request)
    # One more than a page: its presence says whether older mistakes follow.
    mistakes = grade_rows.mistakes(
        trainees=[trainee.pk],
        filters=filters,
        limit=MISTAKES_PER_PAGE + 1,
        offset=(page - 1) * MISTAKES_PER_PAGE,
    )
    older = len(mistakes) > MISTAKES_PER_PAGE
    mistakes = mistakes[:MISTAKES_PER_PAGE]
    reviewed = audit_selectors.reviewed_grade_ids(grade_ids=[g.pk for g in mistakes])
    attempts = evidence.exam_attempts_for(trainee=trainee)
    # Nobody acts on their own training (separation of duties): their own page has no forms.
    own = request.user.pk == trainee.pk
    can_act = not own and visibility.viewer_may_act_for(user=request.user, trainee=trainee)
    rule = _rule()
    flags = audit_selectors.flags_in_force(trainee_ids=[trainee.pk]).get(trainee.pk, [])
    overview = audit_selectors.certification_overview(
        trainee_ids=[trainee.pk], rule=rule, flags={trainee.pk: flags}
    )
    sittings = overview.sittings.get(trainee.pk, [])
    refreshers = audit_selectors.refresher_results(trainee_id=trainee.pk)
    context: dict[str, Any] = {
        "trainee": trainee,
        "filterset": filterset,
        "figures": figures_sel.figures_total(figures=figures),
        "by_category": figures_sel.errors_by_category(figures=figures),
        "by_skill": figures_sel.errors_by_skill(figures=figures),
        "chip_work": chip_figures(tally=figures.total),
        "trend_svg": charts.accuracy_trend_svg(
            figures_sel.accuracy_trend(trainees=[trainee.pk], filters=filters)
        ),
        "speed_svg": charts.speed_svg(
            figures_sel.speed_histogram(figures=figures), last=figures_sel.SPEED_BUCKETS_SECONDS
        ),
        "mistakes": [(grade, grade.pk in reviewed, kind_label(grade.kind)) for grade in mistakes],
        "mistakes_page": page,
        "mistakes_newer_query": _query_with_page(request, page - 1) if page > 1 else None,
        "mistakes_older_query": _query_with_page(request, page + 1) if older else None,
        "flags_in_force": flags,
        "flag_history": audit_selectors.flags_with_refreshers(
            audit_selectors.flag_history(trainee_id=trainee.pk), refreshers
        ),
        "refreshers": refreshers,
        "certifications": [
            _signature_row(c) for c in audit_selectors.certification_history(trainee_id=trainee.pk)
        ],
        "tables": [
            (state, standing_badge(state, with_table=False))
            for state in audit_selectors.standings_at_every_table(
                states=overview.states.get(trainee.pk, [])
            )
        ],
        "sittings": [_sitting_row(sitting) for sitting in sittings],
        # The acknowledgement box shows only when a sitting that could be signed needs it.
        "any_fast": any(s.check.fast and s.check.signable for s in sittings),
        "rule": rule,
        "can_act": can_act,
        "can_sign": can_act,
        # Whoever is trained here never decides for themselves, even as a pit boss of the
        # class: the page says who does.
        "own_record": own and visibility.viewer_may_act_for(user=request.user, trainee=trainee),
        "record_url": reverse("pit:trainee_record", args=[trainee.pk]),
    }
    context["by_category_svg"] = charts.error_mix_svg(context["by_category"])
    if can_act:
        context.update(
            flag_form=FlagForm(),
            lift_form=LiftFlagForm(),
            sign_form=SignOffForm(attempts=attempts),
            withdraw_form=WithdrawForm(),
            refresher_form=RefresherForm(),
        )
        context.update(forms or {})
    return render(request, "audit/pit/trainee.html", context, status=status)


@dataclass(frozen=True)
class _SittingRow:
    """A graded exam sitting on the trainee's page, with what a sign-off on it would meet."""

    attempt_id: int
    title: str
    table: str
    sat: str
    score: str
    passed: bool
    mean: str
    refusals: list[str]
    fast: str | None


def _sitting_row(sitting: audit_selectors.Sitting) -> _SittingRow:
    evidence, drill = sitting.evidence, sitting.drill
    return _SittingRow(
        attempt_id=evidence.attempt_id,
        title=drill.title,
        table=profile_label(drill.certifies) if drill.certifies else "—",
        sat=_minute(evidence.submitted_at or evidence.graded_at),
        score=NO_FIGURE if evidence.score is None else f"{evidence.score} %",
        passed=evidence.passed is True,
        mean=NO_FIGURE if evidence.mean_ms is None else duration_text(evidence.mean_ms, "ms"),
        refusals=[r.text for r in sitting.check.refusals],
        fast=sitting.check.fast,
    )


def _minute(when: datetime | None) -> str:
    return timezone.localtime(when).strftime("%Y-%m-%d %H:%M") if when else "?"


@dataclass(frozen=True)
class _SignatureRow:
    """A certification or a withdrawal as the trainee's page lists it."""

    certification: Certification
    table: str
    role: str
    signed: str
    expires: str
    expired: bool
    withdrawn_by: Certification | None


def _signature_row(cert: Certification) -> _SignatureRow:
    withdrawals = [c for c in cert.corrections.all() if c.withdrawn]
    return _SignatureRow(
        certification=cert,
        table=profile_label(cert.profile),
        role=role_label(cert.signer_role),
        signed=f"{_minute(cert.signed_at)} {timezone.get_current_timezone_name()}",
        expires=_day(cert.expires_at) if cert.expires_at else "",
        expired=cert.expires_at is not None and cert.expires_at <= timezone.now(),
        withdrawn_by=withdrawals[0] if withdrawals else None,
    )


def role_label(value: str) -> str:
    """The role a signer signed in, as a person reads it ("" when not recorded)."""
    try:
        return Role(value).label
    except ValueError:
        return ""


@require_GET
@pit_view()
def trainee_detail(request: HttpRequest, trainee_id: int) -> HttpResponse:
    return _trainee_page(request, trainee_id)


@require_GET
@pit_view()
def trainee_record(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """The trainee's training record (PDF) for the personnel file; every download is logged."""
    trainee = visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user)
    data = training_record_pdf(trainee=trainee, user=request.user)  # type: ignore[arg-type]
    response = HttpResponse(data, content_type="application/pdf")
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = (
        f'attachment; filename="training-record-{trainee.username}-{day}.pdf"'
    )
    return response


def _refused(
    request: HttpRequest, form: Any, error: TrainerError, page: Callable[..., HttpResponse]
) -> HttpResponse:
    """Show the form again with the service's reason, at the error's status; not-found and
    not-allowed go on to the page decorator's 404 and 403."""
    if error.status in (403, 404):
        raise error
    form.add_error(error.field if error.field in form.fields else None, error.message)
    messages.error(request, error.message)
    return page(status=error.status)


@require_POST
@pit_view(write=True)
def trainee_flag(request: HttpRequest, trainee_id: int) -> HttpResponse:
    trainee = visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user)
    form = FlagForm(request.POST)
    page = _page_with(request, trainee_id, flag_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.retraining_flag_create(
            trainee=trainee,
            flagged_by=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
            skills=form.cleaned_data["skills"],
        )
    except TrainerError as error:
        return _refused(request, form, error, page)
    messages.success(request, f"{trainee.get_full_name()} is flagged for retraining.")
    return redirect("pit:trainee", trainee_id=trainee.pk)


@require_POST
@pit_view(write=True)
def flag_lift(request: HttpRequest, flag_id: int) -> HttpResponse:
    flag = _flag_for(request, flag_id)
    form = LiftFlagForm(request.POST)
    page = _page_with(request, flag.trainee_id, lift_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.retraining_flag_create(
            trainee=flag.trainee,
            flagged_by=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
            skills=flag.skills,
            active=False,
            corrects=flag,
        )
    except TrainerError as error:
        return _refused(request, form, error, page)
    messages.success(request, "The retraining flag is lifted.")
    return redirect("pit:trainee", trainee_id=flag.trainee_id)


def _flag_for(request: HttpRequest, flag_id: int) -> RetrainingFlag:
    visible = visibility.trainees_visible_to(user=request.user)
    flag = (
        RetrainingFlag.objects.select_related("trainee")
        .filter(pk=flag_id, trainee__in=visible)
        .first()
    )
    if flag is None:
        raise Http404("no such flag among your trainees'")
    return flag


@require_POST
@pit_view(write=True)
def trainee_certify(request: HttpRequest, trainee_id: int) -> HttpResponse:
    trainee = visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user)
    form = SignOffForm(request.POST, attempts=evidence.exam_attempts_for(trainee=trainee))
    page = _page_with(request, trainee_id, sign_form=form)
    if not form.is_valid():
        return page(status=400)
    data = form.cleaned_data
    try:
        certification = reviews.certification_sign(
            trainee=trainee,
            profile=data["profile"],
            attempt=data["attempt"],
            signer=request.user,  # type: ignore[arg-type]
            password=data["password"],
            statement=data["statement"],
            request=request,
            override_reason=data["override_reason"],
            fast_acknowledged=data["acknowledge_fast"],
        )
    except TrainerError as error:
        return _refused(request, form, error, page)
    messages.success(
        request,
        f"Signed by {certification.signer_full_name}: {trainee.get_full_name()} is certified "
        f"to deal {profile_label(certification.profile)} until "
        f"{_day(certification.expires_at)}.",
    )
    return redirect("pit:trainee", trainee_id=trainee.pk)


@require_POST
@pit_view(write=True)
def certification_withdraw(request: HttpRequest, certification_id: int) -> HttpResponse:
    visible = visibility.trainees_visible_to(user=request.user)
    certification = (
        Certification.objects.select_related("trainee", "profile")
        .filter(pk=certification_id, trainee__in=visible)
        .first()
    )
    if certification is None:
        raise Http404("no such certification among your trainees'")
    form = WithdrawForm(request.POST)
    page = _page_with(request, certification.trainee_id, withdraw_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.certification_withdraw(
            certification=certification,
            signer=request.user,  # type: ignore[arg-type]
            password=form.cleaned_data["password"],
            statement=form.cleaned_data["statement"],
            request=request,
        )
    except TrainerError as error:
        return _refused(request, form, error, page)
    messages.success(request, "The certification is withdrawn.")
    return redirect("pit:trainee", trainee_id=certification.trainee_id)


def _page_with(request: HttpRequest, trainee_id: int, **forms: Any) -> Callable[..., HttpResponse]:
    def page(*, status: int) -> HttpResponse:
        return _trainee_page(request, trainee_id, forms=forms, status=status)

    return page


# One decision.


def _table_shown(
    grade: Grade, asked: rules.Question | None, view: Mapping[str, Any], seats: Any
) -> dict[str, Any]:
    """The table as the trainee saw it; for a chip question with what lay on the layout
    (the pile to colour up, the cash to change, the bet as placed), as the rack showed it."""
    if asked is None or asked.kind not in rules.CHIP_KINDS:
        return table_view(view, seats=seats)
    return question_table({**public_question(grade.item, asked), "view": view}, seats)


def _grade_page(
    request: HttpRequest, grade_id: int, *, form: ReviewForm | None = None, status: int = 200
) -> HttpResponse:
    grade: Grade = visibility.grade_get_for_viewer(grade_id=grade_id, user=request.user)
    trainee = grade.run.attempt.trainee
    asked = next(
        (
            rules.Question.from_dict(item)
            for item in grade.item.answer_key
            if item.get("n") == grade.question
        ),
        None,
    )
    decision = grade.decision
    view = decision.shown if decision and decision.shown else (asked.view if asked else {})
    seats = seat_names(grade.item.document)
    history = audit_selectors.reviews_of_grade(grade_id=grade.pk)
    # A question never put to the trainee is not reviewed (the trainee reads reviews).
    shown = str(grade.question) in (grade.item.questions_shown or {})
    can_act = (
        not grade.correct
        and shown
        and request.user.pk != trainee.pk
        and visibility.viewer_may_act_for(user=request.user, trainee=trainee)
        and runs.grade_is_current(grade=grade)
    )
    context = {
        "grade": grade,
        "trainee": trainee,
        "attempt": grade.run.attempt,
        "prompt": question_text(asked, seats, note=False) if asked else "",
        "table_title": profile_label(grade.item.profile_version.profile),
        # The trainee's table and words, with the dealer's total a trainee stated.
        "table": _table_shown(grade, asked, view, seats),
        "given": answer_label(grade.given, details=True, missing="no answer"),
        "expected": answer_label(grade.expected, details=True, missing="no answer"),
        "money_diff": grade.money_diff,
        "overpaid": grade.money_diff > Decimal(0),
        "rule": rule_text(grade.rule),
        "history": history,
        "can_act": can_act,
        "shown": shown,
        "form": form or ReviewForm(),
    }
    return render(request, "audit/pit/grade.html", context, status=status)


@require_GET
@pit_view()
def grade_detail(request: HttpRequest, grade_id: int) -> HttpResponse:
    return _grade_page(request, grade_id)


@require_POST
@pit_view(write=True)
def grade_review(request: HttpRequest, grade_id: int) -> HttpResponse:
    grade = visibility.grade_get_for_viewer(grade_id=grade_id, user=request.user)
    form = ReviewForm(request.POST)
    if not form.is_valid():
        return _grade_page(request, grade_id, form=form, status=400)
    corrects = None
    if form.cleaned_data["corrects"]:
        corrects = Review.objects.filter(
            pk=form.cleaned_data["corrects"], grade_id=grade.pk
        ).first()
        if corrects is None:
            form.add_error(None, "the review to correct is not a review of this mistake")
            return _grade_page(request, grade_id, form=form, status=400)
    try:
        reviews.review_create(
            grade=grade,
            reviewer=request.user,  # type: ignore[arg-type]
            comment=form.cleaned_data["comment"],
            corrects=corrects,
        )
    except TrainerError as error:
        if error.status in (403, 404):
            raise
        form.add_error(None, error.message)
        return _grade_page(request, grade_id, form=form, status=error.status)
    messages.success(request, "Review recorded.")
    return redirect("pit:grade", grade_id=grade.pk)
