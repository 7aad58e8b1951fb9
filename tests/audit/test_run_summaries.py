"""Run summaries (trainer.services.run_summaries): what the dashboard adds up instead of grades."""

from __future__ import annotations

import datetime as dt
import statistics
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.selectors import dashboard, grades
from tests.audit.factories import profile_version
from tests.graded import KEY, QUESTION, RIGHT, ROUND, Answer, make_attempt, wrong
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    Grade,
    GradingRun,
    GradingRunSummary,
    Mode,
    RunStatus,
)
from trainer.selectors import runs
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request, regrade_request
from trainer.services.run_summaries import run_summaries_backfill, run_summary_build
from trainer.tallies import GradeFacts, bucket_of, summarize

# Pure: no database.


def test_a_summary_adds_up_its_grades_and_files_them_under_profile_and_skill():
    grades = [
        GradeFacts(True, 1200, Decimal("0.00"), "", "casino-shoe", ("rounding", "push")),
        GradeFacts(False, 3100, Decimal("5.00"), "overpay", "casino-shoe", ("rounding",)),
        GradeFacts(False, None, Decimal("-2.50"), "underpay", "scarne-4deck", ()),
    ]
    total, facets, profiles = summarize(grades)
    assert (total.questions, total.correct, total.answered) == (3, 1, 2)
    assert total.response_ms_sum == 4300
    assert (total.overpaid, total.underpaid) == (Decimal("5.00"), Decimal("2.50"))
    assert total.histogram == {str(bucket_of(1200)): 1, str(bucket_of(3100)): 1}
    assert total.categories == {"overpay": 1, "underpay": 1}
    assert total.skills == {"rounding": 1, "(none)": 1}
    assert profiles == ["casino-shoe", "scarne-4deck"]
    assert facets["s:rounding"].questions == 2
    assert facets["s:push"].questions == 1
    assert facets["p:scarne-4deck"].underpaid == Decimal("2.50")
    assert facets["p:casino-shoe|s:rounding"].correct == 1


def test_the_histogram_percentile_is_within_a_bucket_of_the_exact_one():
    times = [1000, 2000, 3000, 3000, 3000, 9000, 4100, 4700, 5200, 12000]
    total, _, _ = summarize(GradeFacts(True, ms, Decimal(0), "", "casino-shoe", ()) for ms in times)
    # The 90th percentile interpolated as PostgreSQL's percentile_cont does.
    exact = statistics.quantiles(sorted(float(t) for t in times), n=10, method="inclusive")[8]
    approximate = dashboard.histogram_percentile(total.histogram, 0.9)
    assert approximate == pytest.approx(exact, abs=GradingRunSummary.HISTOGRAM_MS)
    assert dashboard.histogram_percentile({}, 0.9) is None


# On hand-built data.


def _direct(run: GradingRun) -> dict[str, object]:
    """The figures a summary holds, computed straight from the run's grades."""
    grades = list(Grade.objects.filter(run=run).select_related("item"))
    answered = [g.response_ms for g in grades if g.response_ms is not None]
    categories: dict[str, int] = {}
    skills: dict[str, int] = {}
    histogram: dict[str, int] = {}
    not_reached = 0
    for g in grades:
        # Shown: answered, or put to the trainee (trainer.skills).
        shown = g.decision_id is not None or str(g.question) in (g.item.questions_shown or {})
        not_reached += not shown
        if not g.correct:
            categories[g.category] = categories.get(g.category, 0) + 1
            if g.category == "unanswered" or not shown:
                continue
            for skill in g.item.document.get("skills") or ["(none)"]:
                skills[skill] = skills.get(skill, 0) + 1
    for ms in answered:
        histogram[str(bucket_of(ms))] = histogram.get(str(bucket_of(ms)), 0) + 1
    return {
        "questions": len(grades),
        "correct": sum(g.correct for g in grades),
        "answered": len(answered),
        "response_ms_sum": sum(answered),
        "overpaid": sum((g.money_diff for g in grades if g.money_diff > 0), Decimal("0.00")),
        "underpaid": -sum((g.money_diff for g in grades if g.money_diff < 0), Decimal("0.00")),
        "categories": categories,
        "skills": skills,
        "histogram": histogram,
        "not_reached": not_reached,
    }


_FIELDS = (
    "questions",
    "correct",
    "answered",
    "response_ms_sum",
    "overpaid",
    "underpaid",
    "categories",
    "skills",
    "histogram",
    "not_reached",
)


def _as_stored(summary: GradingRunSummary) -> dict[str, object]:
    summary.refresh_from_db()
    return {name: getattr(summary, name) for name in _FIELDS}


@pytest.fixture
def regraded(pit, trainee):
    """An attempt graded twice: the regrade (run 2) is current."""
    return make_attempt(
        trainee=trainee,
        answers=[RIGHT, wrong("5.00", ms=1200), wrong("-2.50", ms=7000), Answer(response_ms=None)],
        skills=["natural-3to2", "rounding"],
        runs=[[RIGHT, RIGHT, wrong("-2.50", ms=7000), Answer(False, Decimal(0), "", None)]],
    )


