"""The submission path: a run's task grades the runs waiting behind it in the same batch.

On PostgreSQL a task takes the pending runs with SKIP LOCKED; SQLite has no SKIP LOCKED,
so there a task grades its own run only (both are asserted: the product runs on either).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledger.models import LedgerEntry
from tests.grading.submits import statuses, submitted
from tests.queries import assert_database_query_count
from trainer.models import Grade, GradingRun, RunStatus
from trainer.services.grading.coalesce import grading_run_execute_coalesced
from trainer.tasks import grade_run


@pytest.mark.django_db
def test_a_runs_task_grades_the_runs_waiting_behind_it(attempt_of):
    runs = submitted(attempt_of, 4)
    assert grade_run.run(runs[0].pk) == RunStatus.GRADED
    if connection.features.has_select_for_update_skip_locked:
        assert statuses(runs) == [RunStatus.GRADED] * 4
        assert Grade.objects.count() == 4 * 7
    else:
        assert statuses(runs) == [RunStatus.GRADED] + [RunStatus.PENDING] * 3


@pytest.mark.django_db
def test_the_later_tasks_of_runs_graded_in_a_batch_change_nothing(attempt_of):
    runs = submitted(attempt_of, 3)
    for run in runs:
        grade_run.run(run.pk)
    grades, entries = Grade.objects.count(), LedgerEntry.objects.count()
    # Each task delivered again (a redelivery after a lost acknowledgement).
    assert [grade_run.run(run.pk) for run in runs] == [RunStatus.GRADED] * 3
    assert (Grade.objects.count(), LedgerEntry.objects.count()) == (grades, entries)
    assert Grade.objects.count() == 3 * 7


# The task of a run a batch took along, with no run waiting: on PostgreSQL two reads (the
# run's status and whether any run is pending) outside a transaction: a finished run never
# opens again. Not a batch's lock and reads for nothing (8 before issue #29); SQLite has no
# SKIP LOCKED and goes through the batch, which finds nothing to grade.
ALREADY_GRADED_QUERIES = 2


@pytest.mark.django_db
def test_the_task_of_a_run_graded_already_costs_two_reads(attempt_of):
    runs = submitted(attempt_of, 3)
    grading_run_execute_coalesced(run_id=runs[0].pk)
    grades = Grade.objects.count()
    if connection.features.has_select_for_update_skip_locked:
        with assert_database_query_count(ALREADY_GRADED_QUERIES):
            done = grading_run_execute_coalesced(run_id=runs[1].pk)
        assert done == {runs[1].pk: RunStatus.GRADED}
    else:
        assert grading_run_execute_coalesced(run_id=runs[0].pk) == {runs[0].pk: RunStatus.GRADED}
    assert Grade.objects.count() == grades


@pytest.mark.django_db
def test_the_task_of_a_run_graded_already_grades_the_runs_still_waiting(attempt_of):
    # Runs submitted while the batch that took this task's run was being graded: their own
    # tasks are queued behind this one, so this one takes them (else a backlog drains only
    # as fast as the worker takes finished runs' tasks off the queue).
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no SKIP LOCKED: a task grades its own run only")
    first = submitted(attempt_of, 1)
    grading_run_execute_coalesced(run_id=first[0].pk)
    waiting = submitted(attempt_of, 3)
    done = grading_run_execute_coalesced(run_id=first[0].pk, most=2)
    assert done == {first[0].pk: RunStatus.GRADED, **{r.pk: RunStatus.GRADED for r in waiting[:2]}}
    assert statuses(waiting) == [RunStatus.GRADED, RunStatus.GRADED, RunStatus.PENDING]
    assert Grade.objects.count() == 3 * 7


@pytest.mark.django_db
def test_a_batch_takes_at_most_its_size(attempt_of):
    runs = submitted(attempt_of, 5)
    done = grading_run_execute_coalesced(run_id=runs[0].pk, most=3)
    expected = 3 if connection.features.has_select_for_update_skip_locked else 1
    assert sorted(done) == [run.pk for run in runs[:expected]]
    assert statuses(runs).count(RunStatus.GRADED) == expected


@pytest.mark.django_db(transaction=True)
def test_a_run_another_worker_holds_is_left_to_it_and_the_runs_waiting_are_taken(attempt_of):
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no row locks: one writer at a time")
    # Runs made without queueing their tasks: a worker of another test, still consuming the
    # broker, must not grade them behind this test's back.
    held, other = (
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(2)
    )
    locked, release = threading.Event(), threading.Event()

    def another_worker() -> None:
        # Holds the run's row as a batch that is grading it would.
        try:
            with transaction.atomic():
                list(GradingRun.objects.select_for_update().filter(pk=held.pk))
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=another_worker)
    thread.start()
    try:
        assert locked.wait(30)
        assert grade_run.run(held.pk) == "grading elsewhere"
        # The other waiting run is taken all the same: its submit may have sent no task of
        # its own, a wake-up (this task) being on its way.
        assert statuses([held, other]) == [RunStatus.PENDING, RunStatus.GRADED]
        assert grade_run.run(other.pk) == RunStatus.GRADED
    finally:
        release.set()
        thread.join(30)
    assert grade_run.run(held.pk) == RunStatus.GRADED


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries]


@pytest.mark.django_db(transaction=True)
def test_a_batch_takes_and_starts_its_runs_in_one_transaction(attempt_of):
    # Taking the runs waiting and marking them grading (with their attempts) were two
    # transactions, each a commit the worker waited for: on the submission path a batch is
    # a few runs, so a third of its round trips (issue #29). Now: the claim, then the grades.
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no SKIP LOCKED: a task grades its own run only, as any batch")
    # Runs made without queueing their tasks (committed, a queued task would reach a live
    # worker another test started).
    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(3)
    ]
    with CaptureQueriesContext(connection) as queries:
        done = grading_run_execute_coalesced(run_id=runs[0].pk)
    assert done == {run.pk: RunStatus.GRADED for run in runs}
    statements = _statements(queries)
    assert [s for s in statements if s in ("BEGIN", "COMMIT")] == ["BEGIN", "COMMIT"] * 2
    claim = statements[: statements.index("COMMIT")]
    # The claim marks the runs grading and their attempts with them.
    assert any(s.startswith('UPDATE "trainer_gradingrun"') and "'grading'" in s for s in claim)
    assert any(s.startswith('UPDATE "trainer_attempt"') and "'grading'" in s for s in claim)
    # The runs' numbers and statuses are read without the join to the attempts that the
    # model's order would add.
    reads = [s for s in statements if "MAX(" in s or '"trainer_gradingrun"."status" AS' in s]
    assert len(reads) >= 3
    assert not [s for s in reads if "JOIN" in s], reads


@pytest.mark.django_db
def test_the_grades_are_checked_before_the_ledger_head_is_taken(attempt_of):
    # The head is what every submit and answer waits for; the grades' foreign keys (three
    # a grade, checked at the commit by default) are checked before it is locked.
    runs = submitted(attempt_of, 2)
    with CaptureQueriesContext(connection) as queries:
        grading_run_execute_coalesced(run_id=runs[0].pk)
    statements = _statements(queries)
    head = next(n for n, s in enumerate(statements) if 'FROM "audit_ledgerhead"' in s)
    if connection.vendor == "postgresql":
        assert statements.index("SET CONSTRAINTS ALL IMMEDIATE") < head
    # After the head only the ledger's own statements, then the transaction's end.
    end = next(
        n for n, s in enumerate(statements) if n > head and s.startswith(("RELEASE", "COMMIT"))
    )
    after = statements[head + 1 : end]
    assert after
    assert all("ledger" in s for s in after), after
