"""Grading runs read: which run is an attempt's current one, run numbers, what to regrade.

An attempt's *current* run is its newest graded run: a regrade replaces the figures of the
run it corrects, as it replaces the attempt's score. `newer_graded_run` is the one
definition of it, used by the dashboard, the certification evidence and the reports.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, Max, OuterRef, Q, QuerySet

from core.errors import ProductError
from trainer.models import (
    Attempt,
    AttemptStatus,
    Grade,
    GradingRun,
    GradingRunSummary,
    RunStatus,
    Scenario,
)


def newer_graded_run(*, attempt: str = "attempt") -> Exists:
    """True for a run (or a run's summary) that a newer graded run of its attempt replaces.

    `attempt` names the outer row's attempt column: "attempt" on a run, "attempt_id" on
    a summary.
    """
    return Exists(
        GradingRun.objects.filter(
            attempt=OuterRef(attempt), status=RunStatus.GRADED, number__gt=OuterRef("number")
        )
    )


def current_runs() -> QuerySet[GradingRun]:
    """Each attempt's newest graded run."""
    return GradingRun.objects.filter(status=RunStatus.GRADED).exclude(newer_graded_run())


def current_run_of(*, attempt: Attempt) -> GradingRun | None:
    return current_runs().filter(attempt=attempt).first()


def current_summaries() -> QuerySet[GradingRunSummary]:
    """The summaries of each attempt's newest graded run."""
    return GradingRunSummary.objects.exclude(newer_graded_run(attempt="attempt_id"))


def latest_run_numbers(*, attempt_ids: Iterable[int], **filters: Any) -> dict[int, int]:
    """Each attempt's highest run number (among its runs matching `filters`)."""
    return dict(
        GradingRun.objects.filter(attempt_id__in=set(attempt_ids), **filters)
        # No order: the model's would still join every run to its attempt.
        .order_by()
        .values("attempt_id")
        .annotate(last=Max("number"))
        .values_list("attempt_id", "last")
    )


def latest_and_graded_run_numbers(
    *, attempt_ids: Iterable[int]
) -> dict[int, tuple[int, int | None]]:
    """Each attempt's highest run number and highest graded run number (None: no run
    graded yet), in one query."""
    return {
        attempt_id: (last, graded)
        for attempt_id, last, graded in GradingRun.objects.filter(attempt_id__in=set(attempt_ids))
        .order_by()  # as above
        .values("attempt_id")
        .annotate(last=Max("number"), graded=Max("number", filter=Q(status=RunStatus.GRADED)))
        .values_list("attempt_id", "last", "graded")
    }


def run_is_newest(*, run: GradingRun) -> bool:
    """Whether no later run of the run's attempt exists (graded or not)."""
    return not GradingRun.objects.filter(attempt_id=run.attempt_id, number__gt=run.number).exists()


def scenario_newest_revision(*, scenario: Scenario) -> Scenario:
    """The last revision in the chain of scenarios superseding this one."""
    seen = {scenario.pk}
    current = scenario
    while True:
        nxt = Scenario.objects.filter(supersedes_id=current.pk).first()
        if nxt is None or nxt.pk in seen:
            return current
        seen.add(nxt.pk)
        current = nxt


def scenario_revision_chain(*, scenario: Scenario) -> list[Scenario]:
    """Every revision of this scenario, the first one first."""
    chain = [scenario]
    while chain[0].supersedes_id is not None and len(chain) < 1000:
        chain.insert(0, Scenario.objects.get(pk=chain[0].supersedes_id))
    current = chain[-1]
    seen = {s.pk for s in chain}
    while (nxt := Scenario.objects.filter(supersedes_id=current.pk).first()) is not None:
        if nxt.pk in seen:
            break
        seen.add(nxt.pk)
        chain.append(nxt)
        current = nxt
    return chain


def regrade_candidates(
    *,
    profile: str | None = None,
    drill_id: int | None = None,
    attempt_id: int | None = None,
    submitted_from: Any = None,
    submitted_to: Any = None,
) -> QuerySet[Attempt]:
    """Submitted attempts matching every filter given (at least one is required)."""
    if all(v is None for v in (profile, drill_id, attempt_id, submitted_from, submitted_to)):
        raise ProductError("say which attempts to regrade: a profile, drill, attempt or dates")
    qs = Attempt.objects.filter(status=AttemptStatus.SUBMITTED)
    if profile is not None:
        qs = qs.filter(items__profile_version__profile__name=profile)
    if drill_id is not None:
        qs = qs.filter(drill_id=drill_id)
    if attempt_id is not None:
        qs = qs.filter(pk=attempt_id)
    if submitted_from is not None:
        qs = qs.filter(submitted_at__gte=submitted_from)
    if submitted_to is not None:
        qs = qs.filter(submitted_at__lt=submitted_to)
    return qs.distinct().order_by("pk")


def grade_is_current(*, grade: Grade) -> bool:
    """Whether the grade belongs to its attempt's current run."""
    return current_runs().filter(pk=grade.run_id).exists()
