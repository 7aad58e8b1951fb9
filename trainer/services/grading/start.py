"""Starting grading runs: marked grading under a worker's lease, visible at once.

The grading transaction then holds the runs' rows until it commits, so the sweep queues a
run again only when its worker died (trainer.services.grading.sweep).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.db import transaction
from django.utils import timezone

from trainer.models import Attempt, GradingRun, GradingStatus, RunStatus
from trainer.selectors.runs import latest_run_numbers
from trainer.services.grading.lease import grading_lease


def grading_run_start(*, run_ids: Sequence[int]) -> list[int]:
    """Mark the batch's unfinished runs grading (in a transaction of its own); returns
    their ids."""
    with transaction.atomic():
        runs = list(
            GradingRun.objects.select_for_update()
            .filter(pk__in=run_ids, status__in=[RunStatus.PENDING, RunStatus.GRADING])
            .order_by("pk")
        )
        if not runs:
            return []
        grading_runs_mark_started(runs=runs)
        return [run.pk for run in runs]


class RunToStart(Protocol):
    """A run as `grading_runs_mark_started` needs it (a GradingRun, or its values)."""

    @property
    def pk(self) -> int: ...
    @property
    def attempt_id(self) -> int: ...
    @property
    def number(self) -> int: ...


def grading_runs_mark_started(*, runs: Sequence[RunToStart]) -> None:
    """The runs marked grading under this worker's lease, with their attempts' grading status
    where the run is the attempt's newest; for a caller holding the runs' rows locked."""
    now = timezone.now()
    GradingRun.objects.filter(pk__in=[run.pk for run in runs]).update(
        status=RunStatus.GRADING, started_at=now, claimed_until=now + grading_lease()
    )
    latest = latest_run_numbers(attempt_ids=(run.attempt_id for run in runs))
    newest = [run.attempt_id for run in runs if latest.get(run.attempt_id) == run.number]
    Attempt.objects.filter(pk__in=newest).update(grading_status=GradingStatus.GRADING)
