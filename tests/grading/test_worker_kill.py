"""A worker killed in the middle of a large batch loses no grade and grades nothing twice,
and what it was grading is queued again by the first sweep after the runs' leases ran out.

Needs Redis (its acks_late messages come back after the visibility timeout; the
server-less transports lose a killed worker's task) and PostgreSQL (a worker in another
process must see the test's data; SQLite's test database lives in this process's memory).
CI runs it with both.
"""

from collections import Counter
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.answered import PLAYER_WINS, SOFT_17, make_attempts
from tests.grading.waiting import wait_for
from tests.grading.workers import Worker, worker_process_marks
from trainer.models import Attempt, Grade, GradingRun, RunStatus
from trainer.services.grading.request import grading_request_batch
from trainer.services.grading.sweep import (
    grading_fault_bound,
    grading_lease,
    grading_sweep,
    grading_timeout,
)

pytestmark = worker_process_marks(redis_because="only it redelivers a killed worker's task")

ATTEMPTS = 300  # three batch tasks
# A queue of its own, so that the session's in-process worker (tests/conftest.py), if
# another test started it, takes none of these tasks: only the workers started here do.
QUEUE = "worker-kill"


@pytest.fixture
def own_queue(monkeypatch):
    from config.celery import app

    def send_task(name: str, *, args: tuple[object, ...], **options: Any) -> object:
        return app.send_task(name, args=args, queue=QUEUE, **options)

    # The broker's settings too: a submit's wake-up marks itself on its way there.
    monkeypatch.setattr(
        "core.queue.current_app", SimpleNamespace(send_task=send_task, conf=app.conf)
    )


ROUNDS = [PLAYER_WINS, SOFT_17] * 3  # 21 questions an attempt


def _unlocked_grading(run_ids: list[int]) -> bool:
    """No live transaction holds the runs being graded: the killed worker's backend has
    rolled back (PostgreSQL sees its connection close)."""
    with transaction.atomic():
        grading = GradingRun.objects.filter(pk__in=run_ids, status=RunStatus.GRADING)
        # The rows themselves, locked: Django leaves FOR UPDATE out of a count(), which
        # then never waited, and the sweep after it skipped rows the dead backend still held.
        free = grading.select_for_update(skip_locked=True).values_list("pk", flat=True)
        return len(free) == grading.count()


def test_a_killed_worker_loses_no_grade_and_grades_nothing_twice(trainee, tmp_path, own_queue):
    attempts = make_attempts(trainee, ATTEMPTS, ROUNDS)
    questions = sum(len(item.answer_key) for item in attempts[0].items.all())
    # The killed worker's task cannot come back from the broker during the test: only the
    # sweep, through the runs' leases, queues what it was grading again.
    first = Worker(tmp_path / "first.log", queues=QUEUE, CELERY_VISIBILITY_TIMEOUT="3600")
    second = None
    try:
        runs = grading_request_batch(attempts=attempts)
        run_ids = [r.pk for r in runs]

        def count(status: str) -> int:
            return GradingRun.objects.filter(pk__in=run_ids, status=status).count()

        # Killed once the first batch task has committed, during the next one.
        in_flight = lambda: count(RunStatus.GRADED) > 0 and count(RunStatus.GRADING) > 0  # noqa: E731
        assert wait_for(in_flight, seconds=180, every=0.02), first.output()
        first.kill()
        killed_at = timezone.now()
        assert count(RunStatus.GRADED) < ATTEMPTS, "the worker finished before it was killed"
        assert wait_for(lambda: _unlocked_grading(run_ids), seconds=60)

        # What the worker was grading holds a lease that ends within the configured lease
        # of the kill; the rest never left the broker (a prefetch of one).
        grading = GradingRun.objects.filter(pk__in=run_ids, status=RunStatus.GRADING)
        leases = list(grading.values_list("pk", "claimed_until"))
        assert leases, "killed between two batches: nothing was being graded"
        assert all(until <= killed_at + grading_lease() for _, until in leases)
        lapsed = max(until for _, until in leases) + timedelta(microseconds=1)
        # The first sweep after the leases ran out queues them again: that sweep comes at
        # most one interval later, so within grading_fault_bound() of the kill. With them go
        # the runs still pending past the grading timeout (their tasks wait in the broker,
        # and may have been received by the dead worker): queued again, graded once.
        assert lapsed - killed_at <= grading_fault_bound()
        queued = Attempt.objects.filter(grading_queued_at__lt=lapsed - grading_timeout())
        waited = set(
            GradingRun.objects.filter(
                pk__in=run_ids, status=RunStatus.PENDING, attempt__in=queued
            ).values_list("pk", flat=True)
        )
        swept = grading_sweep(now=lapsed)
        assert swept == sorted({pk for pk, _ in leases} | waited)
        assert grading_sweep(now=lapsed) == []

        second = Worker(tmp_path / "second.log", queues=QUEUE, CELERY_VISIBILITY_TIMEOUT="3600")
        assert wait_for(lambda: count(RunStatus.GRADED) == ATTEMPTS, seconds=300), second.output()
    finally:
        first.stop()
        if second is not None:
            second.stop()

    grades = Grade.objects.filter(run_id__in=run_ids)
    assert grades.count() == ATTEMPTS * questions
    per_run = Counter(dict(grades.values_list("run_id").annotate(n=Count("id"))))
    assert set(per_run.values()) == {questions}
    assert GradingRun.objects.filter(attempt__in=attempts).count() == ATTEMPTS
    finished = LedgerEntry.objects.filter(event=Event.RUN_FINISHED)
    assert sorted(int(s) for s in finished.values_list("subject_id", flat=True)) == run_ids
    assert ledger_verify().ok
