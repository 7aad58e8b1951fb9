"""POST /api/attempts/?next=question: the start, and the question asked now.

The start and the first question in one request instead of two (issue #29: on a busy floor
an attempt's start and its first question come in waves): the question comes back as GET
…/question would give it, its clock started then, never with its answer.
"""

import pytest

from ledger.models import LedgerEntry
from tests.queries import assert_database_query_count, per_vendor
from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from tests.trainer.test_api_question import assert_no_answer_in, key_of, stakes_in
from trainer.models import Attempt, AttemptItem, Mode

pytestmark = pytest.mark.django_db

SETTLE = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}


def start(api, drill, query="?next=question", mode="practice"):
    return api.post(f"/api/attempts/{query}", {"drill": drill.pk, "mode": mode}, format="json")


def shown_moments(attempt_id, position):
    return AttemptItem.objects.get(attempt_id=attempt_id, position=position).questions_shown


@pytest.fixture
def drill(db):
    return DrillFactory(documents=[natural_document(), natural_document()])


@pytest.mark.parametrize("mode", ["practice", "speed"])
def test_the_start_brings_the_first_question_with_its_clock_started(api, trainee, drill, mode):
    if mode == "speed":  # a speed attempt is sat under an assignment
        AssignmentFactory(drill=drill, trainee=trainee, mode=mode)
    response = start(api, drill, mode=mode)
    assert response.status_code == 201, response.content
    body = response.json()
    # The start's body is the attempt's, as ever, with `next` beside it.
    detail = api.get(f"/api/attempts/{body['id']}/").json()
    assert {k: v for k, v in body.items() if k != "next"} == detail
    assert body["status"] == "in_progress"
    assert body["progress"]["decisions"] == 0
    after = body["next"]
    assert after["attempt"] == body["id"]
    assert (after["question"]["position"], after["question"]["n"]) == (1, 1)
    assert after["deadline"] == body["deadline"]
    assert (after["deadline"] is None) == (mode == "practice")
    # Its showing was recorded by this response, and a GET now gives the same question.
    assert shown_moments(body["id"], 1)["1"] == after["question"]["shown_at"]
    assert api.get(f"/api/attempts/{body['id']}/question").json() == after
    attempt = Attempt.objects.get(pk=body["id"])
    assert_no_answer_in(after, key_of(attempt, 1, 1), stakes_in(after["question"]["view"]))


def test_without_next_nothing_is_shown(api, drill):
    body = start(api, drill, query="").json()
    assert body["next"] is None
    assert shown_moments(body["id"], 1) == {}


def test_a_resumed_attempt_brings_the_question_asked_now_its_clock_kept(api, drill):
    first = start(api, drill).json()
    answered = api.post(f"/api/attempts/{first['id']}/answers", SETTLE, format="json")
    assert answered.status_code == 201
    asked = api.get(f"/api/attempts/{first['id']}/question").json()
    again = start(api, drill).json()
    assert again["id"] == first["id"]
    assert again["next"] == asked
    assert (again["next"]["question"]["position"], again["next"]["question"]["n"]) == (1, 2)
    assert again["progress"]["decisions"] == 1


@pytest.mark.parametrize("query", ["?next=answer", "?next=", "?next=question&next=question"])
def test_a_bad_next_is_refused_and_nothing_is_started(api, drill, query):
    entries = LedgerEntry.objects.count()
    response = start(api, drill, query=query)
    assert response.status_code == 400
    assert response.json()["field"] == "next"
    assert "question" in response.json()["error"]
    assert Attempt.objects.count() == 0
    assert LedgerEntry.objects.count() == entries


def test_someone_else_s_assignment_starts_nothing_and_shows_nothing(api, other_trainee, drill):
    theirs = AssignmentFactory(drill=drill, trainee=other_trainee)
    body = {"drill": drill.pk, "mode": "practice", "assignment": theirs.pk}
    response = api.post("/api/attempts/?next=question", body, format="json")
    assert response.status_code == 404
    assert "question" not in response.content.decode()
    assert Attempt.objects.count() == 0


# The start's own (a practice attempt without an assignment: the session with the user, the
# drill, the trainee's assignment of it (none), the attempt in progress (none), the drill's
# rounds; the attempt and its rounds in a transaction; the progress) and the first
# question's: the attempt with its question, and its first showing's conditional UPDATE. A
# GET …/question after the start took those two and the session's read with the user again.
START_AND_FIRST_QUESTION_QUERIES = per_vendor(sqlite=12, postgresql=12)


def test_the_start_and_the_first_question_in_one_request_s_queries(api, trainee, drill):
    api.get("/api/attempts/")  # the session's first request saves it: not counted
    with assert_database_query_count(START_AND_FIRST_QUESTION_QUERIES):
        response = start(api, drill)
    assert response.status_code == 201
    assert response.json()["next"]["question"]["n"] == 1
    assert Attempt.objects.get(trainee=trainee).mode == Mode.PRACTICE
