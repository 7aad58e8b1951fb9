from datetime import timedelta

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tests.grading.waiting import wait_for
from trainer.models import Attempt, Grade, GradingRun, GradingStatus, RunStatus
from trainer.services.grading.request import grading_request, grading_request_batch
from trainer.services.grading.sweep import grading_sweep

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def graded(*runs: GradingRun) -> bool:
    ids = [r.pk for r in runs]
    return GradingRun.objects.filter(pk__in=ids, status=RunStatus.GRADED).count() == len(ids)


def test_a_submitted_attempt_is_graded_by_the_worker(celery_worker, attempt_of):
    attempt = attempt_of()
    with transaction.atomic():
        run = grading_request(attempt=attempt)
    assert wait_for(lambda: graded(run))
    attempt.refresh_from_db()
    assert attempt.grading_status == GradingStatus.GRADED
    assert Grade.objects.filter(run=run).count() == 7


def test_a_batch_is_graded_by_the_worker_one_grade_per_question(celery_worker, attempt_of):
    attempts = [attempt_of() for _ in range(30)]
    runs = grading_request_batch(attempts=attempts)
    assert wait_for(lambda: graded(*runs))
    assert Grade.objects.count() == 30 * 7


def test_the_sweep_queues_again_a_run_whose_task_was_lost(celery_worker, attempt_of):
    attempt = attempt_of()
    # A run whose task never reached the broker: created without queueing anything.
    run = GradingRun.objects.create(attempt=attempt, number=1, trigger="submit")
    long_ago = timezone.now() - timedelta(hours=1)
    Attempt.objects.filter(pk=attempt.pk).update(
        grading_status=GradingStatus.PENDING, grading_queued_at=long_ago
    )
    assert grading_sweep() == [run.pk]
    assert wait_for(lambda: graded(run))


def test_the_sweep_runs_every_few_seconds_under_celery_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["grading-sweep"]
    assert entry == {
        "task": "trainer.tasks.grading_sweep",
        "schedule": float(settings.SHOESCHOOL_GRADING_SWEEP_SECONDS),
    }
    assert settings.SHOESCHOOL_GRADING_SWEEP_SECONDS == 5
