"""The pit's pages: the dashboard, one decision's drill-down and its review (alone or as a
step of the review queue), and the training record's download. A trainee's sections and
the forms acting on them are in trainee_views, the queue in queue_views, the compliance
pages in compliance_views."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from audit.certification import CertificationRule, profile_label
from audit.forms import DashboardFilter, ReviewForm, ReviewQueueFilter
from audit.models import Review
from audit.selectors import dashboard as figures_sel
from audit.selectors import pit as audit_selectors
from audit.selectors import queue as queue
from audit.selectors.chip_figures import chip_figures
from audit.services import reviews
from audit.services.practical import practical_waiting
from audit.services.training_record import training_record_pdf
from audit.web import charts
from audit.web.pit_common import (
    NO_FIGURE,
    Badge,
    page_number,
    pit_view,
    query_with_page,
    standing_badge,
)
from audit.web.queue_views import queue_trainees
from core import pages
from core.durations import duration_text
from core.errors import ProductError
from core.roles import roles_of
from trainer import labels
from trainer.games import game_named
from trainer.games.marking import MONEY
from trainer.models import Grade
from trainer.selectors import runs, visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _rule() -> CertificationRule:
    return CertificationRule.from_settings()


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
    # Mistakes waiting for the viewer's review (None: the viewer reviews none).
    waiting: int | None = None
    waiting_url: str = ""
    # Points lost in games counting points, in words ("3 points"); a dash with none.
    points: str = NO_FIGURE

    @classmethod
    def of(
        cls,
        trainee: User,
        figures: figures_sel.Figures,
        *,
        tables: list[audit_selectors.TableState],
        flagged: bool,
        waiting: int | None = None,
        practical: Mapping[tuple[int, int], str] | None = None,
    ) -> _TraineeRow:
        tab = reverse("pit:trainee_practical", args=[trainee.pk])
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
            tables=[
                standing_badge(
                    state,
                    practical_url=f"{tab}?table={practical[trainee.pk, state.profile_id]}"
                    if practical and (trainee.pk, state.profile_id) in practical
                    else "",
                )
                for state in tables
            ],
            flagged=flagged,
            waiting=waiting,
            waiting_url=f"{reverse('pit:queue')}?trainee={trainee.pk}" if waiting else "",
            points=labels.points_text(figures.points) or NO_FIGURE,
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
        user=request.user, filters=filters, page=page_number(request)
    )
    classes = page.blocks
    ids = {trainee.pk for block in classes for trainee, _ in block.rows}
    rule = _rule()
    flagged = audit_selectors.flags_in_force(trainee_ids=ids)
    standings = audit_selectors.table_states(trainee_ids=ids, rule=rule)
    practical = practical_waiting(
        ready=[(tid, s.profile_id) for tid, rows in standings.items() for s in rows if s.ready]
    )
    # What waits for a review: among the trainees this viewer reviews; for compliance,
    # who reviews nobody, every trainee's (the department's backlog, read-only).
    acts = bool(roles_of(request.user) & set(pages.PIT_ACTORS))
    waiting = queue.waiting_counts(trainees=queue_trainees(request.user))
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
                        waiting=waiting.get(trainee.pk, 0),
                        practical=practical,
                    )
                    for trainee, figures in block.rows
                ],
            }
            for block in classes
        ],
        "total": figures_sel.figures_total(figures=figures),
        "class_page": page,
        "previous_page": query_with_page(request, page.number - 1) if page.number > 1 else None,
        "next_page": query_with_page(request, page.number + 1)
        if page.number < page.pages
        else None,
        "rule": rule,
        "acts": acts,
        "waiting": sum(waiting.values()),
        "error_mix": charts.error_mix_svg(figures_sel.errors_by_category(figures=figures)),
        "chip_work": chip_figures(tally=figures.total),
        "speed": charts.speed_svg(
            figures_sel.speed_histogram(figures=figures), last=figures_sel.SPEED_BUCKETS_SECONDS
        ),
    }
    return render(request, "audit/pit/dashboard.html", context)


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


# One decision.


def _grade_page(
    request: HttpRequest, grade_id: int, *, form: ReviewForm | None = None, status: int = 200
) -> HttpResponse:
    grade: Grade = visibility.grade_get_for_viewer(grade_id=grade_id, user=request.user)
    trainee = grade.run.attempt.trainee
    game = game_named(grade.run.attempt.drill.game)
    key = grade.item.answer_key or []
    asked = next((item for item in key if item.get("n") == grade.question), None)
    decision = grade.decision
    view = decision.shown if decision and decision.shown else (asked or {}).get("view") or {}
    document = grade.item.document
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
        "prompt": game.question_words(asked, document, note=False) if asked else "",
        "table_title": profile_label(grade.item.profile_version.profile),
        # The trainee's table and words, with the dealer's total a trainee stated.
        "table": game.review_table(asked, view=view, answer_key=key, document=document),
        "table_template": game.table_template,
        "given": game.answer_words(grade.given, details=True, missing="no answer"),
        "expected": game.answer_words(grade.expected, details=True, missing="no answer"),
        "money_diff": grade.money_diff,
        "overpaid": grade.money_diff > Decimal(0),
        # A points game's words for what its point is (none for a money game).
        "point_words": "" if game.cost_unit == MONEY else game.point_words,
        "rule": game.rule_words(grade.rule),
        "history": history,
        "can_act": can_act,
        "shown": shown,
        "form": form or ReviewForm(),
    }
    step = _queue_step(request)
    if step is not None:
        context.update(queue=step, skip_url=step.next_url(grade.pk))
    return render(request, "audit/pit/grade.html", context, status=status)


@dataclass(frozen=True)
class _QueueStep:
    """A mistake opened from the review queue: the queue's filters, carried from the queue
    to the mistake and on to the next one."""

    query: str
    fields: list[tuple[str, str]]

    @property
    def queue_url(self) -> str:
        return reverse("pit:queue") + (f"?{self.query}" if self.query else "")

    def grade_url(self, grade_id: int) -> str:
        query = urlencode([("from", "queue"), *self.fields])
        return f"{reverse('pit:grade', args=[grade_id])}?{query}"

    def next_url(self, after: int) -> str:
        return f"{reverse('pit:queue_next')}?{urlencode([('after', after), *self.fields])}"


def _queue_step(request: HttpRequest) -> _QueueStep | None:
    """The queue this mistake was opened from (``from=queue``, in the link or the form),
    or None; a filter naming what the viewer does not review is dropped (the queue itself
    says why)."""
    data = request.POST if request.method == "POST" else request.GET
    # Only those who review have a queue (compliance reads a mistake without one).
    if data.get("from") != "queue" or not roles_of(request.user) & set(pages.PIT_ACTORS):
        return None
    filterset = ReviewQueueFilter(data, trainees=visibility.trainees_actable_by(user=request.user))
    query = filterset.query()
    return _QueueStep(query=query, fields=parse_qsl(query))


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
    except ProductError as error:
        if error.status in (403, 404):
            raise
        form.add_error(None, error.message)
        return _grade_page(request, grade_id, form=form, status=error.status)
    messages.success(request, "Review recorded.")
    step = _queue_step(request)
    if step is not None and request.POST.get("then") == "next":
        return redirect(step.next_url(grade.pk))
    if step is not None:
        return redirect(step.grade_url(grade.pk))
    return redirect("pit:grade", grade_id=grade.pk)
