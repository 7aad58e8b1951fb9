"""A worker killed in the middle of a large batch loses no grade and grades nothing twice.

Needs Redis (its acks_late messages come back after the visibility timeout; the
server-less transports lose a killed worker's task) and PostgreSQL (a worker in another
process must see the test's data; SQLite's test database lives in this process's memory).
CI runs it with both.
"""

from collections import Counter

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Count

from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.answered import PLAYER_WINS, SOFT_17, make_attempts
from tests.grading.waiting import wait_for
from tests.grading.workers import Worker
from trainer.models import Grade, GradingRun, RunStatus
from trainer.services.grading.request import grading_request_batch

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith("redis://"),
        reason="needs Redis (CELERY_BROKER_URL=redis://...): only it redelivers a killed "
        "worker's task; CI sets it",
    ),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL): a worker process cannot see SQLite's "
        "in-memory test database; CI sets it",
    ),
]

ATTEMPTS = 300  # three batch tasks
ROUNDS = [PLAYER_WINS, SOFT_17] * 3  # 21 questions an attempt


def test_a_killed_worker_loses_no_grade_and_grades_nothing_twice(trainee, tmp_path):
    attempts = make_attempts(trainee, ATTEMPTS, ROUNDS)
    questions = sum(len(item.answer_key) for item in attempts[0].items.all())
    first = Worker(tmp_path / "first.log", CELERY_VISIBILITY_TIMEOUT="5")
    second = None
    try:
        runs = grading_request_batch(attempts=attempts)
        run_ids = [r.pk for r in runs]

        def graded() -> int:
            return GradingRun.objects.filter(pk__in=run_ids, status=RunStatus.GRADED).count()

        # Killed once the first batch task has committed, during the next ones.
        assert wait_for(lambda: graded() > 0, seconds=180, every=0.05), first.output()
        first.kill()
        done_before = graded()
        assert done_before < ATTEMPTS, "the worker finished before it could be killed"

        second = Worker(tmp_path / "second.log", CELERY_VISIBILITY_TIMEOUT="5")
        assert wait_for(lambda: graded() == ATTEMPTS, seconds=300), second.output()
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
