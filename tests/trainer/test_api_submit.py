"""POST /api/attempts/{id}/submit: close the attempt and queue its grading."""

import pytest

from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import AttemptStatus, GradingRun, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt(trainee):
    drill = DrillFactory(documents=[natural_document()])
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def test_it_submits_and_answers_202_with_the_grading_pending(api, attempt):
    response = api.post(f"/api/attempts/{attempt.pk}/submit")
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "submitted"
    assert body["grading_status"] == "pending"
    assert body["submitted_at"]
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.SUBMITTED
    assert GradingRun.objects.filter(attempt=attempt).count() == 1


def test_submitting_twice_queues_one_grading(api, attempt):
    api.post(f"/api/attempts/{attempt.pk}/submit")
    again = api.post(f"/api/attempts/{attempt.pk}/submit")
    assert again.status_code == 202
    assert GradingRun.objects.filter(attempt=attempt).count() == 1


def test_it_answers_404_for_another_trainee_s_attempt(api, other_trainee):
    drill = DrillFactory(documents=[natural_document()])
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    response = api.post(f"/api/attempts/{theirs.pk}/submit")
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.status == AttemptStatus.IN_PROGRESS


def test_it_only_allows_post(api, attempt):
    response = api.get(f"/api/attempts/{attempt.pk}/submit")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
