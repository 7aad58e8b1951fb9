"""POST /api/attempts/{id}/answers: record an answer, refuse bad input, never duplicate."""

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.models import LedgerEntry
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    natural_document,
)
from trainer.models import AttemptStatus, Decision, Mode
from trainer.services.attempts import attempt_start, attempt_submit

pytestmark = pytest.mark.django_db

# The first question of the natural_document round: settle p1's natural on 25.
RIGHT = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}


def post(api, attempt, body):
    return api.post(f"/api/attempts/{attempt.pk}/answers", body, format="json")


def test_it_records_the_answer_to_the_question_being_asked(api, shown):
    response = post(api, shown, RIGHT)
    assert response.status_code == 201
    body = response.json()
    decision = Decision.objects.get()
    assert body["decision"]["id"] == decision.pk
    assert body["decision"]["position"] == 1
    assert body["decision"]["question"] == 1
    assert body["decision"]["answer"] == {"action": "pay", "amount": "37.50"}
    assert body["decision"]["response_ms"] >= 0
    assert body["round_complete"] is False
    assert body["feedback"] is None


def test_an_identical_repeat_returns_the_same_decision_without_a_duplicate(api, shown):
    first = post(api, shown, RIGHT)
    ledger = LedgerEntry.objects.count()
    again = post(api, shown, RIGHT)
    assert again.status_code == 200
    assert again.json()["decision"]["id"] == first.json()["decision"]["id"]
    assert Decision.objects.count() == 1
    assert LedgerEntry.objects.count() == ledger


def test_a_different_answer_to_an_answered_question_is_refused(api, shown):
    post(api, shown, RIGHT)
    changed = {**RIGHT, "answer": {"action": "pay", "amount": "30"}}
    response = post(api, shown, changed)
    assert response.status_code == 409
    assert response.json()["code"] == "already_answered"
    assert Decision.objects.get().answer == {"action": "pay", "amount": "37.50"}


def test_practice_feedback_comes_with_the_round_s_last_answer(api, shown):
    post(api, shown, RIGHT)
    api.get(f"/api/attempts/{shown.pk}/question")
    last = {"position": 1, "question": 2, "answer": {"answer": "reshuffle"}}
    body = post(api, shown, last).json()
    assert body["round_complete"] is True
    assert [row["n"] for row in body["feedback"]] == [1, 2]
    settle, reshuffle = body["feedback"]
    assert settle["right"] is True
    assert settle["expected"] == {"action": "pay", "amount": "37.50"}
    assert settle["money_diff"] == "0.00"
    assert reshuffle["right"] is False
    assert reshuffle["expected"] == {"answer": "continue"}
    assert reshuffle["category"] == "procedure_error"


def test_an_exam_answer_carries_no_feedback(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    exam = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=assignment)
    for n, answer in ((1, RIGHT["answer"]), (2, {"answer": "continue"})):
        api.get(f"/api/attempts/{exam.pk}/question")
        body = post(api, exam, {"position": 1, "question": n, "answer": answer}).json()
    assert body["round_complete"] is True
    assert body["feedback"] is None
    assert "expected" not in str(body)


# (change to the right answer, the field named, words the message must hold)
BAD_INPUT = [
    pytest.param({"answer": {"action": "pay", "amount": "abc"}}, "amount", "'abc'", id="abc"),
    pytest.param({"answer": {"action": "pay", "amount": "-5"}}, "amount", "negative", id="-5"),
    pytest.param(
        {"answer": {"action": "pay", "amount": "1.234"}}, "amount", "to the cent", id="1.234"
    ),
    pytest.param({"answer": {"action": "pay", "amount": "1e9"}}, "amount", "'1e9'", id="1e9"),
    pytest.param(
        {"answer": {"action": "pay", "amount": "99999999999"}}, "amount", "'99999999999'", id="huge"
    ),
    pytest.param({"answer": {"action": "pay", "amount": 12.5}}, "amount", "string", id="12.5"),
    pytest.param({"answer": {"action": "pay", "amount": None}}, "amount", "string", id="null"),
    pytest.param({"answer": {"action": "pay"}}, "amount", "required", id="missing amount"),
    pytest.param({"answer": {"action": "pay", "amount": "0"}}, "amount", "more than 0", id="0"),
    pytest.param({"answer": {"action": "give", "amount": "5"}}, "action", "action", id="give"),
    pytest.param({"answer": {"amount": "37.50"}}, "action", "action", id="missing action"),
    # A field the question does not take is refused naming it, not ignored (issue #23).
    pytest.param(
        {"answer": {"answer": "stand"}},
        "answer",
        "takes action, amount",
        id="procedure word",
    ),
    pytest.param({"answer": "pay 37.50"}, "answer", "JSON object", id="answer a string"),
    pytest.param({"answer": None}, "answer", "null", id="null answer"),
    pytest.param({"drop": "answer"}, "answer", "required", id="missing answer"),
    pytest.param({"drop": "position"}, "position", "required", id="missing position"),
    pytest.param({"drop": "question"}, "question", "required", id="missing question"),
    pytest.param({"position": "1"}, "position", "integer", id="position a string"),
    pytest.param({"position": 1.0}, "position", "integer", id="position a float"),
    pytest.param({"question": True}, "question", "integer", id="question a boolean"),
    pytest.param({"position": 0}, "position", "greater than or equal to 1", id="position 0"),
    pytest.param({"position": 2**63}, "position", "less than or equal to", id="position huge"),
    pytest.param({"extra": 1}, "extra", "unknown field", id="unknown field"),
]


