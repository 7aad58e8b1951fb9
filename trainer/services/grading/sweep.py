"""Failing and sweeping: a run the task gave up on is marked failed; runs whose task was
lost are queued again."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from ledger.events import Event, Subject
from ledger.services.append import PendingEntry, ledger_append_many
from ledger.services.vouch import row_vouches
from trainer.models import Attempt, GradingRun, GradingStatus, RunStatus
from trainer.selectors.runs import run_is_newest
from trainer.services.grading.request import grading_enqueue

logger = logging.getLogger("trainer.services.grading")


def grading_timeout() -> timedelta:
    """How long a run may sit pending or grading before the sweep queues it again."""
    return timedelta(seconds=settings.SHOESCHOOL_GRADING_TIMEOUT_SECONDS)


def grading_sweep(*, timeout: timedelta | None = None) -> list[int]:
    """Queue again every run left pending or grading past the timeout; returns their ids.

    A task lost with a killed worker, or never sent because the broker was down at commit,
    is picked up here; running a run twice is harmless.
    """
    cutoff = timezone.now() - (grading_timeout() if timeout is None else timeout)
    with transaction.atomic():
        stuck: QuerySet[GradingRun] = GradingRun.objects.filter(
            status__in=[RunStatus.PENDING, RunStatus.GRADING],
            attempt__grading_queued_at__lt=cutoff,
        )
        run_ids = list(stuck.order_by("pk").values_list("pk", flat=True))
        if not run_ids:
            return []
        # Stamped now so the next sweep waits a full timeout before queueing them again.
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
        run.error = reason[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
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
