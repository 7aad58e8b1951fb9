"""Celery tasks of the trainer: thin wrappers that take ids and call one grading service.

Every task may run twice without harm: a graded run is a no-op. Database errors are
retried with backoff (the run's transaction rolled back, nothing half-written); any other
error fails the run with the reason, so a bug cannot keep a run bouncing forever.

None stores its result (``ignore_result``): the run's row is the record, nobody reads a
task's return value, and the result backend's row would cost each task a write (one per
submit, and the sweep's every few seconds) and grow a table nobody reads.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task

from core.errors import NotFoundError
from core.queue import DATABASE_ERRORS
from trainer.services.attempts import attempts_close_expired
from trainer.services.grading.coalesce import BatchGradingError, grading_run_execute_coalesced
from trainer.services.grading.execute import grading_run_execute, grading_runs_execute
from trainer.services.grading.sweep import grading_run_fail, grading_sweep

logger = logging.getLogger(__name__)


class GradingTask(Task):
    """Fails the runs of a task whose retries ran out, when the database allows it."""

    def on_failure(
        self,
        exc: Exception,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: Any,
    ) -> None:
        run_ids = kwargs.get("run_ids") or (args[0] if args else [])
        if isinstance(run_ids, int):
            run_ids = [run_ids]
        for run_id in run_ids:
            try:
                grading_run_fail(run_id=run_id, reason=f"gave up after retries: {exc}")
            except DATABASE_ERRORS:
                # Still down: the run stays pending or grading and the sweep queues it again.
                logger.warning("could not mark run %s failed; the sweep will retry it", run_id)


def _execute(run_id: int) -> str:
    try:
        return grading_run_execute(run_id=run_id).status
    except DATABASE_ERRORS:
        raise
    except NotFoundError:
        logger.warning("grading run %s does not exist; nothing to grade", run_id)
        return "missing"
    except Exception as exc:
        logger.exception("grading run %s failed", run_id)
        return grading_run_fail(run_id=run_id, reason=f"internal error: {exc!r}").status


@shared_task(
    base=GradingTask,
    name="trainer.tasks.grade_run",
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=10,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def grade_run(run_id: int) -> str:
    """Grade one run together with the runs waiting behind it (the submission path: see
    trainer.services.grading.coalesce); returns the run's status."""
    try:
        statuses = grading_run_execute_coalesced(run_id=run_id)
    except BatchGradingError as failed:
        # One bad run must not hold back the rest, whose submits may have queued no task of
        # their own: each graded alone, failing only the bad one.
        logger.exception("grading runs %s together failed; grading them one by one", failed.run_ids)
        statuses = {each: _execute(each) for each in failed.run_ids}
        if failed.finished is not None:
            statuses[run_id] = failed.finished
    except DATABASE_ERRORS:
        raise
    except Exception:
        # Taking the runs failed: the run this task is for, alone.
        logger.exception("grading run %s with the runs behind it failed; grading it alone", run_id)
        return _execute(run_id)
    if run_id not in statuses:
        logger.warning("grading run %s does not exist; nothing to grade", run_id)
        return "missing"
    return statuses[run_id]


@shared_task(
    base=GradingTask,
    name="trainer.tasks.grade_runs",
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=10,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def grade_runs(run_ids: list[int]) -> dict[int, str]:
    """Grade several runs in one transaction; a retry skips the ones already graded."""
    try:
        return grading_runs_execute(run_ids=run_ids)
    except DATABASE_ERRORS:
        raise
    except Exception:
        # One bad run must not hold back the rest: grade them one by one, failing only it.
        logger.exception("grading runs %s failed together; grading them one by one", run_ids)
        return {run_id: _execute(run_id) for run_id in run_ids}


@shared_task(name="trainer.tasks.close_expired_attempts", acks_late=True, ignore_result=True)
def close_expired_attempts() -> int:
    """Submit attempts whose time box has ended (Celery beat, every minute)."""
    return len(attempts_close_expired())


@shared_task(name="trainer.tasks.grading_sweep", acks_late=True, ignore_result=True)
def grading_sweep_task() -> int:
    """Queue again the runs whose task was lost or whose worker died (Celery beat, every
    SHOESCHOOL_GRADING_SWEEP_SECONDS: trainer.services.grading.lease)."""
    return len(grading_sweep())