def test_each_runs_summary_equals_its_grades_figures(regraded):
    for run in GradingRun.objects.filter(attempt=regraded):
        assert _as_stored(run.summary) == _direct(run)


def test_a_regrade_makes_its_summary_the_current_one(regraded, trainee):
    current = runs.current_summaries().filter(attempt=regraded)
    assert list(current.values_list("number", flat=True)) == [2]
    figures = dashboard.figures_total(figures=dashboard.grade_figures(trainees=[trainee.pk]))
    assert (figures.questions, figures.correct) == (4, 2)
    assert figures.underpaid == Decimal("2.50")
    assert figures.overpaid == Decimal("0.00")


def test_a_facet_equals_the_grades_of_that_profile_and_skill(regraded, trainee):
    def questions(filters: grades.StatsFilter) -> tuple[int, int]:
        figures = dashboard.grade_figures(trainees=[trainee.pk], filters=filters)
        rows = grades.grades_list(trainees=[trainee.pk], filters=filters)
        return dashboard.figures_total(figures=figures).questions, rows.count()

    # The regrade's fourth question was never shown: in the totals, in no skill.
    assert questions(grades.StatsFilter(profile="casino-shoe")) == (4, 4)
    assert questions(grades.StatsFilter(profile="casino-shoe", skill="rounding")) == (3, 3)
    assert questions(grades.StatsFilter(skill="split")) == (0, 0)


def test_the_backfill_writes_what_the_builder_does_and_is_idempotent(regraded, pit, other_trainee):
    make_attempt(trainee=other_trainee, answers=[wrong("1.00"), RIGHT])
    expected = {s.pk: _as_stored(s) for s in GradingRunSummary.objects.all()}
    GradingRunSummary.objects.all().delete()
    assert run_summaries_backfill(batch=2) == 3
    assert {s.pk: _as_stored(s) for s in GradingRunSummary.objects.all()} == expected
    assert run_summaries_backfill() == 0
    assert "summarized 0 run(s)" in call_command("build_run_summaries")
    assert GradingRunSummary.objects.count() == 3


def test_a_run_not_graded_has_no_summary(pit, trainee):
    attempt = make_attempt(trainee=trainee, answers=[RIGHT])
    GradingRunSummary.objects.all().delete()
    GradingRun.objects.filter(attempt=attempt).update(status=RunStatus.FAILED)
    assert run_summaries_backfill() == 0


# Through the real grading service.


def _submitted_attempt(trainee, *, answers: int) -> Attempt:
    version = profile_version()
    drill = Drill.objects.create(title="Service drill", kind="generated", profile_version=version)
    now = timezone.now()
    attempt = Attempt.objects.create(
        trainee=trainee,
        drill=drill,
        mode=Mode.EXAM,
        status=AttemptStatus.SUBMITTED,
        submitted_at=now,
    )
    for position in range(1, answers + 1):
        item = AttemptItem.objects.create(
            attempt=attempt,
            position=position,
            profile_version=version,
            document={**ROUND, "skills": ["natural-3to2"]},
            answer_key=KEY,
        )
        # One question answered (overpaid on the first round), the others missed.
        amount = "20.00" if position == 1 else "15.00"
        Decision.objects.create(
            item=item,
            question=QUESTION["n"],
            kind=QUESTION["kind"],
            answer={"action": "pay", "amount": amount},
            shown=QUESTION["view"],
            shown_at=now - dt.timedelta(seconds=2),
            answered_at=now,
            response_ms=2000 + 500 * position,
        )
    return attempt


def test_the_grading_service_writes_the_summary_when_it_grades_a_run(pit, trainee):
    attempt = _submitted_attempt(trainee, answers=3)
    run = grading_request(attempt=attempt)
    assert not GradingRunSummary.objects.filter(run=run).exists()
    run = grading_run_execute(run_id=run.pk)
    assert run.status == RunStatus.GRADED
    summary = GradingRunSummary.objects.get(run=run)
    assert _as_stored(summary) == _direct(run)
    assert summary.questions == len(KEY) * 3
    assert summary.answered == 3
    assert summary.overpaid > 0
    assert (summary.trainee_id, summary.attempt_id, summary.number) == (trainee.pk, attempt.pk, 1)
    assert summary.profiles == ["casino-shoe"]
    # What the builder gives from the database is what the service wrote from memory.
    rebuilt = run_summary_build(run=run)
    assert {n: getattr(rebuilt, n) for n in _FIELDS} == _as_stored(summary)
    assert rebuilt.facets == summary.facets


def test_a_regrade_through_the_service_gets_its_own_current_summary(pit, trainee):
    attempt = _submitted_attempt(trainee, answers=2)
    grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    (again,) = regrade_request(attempts=[attempt], reason="profile corrected")
    again = grading_run_execute(run_id=again.pk)
    assert GradingRunSummary.objects.filter(attempt=attempt).count() == 2
    (current,) = runs.current_summaries().filter(attempt=attempt)
    assert current.run_id == again.pk
    assert _as_stored(current) == _direct(again)
