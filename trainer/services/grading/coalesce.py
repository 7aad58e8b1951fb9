"""Grading on the submission path: one task per submitted attempt, graded in batches.

A submit queues one task for its one run, and a batch's fixed cost (its queries, COPYs and
ledger append) dwarfs one attempt's ~40 decisions. So the task for a run also takes the
other runs still waiting when it starts — the ones that arrived while the worker was busy —
and grades them all in one batch. Their own tasks come later, find their runs graded and do
nothing (grading is idempotent). When submits are few the batch is the one run, so nothing
waits on a timer: batches grow only as the queue does.

Runs are taken with SKIP LOCKED so two workers never wait on each other's batch; a run
another worker has already started (status grading) is left to it. SQLite has no SKIP
LOCKED: there a task grades its own run only.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from trainer.models import GradingRun, RunStatus
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.lease import grading_lease
from trainer.services.grading.request import RUNS_PER_TASK

_OPEN = (RunStatus.PENDING, RunStatus.GRADING)


def _waiting_runs(*, run_id: int, most: int) -> tuple[list[int], str | None]:
    """The run and up to `most - 1` other runs still pending, oldest first; with the run's
    status instead when it is finished already (no runs then: one query, outside any
    transaction, for a task whose run a batch graded).

    The others are marked grading in the same transaction, so no other worker's batch takes
    them too, under this worker's lease. When another transaction holds the run itself,
    another worker is grading it: nothing is returned (should that worker die, its
    transaction rolls back and the sweep queues the run again once its lease ran out).
    """
    if not connection.features.has_select_for_update_skip_locked:
        return [run_id], None
    # A finished run never opens again (the sweep reopens only pending and grading ones; a
    # regrade is a new run), so a task whose run a batch took along needs no lock to know:
    # one read, no transaction.
    status = GradingRun.objects.filter(pk=run_id).order_by().values_list("status", flat=True)
    finished = next(iter(status), None)
    if finished is not None and finished not in _OPEN:
        return [], finished
    with transaction.atomic():
        own = list(
            GradingRun.objects.select_for_update(skip_locked=True)
            .filter(pk=run_id)
            .order_by()  # one row: no join to the attempt for the default ordering
            .values_list("status", flat=True)
        )
        if not own:
            return [], None
        if own[0] not in _OPEN:
            # Graded (or failed) already, by a batch that took it along: nothing to do, and
            # nothing to take along either (this task's batch would be the others' own).
            return [], own[0]
        others = list(
            GradingRun.objects.select_for_update(skip_locked=True)
            .filter(status=RunStatus.PENDING)
            .exclude(pk=run_id)
            .order_by("pk")
            .values_list("pk", flat=True)[: most - 1]
        )
        if others:
            now = timezone.now()
            GradingRun.objects.filter(pk__in=others).update(
                status=RunStatus.GRADING, started_at=now, claimed_until=now + grading_lease()
            )
    return [run_id, *others], None


def grading_run_execute_coalesced(*, run_id: int, most: int = RUNS_PER_TASK) -> dict[int, str]:
    """Grade a run together with the runs waiting behind it; returns each run's status.

    The batch is graded as `grading_runs_execute` grades any batch (all or nothing, each
    run at most once), so a task delivered twice, or a run taken by two batches, is graded
    once.
    """
    run_ids, finished = _waiting_runs(run_id=run_id, most=most)
    if finished is not None:
        return {run_id: finished}
    return grading_runs_execute(run_ids=run_ids) if run_ids else {}
