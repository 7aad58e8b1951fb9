"""A trainee's pages in the pit, one section each with its own URL (overview, mistakes,
retraining, certification, and the sign-off). Each section reads only what it shows; the
forms acting on the trainee are in trainee_actions, which draws a refused one again on its
section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from audit.authority import SignedForm
from audit.certification import CertificationRule
from audit.forms import (
    DashboardFilter,
    FlagForm,
    LiftFlagForm,
    RefresherForm,
    SignOffForm,
    WithdrawForm,
)
from audit.models import RetrainingFlag
from audit.selectors import dashboard as figures_sel
from audit.selectors import evidence
from audit.selectors import grades as grade_rows
from audit.selectors import pit as audit_selectors
from audit.selectors import queue as queue
from audit.selectors.chip_figures import chip_figures
from audit.web import charts
from audit.web.authority_words import signature_words
from audit.web.certification_rows import (
    practical_words,
    signature_row,
    sitting_row,
    with_practical,
)
from audit.web.pit_common import (
    page_number,
    pit_view,
    query_with_page,
    standing_badge,
)
from trainer.games import game_named
from trainer.selectors import visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MISTAKES_PER_PAGE = 25

# The sections of a trainee's pages, in the order of their tabs: (key, URL name, label).
SECTIONS = (
    ("overview", "pit:trainee", "Overview"),
    ("mistakes", "pit:trainee_mistakes", "Mistakes"),
    ("retraining", "pit:trainee_retraining", "Retraining"),
    ("certification", "pit:trainee_certification", "Certification"),
    ("practical", "pit:trainee_practical", "Practical test"),
    ("sign_off", "pit:trainee_sign_off", "Sign off"),
)


def _rule() -> CertificationRule:
    return CertificationRule.from_settings()


def _head(request: HttpRequest, trainee: User, section: str) -> dict[str, Any]:
    """What every section shows: the trainee, their flags in force, the tabs, and whether
    the viewer acts here (nobody acts on their own training: separation of duties)."""
    own = request.user.pk == trainee.pk
    may_act = visibility.viewer_may_act_for(user=request.user, trainee=trainee)
    can_act = not own and may_act
    return {
        "trainee": trainee,
        "section": section,
        "sections": [
            {"key": key, "label": label, "url": reverse(name, args=[trainee.pk])}
            for key, name, label in SECTIONS
            if key != "sign_off" or can_act
        ],
        "flags_in_force": audit_selectors.flags_in_force(trainee_ids=[trainee.pk]).get(
            trainee.pk, []
        ),
        "can_act": can_act,
        "can_sign": can_act,
        # Whoever is trained here never decides for themselves, even as a pit boss of the
        # class: the page says who does.
        "own_record": own and may_act,
    }


def _trainee(request: HttpRequest, trainee_id: int) -> User:
    return visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user)


def _waiting(request: HttpRequest, trainee: User, can_act: bool) -> int | None:
    """The trainee's mistakes waiting for a review, for whoever may review them."""
    if not can_act:
        return None
    return queue.waiting_reviews(
        trainees=[trainee.pk], filters=queue.QueueFilter(trainee_id=trainee.pk)
    ).count()


def _filters_of(request: HttpRequest, trainee: Any) -> DashboardFilter:
    """The overview's and the mistakes' filter: the trainee is the only one it may name."""
    return DashboardFilter(
        request.GET or None,
        trainees=visibility.trainees_visible_to(user=request.user).filter(pk=trainee.pk),
    )


# The sections.


