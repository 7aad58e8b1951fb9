"""Grading on the submission path: one task per submitted attempt, graded in batches.

A submit queues one task for its one run, and a batch's fixed cost (its queries, COPYs and
ledger append) dwarfs one attempt's ~40 decisions. So the task for a run also takes the
other runs still waiting when it starts — the ones that arrived while the worker was busy —
and grades them all in one batch. Their own tasks come later and find their runs graded
(grading is idempotent); each still takes along the runs waiting then, so a backlog drains
as fast as batches are graded, not as fast as empty tasks are taken off the queue. When
submits are few the batch is the one run, so nothing waits on a timer: batches grow only as
the queue does.

Runs are taken with SKIP LOCKED so two workers never wait on each other's batch; a run
another worker has already started (status grading) is left to it. SQLite has no SKIP
LOCKED: there a task grades its own run only.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import connection, transaction

from trainer.models import GradingRun, RunStatus
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.request import RUNS_PER_TASK
from trainer.services.grading.start import grading_runs_mark_started

_OPEN = (RunStatus.PENDING, RunStatus.GRADING)


class _Claimed(NamedTuple):
    pk: int
    attempt_id: int
    number: int


def _waiting_runs(*, run_id: int, most: int) -> tuple[list[int], str | None, bool]:
    """The runs this task grades: its run and up to `most - 1` other runs still pending,
    oldest first; the run's status when it is finished already; and whether they are marked
    grading already.

    A finished run's task still takes up to `most` pending runs along when there are any:
    otherwise the runs behind a backlog would wait for their own tasks, queued behind every
    task of a run graded already, and grading would go no faster than the worker can take
    empty tasks off the queue (issue #29: three times slower at 2,000 submits). With no run
    pending, that task costs two reads and no transaction.

    They are marked grading in the same transaction that takes them, under this worker's
    lease, so no other worker's batch takes them too (one transaction, not two: each costs
    a commit, and a batch on the submission path is a few runs). When another transaction
    holds the run itself, another worker is grading it: nothing is returned (should that
    worker die, its transaction rolls back and the sweep queues the run again once its
    lease ran out).
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
                return [], None, True
            status_now, *values = locked[0]
            if status_now in _OPEN:
                own = [_Claimed(*values)]
            else:  # graded by another batch since it was read
                finished = status_now
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
    once.
    """
    run_ids, finished, started = _waiting_runs(run_id=run_id, most=most)
    statuses = grading_runs_execute(run_ids=run_ids, started=started) if run_ids else {}
    if finished is not None:
        statuses[run_id] = finished
    return statuses