@pytest.mark.parametrize(("change", "field", "words"), BAD_INPUT)
def test_bad_input_is_refused_naming_what_is_wrong_and_records_nothing(
    api, shown, change, field, words
):
    body = {**RIGHT, **change}
    if "drop" in change:
        del body["drop"], body[change["drop"]]
    ledger = LedgerEntry.objects.count()
    response = post(api, shown, body)
    assert response.status_code == 400, response.json()
    error = response.json()
    assert set(error) == {"error", "field", "code"}
    assert error["field"].split(".")[-1] == field
    assert words in error["error"]
    assert Decision.objects.count() == 0
    assert LedgerEntry.objects.count() == ledger


def test_a_body_that_is_not_an_object_is_refused(api, shown):
    response = api.post(f"/api/attempts/{shown.pk}/answers", [1, 2], format="json")
    assert response.status_code == 400
    assert Decision.objects.count() == 0


@pytest.mark.parametrize("raw", ["{", '{"position": NaN}', '{"position": Infinity}', ""])
def test_a_body_that_is_not_strict_json_is_refused(api, shown, raw):
    url = f"/api/attempts/{shown.pk}/answers"
    response = api.post(url, raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] in ("parse_error", "required")
    assert Decision.objects.count() == 0


def test_an_answer_before_the_question_is_shown_is_refused(api, attempt):
    response = post(api, attempt, RIGHT)
    assert response.status_code == 409
    assert response.json()["code"] == "not_current"
    assert Decision.objects.count() == 0


def test_an_answer_to_another_trainee_s_attempt_is_404(api, other_trainee, shown):
    drill = DrillFactory(documents=[natural_document()])
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    response = post(api, theirs, RIGHT)
    assert response.status_code == 404
    assert Decision.objects.count() == 0


def test_an_answer_after_the_speed_time_box_is_refused_and_submits_the_attempt(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    speed = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED, assignment=assignment)
    api.get(f"/api/attempts/{speed.pk}/question")
    speed.deadline = timezone.now() - timedelta(seconds=1)
    speed.save(update_fields=["deadline"])
    response = post(api, speed, RIGHT)
    assert response.status_code == 409
    assert response.json()["code"] == "deadline_passed"
    assert Decision.objects.count() == 0
    speed.refresh_from_db()
    assert speed.status == AttemptStatus.SUBMITTED


def test_an_answer_after_submit_is_refused(api, trainee, shown):
    attempt_submit(attempt=shown, user=trainee)
    response = post(api, shown, RIGHT)
    assert response.status_code == 409
    assert "closed" in response.json()["error"]
    assert Decision.objects.count() == 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
answer_like = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["pay", "take", "push", "take_half", "", "PAY"]) | json_values,
        "amount": st.from_regex(r"-?[0-9]{0,12}(\.[0-9]{0,4})?([eE][0-9])?", fullmatch=True)
        | json_values,
        "answer": st.sampled_from(["stand", "continue", "offer"]) | json_values,
    },
)
bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "position": st.integers(-2, 4) | json_values,
            "question": st.integers(-2, 4) | json_values,
            "answer": answer_like | json_values,
        },
    )
    | json_values
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies)
def test_no_body_whatever_its_shape_makes_a_500_or_an_unrecorded_write(api, shown, body):
    before = Decision.objects.count()
    response = post(api, shown, body)
    assert response.status_code in (200, 201, 400, 409), response.content
    if response.status_code >= 400:
        assert set(response.json()) == {"error", "field", "code"}
        assert Decision.objects.count() == before
