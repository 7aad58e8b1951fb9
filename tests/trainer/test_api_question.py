"""GET /api/attempts/{id}/question: the question being asked, never its answer."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    insurance_document,
    natural_document,
    simple_document,
)
from trainer.models import AttemptItem, AttemptStatus, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


def documents():
    return [natural_document(), insurance_document(), simple_document()]


def key_of(attempt, position, n):
    """The server's answer-key item (tests may read it; the API must not send it)."""
    item = AttemptItem.objects.get(attempt=attempt, position=position)
    return item.answer_key[n - 1]


def holds(value, wanted):
    """Whether ``wanted`` appears anywhere inside the JSON value ``value``."""
    if value == wanted:
        return True
    if isinstance(value, dict):
        return any(holds(v, wanted) for v in value.values())
    if isinstance(value, list):
        return any(holds(v, wanted) for v in value)
    return False


def assert_no_answer_in(body, key, stakes):
    text = json.dumps(body)
    assert '"expected"' not in text
    assert '"rule"' not in text
    assert key["rule"] not in text
    assert not holds(body, key["expected"])
    amount = key["expected"].get("amount")
    # A payout that equals a stake on the table is shown as that stake; any other must not be.
    if amount and amount not in stakes:
        assert f'"{amount}"' not in text


def stakes_in(view):
    return {
        stake
        for box in view["boxes"]
        for entry in (*box["hands"], {"stakes": box.get("insurance", {})})
        for stake in entry["stakes"].values()
    }


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.EXAM, Mode.SPEED])
def test_no_question_carries_its_expected_answer_before_it_is_answered(api, trainee, mode):
    drill = DrillFactory(documents=documents())
    assignment = AssignmentFactory(drill=drill, mode=mode, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=mode, assignment=assignment)
    url = f"/api/attempts/{attempt.pk}"
    asked = 0
    while True:
        body = api.get(f"{url}/question").json()
        question = body["question"]
        if question is None:
            break
        key = key_of(attempt, question["position"], question["n"])
        assert_no_answer_in(body, key, stakes_in(question["view"]))
        assert_no_answer_in(api.get(f"{url}/").json(), key, set())
        assert_no_answer_in(api.get(f"{url}/results").json(), key, set())
        answer = {"position": question["position"], "question": question["n"]}
        response = api.post(f"{url}/answers", {**answer, "answer": key["expected"]}, format="json")
        assert response.status_code == 201
        asked += 1
    assert asked == 2 + 7 + 4


def test_it_describes_the_question_and_the_table(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    body = api.get(f"/api/attempts/{attempt.pk}/question").json()
    assert body["attempt"] == attempt.pk
    assert body["status"] == "in_progress"
    question = body["question"]
    assert question["position"] == 1
    assert question["rounds"] == 1
    assert question["n"] == 1
    # How many questions the round holds would tell what comes next.
    assert "of" not in question
    assert question["kind"] == "settle_hand"
    assert question["stake"] == "25.00"
    assert question["actions"] == ["pay", "take", "push", "take_half"]
    assert question["view"]["boxes"][0]["hands"][0]["cards"] == ["As", "Kd"]
    assert question["shown_at"]


def test_asking_again_keeps_the_first_showing_time(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    first = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    again = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    assert again["shown_at"] == first["shown_at"]
    assert again["n"] == first["n"]


def test_a_speed_attempt_past_its_time_box_is_submitted_and_asks_nothing(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED, assignment=assignment)
    attempt.deadline = timezone.now() - timedelta(seconds=1)
    attempt.save(update_fields=["deadline"])
    body = api.get(f"/api/attempts/{attempt.pk}/question").json()
    assert body["question"] is None
    assert body["status"] == AttemptStatus.SUBMITTED


def test_it_answers_404_for_another_trainee_s_attempt(api, other_trainee):
    drill = DrillFactory(documents=[natural_document()])
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    response = api.get(f"/api/attempts/{theirs.pk}/question")
    assert response.status_code == 404
    assert AttemptItem.objects.get(attempt=theirs).shown_at is None
