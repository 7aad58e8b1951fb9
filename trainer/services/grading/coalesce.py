"""Grading on the submission path: one task per submitted attempt, graded in batches.

A submit queues one task for its one run, and a batch's fixed cost (its queries, COPYs and
ledger append) dwarfs one attempt's ~40 decisions. So the task for a run also takes the
other runs still waiting when it starts — the ones that arrived while the worker was busy —
and grades them all in one batch. A submit alone is graded at once, its batch the one run;
submits coming faster than one a second wait half a second for the ones behind them (the
wake-up's gather, below), so a class submitting together is graded in batches of many; once
a batch comes out big (half a full one) the wake-ups go at once again for a second (the
hurry), the queue itself making the batches.

Since it takes every run waiting, such a task is a wake-up (core.queue): while one is on its
way and has not started, a submit queues none (trainer.services.grading.request's
grading_wake_up), and the task, as it starts, lets the submits after it queue again. A task
whose batch came out full may have left runs waiting: it queues a task for them at once,
even while a wake-up (gathering, perhaps: grading_wake_up) is on its way. Runs
queued otherwise (the sweep's, a regrade's) keep their own tasks; a later one finds its run
graded (grading is idempotent) and still takes the runs waiting then.

Runs are taken with SKIP LOCKED so two workers never wait on each other's batch; a run
another worker has already started (status grading) is left to it. SQLite has no SKIP
LOCKED: there a task grades its own run only, and every submit queues its task.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection, transaction

from core.queue import DATABASE_ERRORS, wake_up_hurry, wake_up_started
from trainer.models import GradingRun, RunStatus
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.request import (
    GRADING_BELL,
    GRADING_GATHER_SECONDS,
    GRADING_HURRY_AT,
    RUNS_PER_TASK,
    grading_enqueue,
)
from trainer.services.grading.start import grading_runs_mark_started

_OPEN = (RunStatus.PENDING, RunStatus.GRADING)
# What a task reports of its run when another worker's transaction holds it.
GRADING_ELSEWHERE = "grading elsewhere"


class _Claimed(NamedTuple):
    pk: int
    attempt_id: int
    number: int


class BatchGradingError(Exception):
    """A batch's grading raised (not the database): the runs it took, to grade one by one
    (they were marked grading, so no other task takes them before their lease runs out)."""

    def __init__(self, run_ids: list[int], finished: str | None) -> None:
        super().__init__(f"grading runs {run_ids} together failed")
        self.run_ids = run_ids
        # The task's own run's status when it was not among them.
        self.finished = finished


def _waiting_runs(*, run_id: int, most: int) -> tuple[list[int], str | None, bool]:
    """The runs this task grades: its run and up to `most - 1` other runs still pending,
    oldest first; the run's status when it is finished already (GRADING_ELSEWHERE when
    another worker's transaction holds it); and whether they are marked grading already.

    A finished run's task still takes up to `most` pending runs along when there are any:
    otherwise the runs behind a backlog would wait for their own tasks, queued behind every
    task of a run graded already, and grading would go no faster than the worker can take
    empty tasks off the queue (issue #29: three times slower at 2,000 submits). With no run
    pending, that task costs two reads and no transaction.

    They are marked grading in the same transaction that takes them, under this worker's
    lease, so no other worker's batch takes them too (one transaction, not two: each costs
    a commit, and a batch on the submission path is a few runs). When another transaction
    holds the run itself, another worker is grading it (should that worker die, its
    transaction rolls back and the sweep queues the run again once its lease ran out); the
    task still takes the runs waiting, whose submits may have queued no task of their own.
    """
    if not connection.features.has_select_for_update_skip_locked:
        return [run_id], None, False
    # A finished run never opens again (the sweep reopens only pending and grading ones; a
    # regrade is a new run), so its task needs no lock to know it.
    status = GradingRun.objects.filter(pk=run_id).order_by().values_list("status", flat=True)
    finished = next(iter(status), None)
    if finished in _OPEN:
        finished = None
    elif finished is not None and not GradingRun.objects.filter(status=RunStatus.PENDING).exists():
        return [], finished, True
    fields = ("pk", "attempt_id", "number")
    with transaction.atomic():
        own: list[_Claimed] = []
        if finished is None:
            locked = list(
                GradingRun.objects.select_for_update(skip_locked=True)
                .filter(pk=run_id)
                .order_by()  # one row: no join to the attempt for the default ordering
                .values_list("status", *fields)
            )
            if not locked:
                finished = GRADING_ELSEWHERE
            elif locked[0][0] in _OPEN:
                own = [_Claimed(*locked[0][1:])]
            else:  # graded by another batch since it was read
                finished = locked[0][0]
        others = [
            _Claimed(*values)
            for values in GradingRun.objects.select_for_update(skip_locked=True)
            .filter(status=RunStatus.PENDING)
            .exclude(pk=run_id)
            .order_by("pk")
            .values_list(*fields)[: most - len(own)]
        ]
        claimed = [*own, *others]
        if claimed:
            grading_runs_mark_started(runs=claimed)
    return [run.pk for run in claimed], finished, True


def grading_run_execute_coalesced(*, run_id: int, most: int = RUNS_PER_TASK) -> dict[int, str]:
    """Grade a run together with the runs waiting behind it; returns each run's status
    (the run's own too when a batch had graded it already).

    The batch is graded as `grading_runs_execute` grades any batch (all or nothing, each
    run at most once), so a task delivered twice, or a run taken by two batches, is graded
    once. A batch that raises raises BatchGradingError with the runs it took, but for a
    database that cannot be reached (the task retries it).
    """
    # Before the runs are read: a submit committed after this sends a wake-up of its own.
    wake_up_started(GRADING_BELL)
    run_ids, finished, started = _waiting_runs(run_id=run_id, most=most)
    if len(run_ids) >= GRADING_HURRY_AT:
        wake_up_hurry(GRADING_BELL, lasting=2 * GRADING_GATHER_SECONDS)
    statuses: dict[int, str] = {}
    if run_ids:
        try:
            statuses = grading_runs_execute(run_ids=run_ids, started=started)
        except DATABASE_ERRORS:  # retried by the task, the runs still taken
            raise
        except Exception as exc:
            raise BatchGradingError(run_ids, finished) from exc
    if len(run_ids) == most:
        # A full batch: more runs may be waiting, whose submits queued nothing. They are
        # there already, so their task goes at once, even while a wake-up (gathering,
        # perhaps) is on its way: else a class submitting faster than a full batch each
        # gather would be graded no faster than that.
        grading_enqueue([run_ids[-1]])
    if finished is not None:
        statuses[run_id] = finished
    return statuses
