"""A run being graded holds a lease; the sweep queues again only runs whose lease ran out and
that nobody is grading, within a bound set by configuration, and a run is graded once.

The clock is never waited on: the sweep is given the moment it runs (`now`), and the bound is
read from the settings and the beat schedule.
"""

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection, connections, transaction
from django.test import override_settings
from django.utils import timezone

from ledger.events import Event
from ledger.models import LedgerEntry
from trainer.models import Attempt, Grade, GradingRun, GradingStatus, RunStatus
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request
from trainer.services.grading.start import grading_run_start
from trainer.services.grading.sweep import (
    grading_fault_bound,
    grading_lease,
    grading_sweep,
)

# The run's own worker "died" with its task; a live worker another test of the session started
# must not grade it.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_to_a_queue_nobody_reads")]


def claimed(attempt_of) -> GradingRun:
    """A run a worker started grading (its lease taken) and then died with."""
    run = grading_request(attempt=attempt_of())
    assert grading_run_start(run_ids=[run.pk]) == [run.pk]
    run.refresh_from_db()
    return run


def test_starting_a_run_takes_its_lease(attempt_of):
    before = timezone.now()
    run = claimed(attempt_of)
    assert run.status == RunStatus.GRADING
    assert before + grading_lease() <= run.claimed_until <= timezone.now() + grading_lease()


def test_a_run_whose_lease_holds_is_left_alone(attempt_of):
    run = claimed(attempt_of)
    assert grading_sweep(now=run.claimed_until - timedelta(microseconds=1)) == []
    run.refresh_from_db()
    assert run.status == RunStatus.GRADING


def test_a_run_whose_lease_ran_out_is_queued_again_as_pending(
    attempt_of, django_capture_on_commit_callbacks
):
    run = claimed(attempt_of)
    with django_capture_on_commit_callbacks() as callbacks:
        assert grading_sweep(now=run.claimed_until + timedelta(microseconds=1)) == [run.pk]
    assert len(callbacks) == 1  # the task sent again
    run.refresh_from_db()
    assert (run.status, run.claimed_until) == (RunStatus.PENDING, None)
    attempt = Attempt.objects.get(pk=run.attempt_id)
    assert attempt.grading_status == GradingStatus.PENDING
    # Pending now, with a fresh queue time: the next sweeps leave it to its task.
    assert grading_sweep(now=timezone.now()) == []


def test_a_run_queued_again_is_graded_once_however_often_it_is_delivered(attempt_of):
    run = claimed(attempt_of)
    assert grading_sweep(now=run.claimed_until + timedelta(seconds=1)) == [run.pk]
    for _ in range(3):  # the swept task, the broker's redelivery, one more
        assert grading_run_execute(run_id=run.pk).status == RunStatus.GRADED
    assert Grade.objects.filter(run=run).count() == 7
    finished = LedgerEntry.objects.filter(event=Event.RUN_FINISHED, subject_id=str(run.pk))
    assert finished.count() == 1
    assert grading_sweep(now=timezone.now() + timedelta(days=1)) == []


def test_a_finished_run_never_holds_a_lease(attempt_of):
    run = claimed(attempt_of)
    grading_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert (run.status, run.claimed_until) == (RunStatus.GRADED, None)


def test_a_lost_pending_run_still_waits_for_the_grading_timeout(attempt_of):
    run = grading_request(attempt=attempt_of())
    queued = Attempt.objects.get(pk=run.attempt_id).grading_queued_at
    timeout = timedelta(seconds=settings.SHOESCHOOL_GRADING_TIMEOUT_SECONDS)
    assert grading_sweep(now=queued + timeout - timedelta(seconds=1)) == []
    assert grading_sweep(now=queued + timeout + timedelta(seconds=1)) == [run.pk]


@override_settings(
    SHOESCHOOL_GRADING_LEASE_SECONDS=7,
    SHOESCHOOL_GRADING_TIMEOUT_SECONDS=5,
    SHOESCHOOL_GRADING_SWEEP_SECONDS=3,
)
def test_the_bound_is_the_lease_and_one_sweep_interval():
    assert grading_lease() == timedelta(seconds=7)
    assert grading_fault_bound() == timedelta(seconds=10)


@override_settings(
    SHOESCHOOL_GRADING_LEASE_SECONDS=7,
    SHOESCHOOL_GRADING_TIMEOUT_SECONDS=12,
    SHOESCHOOL_GRADING_SWEEP_SECONDS=3,
)
def test_the_bound_covers_a_received_task_s_pending_run_too():
    # A task the worker received and had not started leaves its run pending: the sweep
    # takes it back after the grading timeout, so the bound is the longer of the two.
    assert grading_fault_bound() == timedelta(seconds=15)


def test_a_pending_run_is_queued_again_in_seconds_not_minutes():
    assert timedelta(seconds=settings.SHOESCHOOL_GRADING_TIMEOUT_SECONDS) <= grading_fault_bound()
    assert grading_fault_bound() <= timedelta(seconds=30)


def test_beat_sweeps_every_few_seconds_as_configured():
    entry = settings.CELERY_BEAT_SCHEDULE["grading-sweep"]
    assert entry["task"] == "trainer.tasks.grading_sweep"
    assert entry["schedule"] == float(settings.SHOESCHOOL_GRADING_SWEEP_SECONDS)
    # Seconds, not the next minute: a killed worker's run is queued again within the bound.
    assert grading_fault_bound() <= timedelta(seconds=30)
    assert settings.SHOESCHOOL_GRADING_SWEEP_SECONDS < settings.SHOESCHOOL_GRADING_LEASE_SECONDS


def test_a_worker_reserves_only_the_task_it_runs():
    # Acknowledged late with a prefetch of one, a killed worker holds few tasks it had not
    # started (tests/grading/test_worker_kill_received.py: the sweep takes their runs back).
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL): a run's row lock is how the sweep knows a "
    "worker is still grading it; SQLite has no row locks",
)
def test_a_run_still_locked_by_its_grader_is_not_queued_again(attempt_of):
    run = claimed(attempt_of)
    locked, release = threading.Event(), threading.Event()

    def grader() -> None:
        # A live worker: its grading transaction holds the run's row, the lease long gone.
        try:
            with transaction.atomic():
                GradingRun.objects.select_for_update().get(pk=run.pk)
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=grader)
    thread.start()
    try:
        assert locked.wait(30)
        assert grading_sweep(now=run.claimed_until + timedelta(hours=1)) == []
    finally:
        release.set()
        thread.join()
    assert grading_sweep(now=run.claimed_until + timedelta(hours=1)) == [run.pk]
