"""GET /api/attempts/{id}/results: the grading state, then the score and every grade."""

import pytest

from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from trainer.models import GradingRun, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db


@pytest.fixture
def exam(trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=assignment)
    # Question 1 (a natural on 25) underpaid by 7.50; question 2 (reshuffle?) left unanswered.
    attempt_question_show(attempt=attempt, user=trainee)
    answer = {"action": "pay", "amount": "30"}
    decision_record(attempt=attempt, user=trainee, position=1, question=1, answer=answer)
    return attempt


def results(api, attempt):
    response = api.get(f"/api/attempts/{attempt.pk}/results")
    assert response.status_code == 200
    return response.json()


def test_before_submit_it_says_not_submitted_and_shows_no_grade(api, exam):
    body = results(api, exam)
    assert body["status"] == "not_submitted"
    assert body["score"] is None
    assert body["grades"] == []
    assert "37.50" not in str(body)


def test_after_submit_it_says_pending_and_still_shows_no_expected_answer(api, trainee, exam):
    attempt_submit(attempt=exam, user=trainee)
    body = results(api, exam)
    assert body["status"] == "pending"
    assert body["grades"] == []
    assert "37.50" not in str(body)


def test_once_graded_it_shows_the_score_pass_fail_and_every_grade(api, trainee, exam):
    attempt_submit(attempt=exam, user=trainee)
    grading_run_execute(run_id=GradingRun.objects.get(attempt=exam).pk)
    body = results(api, exam)
    assert body["status"] == "graded"
    assert body["score"] == "0.00"
    assert body["passed"] is False
    assert (body["questions"], body["correct"]) == (2, 0)
    assert body["underpaid"] == "7.50"
    # The reshuffle question was never shown: it counts against the score, unlisted.
    [settle] = body["grades"]
    assert body["not_reached"] == 1
    assert "continue" not in str(body)
    assert settle["position"] == 1
    assert settle["question"] == 1
    assert settle["correct"] is False
    assert settle["given"] == {"action": "pay", "amount": "30.00"}
    assert settle["expected"] == {"action": "pay", "amount": "37.50"}
    assert settle["money_diff"] == "-7.50"
    assert settle["category"] == "underpay"


def test_it_answers_404_for_another_trainee_s_attempt(api, other_trainee):
    drill = DrillFactory(documents=[natural_document()])
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    assert api.get(f"/api/attempts/{theirs.pk}/results").status_code == 404