@require_GET
@pit_view()
def trainee_detail(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """The overview: the figures and charts, what waits for a review, the tables' standing."""
    trainee = _trainee(request, trainee_id)
    context = _head(request, trainee, "overview")
    filterset = _filters_of(request, trainee)
    filters = filterset.as_stats_filter()
    figures = figures_sel.grade_figures(trainees=[trainee.pk], filters=filters)
    by_category = figures_sel.errors_by_category(figures=figures)
    states = audit_selectors.table_states(trainee_ids=[trainee.pk], rule=_rule())
    context.update(
        filterset=filterset,
        figures=figures_sel.figures_total(figures=figures),
        by_category=by_category,
        by_skill=figures_sel.errors_by_skill(figures=figures),
        chip_work=chip_figures(tally=figures.total),
        trend_svg=charts.accuracy_trend_svg(
            figures_sel.accuracy_trend(trainees=[trainee.pk], filters=filters)
        ),
        speed_svg=charts.speed_svg(
            figures_sel.speed_histogram(figures=figures), last=figures_sel.SPEED_BUCKETS_SECONDS
        ),
        by_category_svg=charts.error_mix_svg(by_category),
        standings=[standing_badge(state) for state in states.get(trainee.pk, [])],
        waiting=_waiting(request, trainee, context["can_act"]),
    )
    return render(request, "audit/pit/trainee.html", context)


def _kind_words(game: str, kind: str) -> str:
    """What a question of ``kind`` asks, in its game's words."""
    return game_named(game).kind_words(kind)


@require_GET
@pit_view()
def trainee_mistakes(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """The trainee's mistakes, newest first, 25 to a page, each marked reviewed or not."""
    trainee = _trainee(request, trainee_id)
    context = _head(request, trainee, "mistakes")
    filterset = _filters_of(request, trainee)
    page = page_number(request)
    # One more than a page: its presence says whether older mistakes follow.
    mistakes = grade_rows.mistakes(
        trainees=[trainee.pk],
        filters=filterset.as_stats_filter(),
        limit=MISTAKES_PER_PAGE + 1,
        offset=(page - 1) * MISTAKES_PER_PAGE,
    )
    older = len(mistakes) > MISTAKES_PER_PAGE
    mistakes = mistakes[:MISTAKES_PER_PAGE]
    reviewed = audit_selectors.reviewed_grade_ids(grade_ids=[g.pk for g in mistakes])
    context.update(
        filterset=filterset,
        mistakes=[
            (
                grade,
                grade.pk in reviewed,
                game_named(grade.run.attempt.drill.game).kind_words(grade.kind),
            )
            for grade in mistakes
        ],
        mistakes_page=page,
        mistakes_newer_query=query_with_page(request, page - 1) if page > 1 else None,
        mistakes_older_query=query_with_page(request, page + 1) if older else None,
        waiting=_waiting(request, trainee, context["can_act"]),
    )
    return render(request, "audit/pit/trainee_mistakes.html", context)


def _retraining(
    request: HttpRequest,
    trainee_id: int,
    *,
    forms: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    trainee = _trainee(request, trainee_id)
    context = _head(request, trainee, "retraining")
    refreshers = audit_selectors.refresher_results(trainee_id=trainee.pk)
    context.update(
        flag_history=audit_selectors.flags_with_refreshers(
            audit_selectors.flag_history(trainee_id=trainee.pk), refreshers
        ),
        refreshers=refreshers,
    )
    if context["can_act"]:
        context.update(
            flag_form=FlagForm(), lift_form=LiftFlagForm(), refresher_form=RefresherForm()
        )
        context.update(forms or {})
    return render(request, "audit/pit/trainee_retraining.html", context, status=status)


@require_GET
@pit_view()
def trainee_retraining(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """Retraining flags (raised and lifted), refreshers and their results."""
    return _retraining(request, trainee_id)


def _sittings(trainee: User, flags: list[RetrainingFlag]) -> audit_selectors.CertificationOverview:
    return audit_selectors.certification_overview(
        trainee_ids=[trainee.pk], rule=_rule(), flags={trainee.pk: flags}
    )


def _certification(
    request: HttpRequest,
    trainee_id: int,
    *,
    forms: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    trainee = _trainee(request, trainee_id)
    context = _head(request, trainee, "certification")
    overview = _sittings(trainee, context["flags_in_force"])
    sittings = with_practical(trainee, overview.sittings.get(trainee.pk, []))
    context.update(
        rule=_rule(),
        record_url=reverse("pit:trainee_record", args=[trainee.pk]),
        tables=[
            (state, standing_badge(state, with_table=False))
            for state in audit_selectors.standings_at_every_table(
                states=overview.states.get(trainee.pk, [])
            )
        ],
        sittings=sittings,
        any_signable=any(not row.refusals and not row.practical for row in sittings),
        certifications=[
            signature_row(c) for c in audit_selectors.certification_history(trainee_id=trainee.pk)
        ],
    )
    if context["can_act"]:
        context.update(withdraw_form=WithdrawForm())
        context.update(forms or {})
    return render(request, "audit/pit/trainee_certification.html", context, status=status)


@require_GET
@pit_view()
def trainee_certification(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """Standing at each table, the table-test sittings, the signatures and withdrawals."""
    return _certification(request, trainee_id)


def _sign_off(
    request: HttpRequest, trainee_id: int, *, form: SignOffForm | None = None, status: int = 200
) -> HttpResponse:
    trainee = _trainee(request, trainee_id)
    # Nobody signs for themselves: their own sign-off page is refused outright.
    visibility.not_for_oneself(
        user=request.user, trainee_id=trainee.pk, doing="signs their own certification"
    )
    context = _head(request, trainee, "sign_off")
    overview = _sittings(trainee, context["flags_in_force"])
    rows = [sitting_row(s) for s in overview.sittings.get(trainee.pk, [])]
    offered = [row for row in rows if not row.refusals]
    # Sittings come newest first: the newest that can back a certification is the one ready.
    ready = offered[0] if offered else None
    if not context["can_sign"]:
        # Compliance reads it: the sitting ready, the others and why, and who signs.
        context.update(
            rule=_rule(),
            offered=offered,
            ready=ready,
            form=None,
            not_offered=[row for row in rows if row.refusals],
        )
        return render(request, "audit/pit/trainee_sign_off.html", context, status=status)
    if form is None:
        initial = {"attempt": ready.attempt_id, "profile": ready.table_name} if ready else {}
        form = SignOffForm(attempts=evidence.exam_attempts_for(trainee=trainee), initial=initial)
    tables = {row.table_name: row.table for row in offered}
    form.offer(
        sittings=[(row.attempt_id, row.label) for row in offered], tables=list(tables.items())
    )
    context.update(
        rule=_rule(),
        practical=practical_words(trainee, ready),
        signature=signature_words(request.user, SignedForm.CERTIFICATION),
        form=form,
        offered=offered,
        ready=ready,
        not_offered=[row for row in rows if row.refusals],
        any_fast=any(row.fast for row in offered),
    )
    return render(request, "audit/pit/trainee_sign_off.html", context, status=status)


@require_GET
@pit_view()
def trainee_sign_off(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """Sign-off on its own page: only the sittings that can back a certification, the one
    ready chosen, and a refusal shown at the form."""
    return _sign_off(request, trainee_id)
