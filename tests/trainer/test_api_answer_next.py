"""POST /api/attempts/{id}/answers?next=question: the answer, and the question asked now.

One request a question instead of two (issue #29): the question comes back as GET
…/question would give it, its clock started then, never with its answer.
"""

from datetime import datetime

import pytest

from ledger.models import LedgerEntry
from tests.queries import assert_database_query_count
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from tests.trainer.test_api_question import assert_no_answer_in, key_of, stakes_in
from trainer.models import AttemptItem, Decision, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db

# natural_document: settle p1's natural on 25 (question 1), then reshuffle or not (2).
SETTLE = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}
CONTINUE = {"position": 1, "question": 2, "answer": {"answer": "reshuffle"}}


def answer(api, attempt, body, query="?next=question"):
    return api.post(f"/api/attempts/{attempt.pk}/answers{query}", body, format="json")


def shown_moments(attempt, position):
    return AttemptItem.objects.get(attempt=attempt, position=position).questions_shown


def test_the_answer_brings_the_question_asked_now_with_its_clock_started(api, shown):
    response = answer(api, shown, SETTLE)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["decision"]["question"] == 1
    after = body["next"]
    assert after["attempt"] == shown.pk
    assert after["status"] == "in_progress"
    assert (after["question"]["position"], after["question"]["n"]) == (1, 2)
    # Its showing was recorded by this response, and a GET now gives the same question.
    assert shown_moments(shown, 1)["2"] == after["question"]["shown_at"]
    again = api.get(f"/api/attempts/{shown.pk}/question").json()
    assert again == after


def test_without_next_nothing_more_is_shown(api, shown):
    body = answer(api, shown, SETTLE, query="").json()
    assert body["next"] is None
    assert "2" not in shown_moments(shown, 1)


def test_the_next_question_never_carries_its_answer(api, shown):
    answer(api, shown, SETTLE)
    # The round's last answer: the next is the second round's first question.
    body = answer(api, shown, CONTINUE).json()
    assert body["round_complete"] is True
    assert body["feedback"]  # practice: the round's verdicts come too
    question = body["next"]["question"]
    assert (question["position"], question["n"]) == (2, 1)
    assert_no_answer_in(body["next"], key_of(shown, 2, 1), stakes_in(question["view"]))


def test_the_decision_after_is_timed_from_the_showing_the_answer_sent(api, shown):
    shown_at = answer(api, shown, SETTLE).json()["next"]["question"]["shown_at"]
    decision = answer(api, shown, CONTINUE, query="").json()["decision"]
    moment = datetime.fromisoformat(shown_at)
    assert datetime.fromisoformat(decision["shown_at"].replace("Z", "+00:00")) == moment
    assert Decision.objects.get(question=2).shown_at == moment


def test_after_the_last_question_next_is_none_and_the_attempt_stays_open(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    api.get(f"/api/attempts/{attempt.pk}/question")
    answer(api, attempt, SETTLE)
    body = answer(api, attempt, CONTINUE).json()
    assert body["next"] == {
        "attempt": attempt.pk,
        "status": "in_progress",
        "deadline": None,
        "question": None,
    }


def test_a_repeated_answer_brings_the_same_showing_again(api, shown):
    first = answer(api, shown, SETTLE)
    entries = LedgerEntry.objects.count()
    again = answer(api, shown, SETTLE)
    assert again.status_code == 200
    assert again.json()["next"] == first.json()["next"]
    assert Decision.objects.count() == 1
    assert LedgerEntry.objects.count() == entries


@pytest.mark.parametrize("query", ["?next=answer", "?next=", "?next=question&next=question"])
def test_a_bad_next_is_refused_and_nothing_is_written(api, shown, query):
    entries = LedgerEntry.objects.count()
    response = answer(api, shown, SETTLE, query=query)
    assert response.status_code == 400
    assert response.json()["field"] == "next"
    assert "question" in response.json()["error"]
    assert Decision.objects.count() == 0
    assert LedgerEntry.objects.count() == entries
    assert "2" not in shown_moments(shown, 1)


def test_someone_else_s_attempt_is_a_404_and_shows_nothing(api, other_trainee):
    drill = DrillFactory(documents=[natural_document(), simple_document()])
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    for query in ("?next=question", "?next=answer"):
        response = answer(api, theirs, SETTLE, query=query)
        assert response.status_code == 404
    assert Decision.objects.count() == 0
    assert shown_moments(theirs, 1) == {}


# The answer's own 10 (tests/test_query_counts.py), then the question asked now with its
# attempt and drill, and its first showing's conditional UPDATE: 12 in one request where a
# GET …/question after it took 4 more (its session and user again).
ANSWER_AND_NEXT_QUERIES = 12


def test_the_answer_and_the_next_question_in_one_request_s_queries(api, trainee, shown):
    # The ledger's first entry makes its head: another attempt's answer, before counting.
    earlier = attempt_start(
        trainee=trainee, drill=DrillFactory(documents=[natural_document()]), mode=Mode.PRACTICE
    )
    api.get(f"/api/attempts/{earlier.pk}/question")
    assert answer(api, earlier, SETTLE, query="").status_code == 201
    with assert_database_query_count(ANSWER_AND_NEXT_QUERIES):
        response = answer(api, shown, SETTLE)
    assert response.status_code == 201
    assert response.json()["next"]["question"]["n"] == 2
