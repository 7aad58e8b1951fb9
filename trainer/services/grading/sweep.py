"""Failing and sweeping: a run the task gave up on is marked failed; runs whose task was
lost, or whose worker died while grading them, are queued again (within the bound of
trainer.services.grading.lease)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from ledger.events import Event, Subject
from ledger.services.append import PendingEntry, ledger_append_many
from ledger.services.vouch import row_vouches
from trainer.models import Attempt, GradingRun, GradingStatus, RunStatus
from trainer.selectors.runs import latest_run_numbers, run_is_newest
from trainer.services.grading.lease import (
    grading_fault_bound,
    grading_lease,
    grading_sweep_interval,
    grading_timeout,
)
from trainer.services.grading.request import grading_enqueue

__all__ = [
    "grading_fault_bound",
    "grading_lease",
    "grading_run_fail",
    "grading_sweep",
    "grading_sweep_interval",
    "grading_timeout",
]

logger = logging.getLogger("trainer.services.grading")


def grading_sweep(*, timeout: timedelta | None = None, now: datetime | None = None) -> list[int]:
    """Queue again the runs whose task was lost; returns their ids, oldest first.

    Two kinds: a run still pending past the timeout (its task never reached the broker, or
    a worker received it and died before starting it: the broker holds that message unacked
    until its visibility timeout), and a run being graded whose lease ran out and
    whose row no transaction holds (its worker died: trainer.services.grading.lease). A run
    a live worker is grading is locked by its transaction and skipped, however long it
    takes. Those queued again are pending once more, lease-free, with a fresh queue time.
    Grading is idempotent, so a run queued again that was not lost is still graded once.
    `now` is the sweep's moment (the clock by default).
    """
    now = timezone.now() if now is None else now
    cutoff = now - (grading_timeout() if timeout is None else timeout)
    lost = Q(status=RunStatus.PENDING, attempt__grading_queued_at__lt=cutoff)
    lapsed = Q(status=RunStatus.GRADING) & (
        Q(claimed_until__lt=now) | Q(claimed_until__isnull=True)
    )
    with transaction.atomic():
        # The status index narrows the search to unfinished runs (few) before the rest.
        stuck: QuerySet[GradingRun] = GradingRun.objects.filter(
            Q(status__in=[RunStatus.PENDING, RunStatus.GRADING]) & (lost | lapsed)
        )
        if connection.features.has_select_for_update_skip_locked:
            stuck = stuck.select_for_update(skip_locked=True, of=("self",))
        runs = list(stuck.order_by("pk").values_list("pk", "attempt_id", "number"))
        if not runs:
            return []
        run_ids = [pk for pk, _, _ in runs]
        GradingRun.objects.filter(pk__in=run_ids).update(
            status=RunStatus.PENDING, claimed_until=None
        )
        latest = latest_run_numbers(attempt_ids={attempt for _, attempt, _ in runs})
        newest = [attempt for _, attempt, number in runs if latest.get(attempt) == number]
        Attempt.objects.filter(pk__in=newest).update(grading_status=GradingStatus.PENDING)
        # Stamped now so the next sweeps wait a full timeout before queueing them again.
        Attempt.objects.filter(grading_runs__pk__in=run_ids).update(
            grading_queued_at=timezone.now()
        )
        grading_enqueue(run_ids)
    logger.info("grading sweep queued %d run(s) again", len(run_ids))
    return run_ids


def grading_run_fail(*, run_id: int, reason: str) -> GradingRun:
    """Mark a run failed with the reason (a run already graded stays graded)."""
    with transaction.atomic():
        run = GradingRun.objects.select_for_update().get(pk=run_id)
        if run.status == RunStatus.GRADED:
            return run
        run.status = RunStatus.FAILED
        run.claimed_until = None
        run.error = reason[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "claimed_until", "error", "finished_at"])
        if run_is_newest(run=run):
            Attempt.objects.filter(pk=run.attempt_id).update(
                grading_status=GradingStatus.FAILED, grading_error=run.error
            )
        ledger_append_many(
            entries=[
                PendingEntry(
                    event=Event.RUN_FINISHED,
                    subject_type=Subject.GRADING_RUN,
                    subject_id=str(run.pk),
                    payload={
                        "attempt": run.attempt_id,
                        "number": run.number,
                        "trigger": run.trigger,
                        "status": run.status,
                        "error": run.error,
                        "vouches": row_vouches(GradingRun, [run.pk]),
                    },
                )
            ]
        )
    logger.warning("grading run %s failed: %s", run_id, reason)
    return run
