"""GET/POST /api/attempts/ and GET /api/attempts/{id}/: list, start and read attempts."""

import pytest

from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    natural_document,
    simple_document,
)
from trainer.models import Attempt, AttemptStatus, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def drill():
    return DrillFactory(documents=[natural_document(), simple_document()])


def test_it_starts_a_practice_attempt_with_every_round_dealt(api, trainee, drill):
    response = api.post("/api/attempts/", {"drill": drill.pk, "mode": "practice"}, format="json")
    assert response.status_code == 201
    body = response.json()
    attempt = Attempt.objects.get(pk=body["id"])
    assert attempt.trainee == trainee
    assert body["drill"] == {"id": drill.pk, "title": drill.title}
    assert body["mode"] == "practice"
    assert body["status"] == "in_progress"
    assert body["grading_status"] == "not_submitted"
    assert body["progress"] == {"rounds": 2, "rounds_answered": 0, "decisions": 0}


def test_it_resumes_the_attempt_in_progress_instead_of_starting_another(api, drill):
    first = api.post("/api/attempts/", {"drill": drill.pk, "mode": "practice"}, format="json")
    again = api.post("/api/attempts/", {"drill": drill.pk, "mode": "practice"}, format="json")
    assert again.json()["id"] == first.json()["id"]
    assert Attempt.objects.count() == 1


def test_it_starts_an_exam_through_its_assignment(api, trainee, drill):
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    body = {"drill": drill.pk, "mode": "exam", "assignment": assignment.pk}
    response = api.post("/api/attempts/", body, format="json")
    assert response.status_code == 201
    assert response.json()["assignment"] == assignment.pk


def test_it_refuses_an_exam_without_an_assignment(api, drill):
    response = api.post("/api/attempts/", {"drill": drill.pk, "mode": "exam"}, format="json")
    assert response.status_code == 403
    assert "assignment" in response.json()["error"]
    assert Attempt.objects.count() == 0


def test_it_answers_404_for_another_trainee_s_assignment(api, other_trainee, drill):
    theirs = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=other_trainee)
    body = {"drill": drill.pk, "mode": "exam", "assignment": theirs.pk}
    response = api.post("/api/attempts/", body, format="json")
    assert response.status_code == 404
    assert response.json()["field"] == "assignment"
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"mode": "practice"}, "drill"),
        ({"drill": 1}, "mode"),
        ({"drill": "one", "mode": "practice"}, "drill"),
        ({"drill": "1", "mode": "practice"}, "drill"),
        ({"drill": 0, "mode": "practice"}, "drill"),
        ({"drill": 1, "mode": "casual"}, "mode"),
        ({"drill": 1, "mode": "practice", "seed": 4}, "seed"),
        ({"drill": 1, "mode": "practice", "assignment": "x"}, "assignment"),
    ],
)
def test_it_refuses_a_malformed_start_naming_the_field(api, body, field):
    response = api.post("/api/attempts/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert field in response.json()["error"]
    assert Attempt.objects.count() == 0


def test_it_answers_404_for_a_drill_that_does_not_exist_or_is_retired(api, drill):
    drill.is_active = False
    drill.save()
    for drill_id in (drill.pk, drill.pk + 100):
        response = api.post(
            "/api/attempts/", {"drill": drill_id, "mode": "practice"}, format="json"
        )
        assert response.status_code == 404
        assert response.json()["field"] == "drill"


def test_it_refuses_a_body_that_is_not_json(api):
    response = api.post("/api/attempts/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_it_lists_only_the_trainee_s_own_attempts_filtered_by_mode(
    api, trainee, other_trainee, drill
):
    mine = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    exam = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    my_exam = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=exam)

    everything = api.get("/api/attempts/").json()
    assert {a["id"] for a in everything["results"]} == {mine.pk, my_exam.pk}

    exams = api.get("/api/attempts/", {"mode": "exam"}).json()
    assert [a["id"] for a in exams["results"]] == [my_exam.pk]
    graded = api.get("/api/attempts/", {"grading_status": "graded"}).json()
    assert graded["results"] == []
    in_progress = api.get("/api/attempts/", {"status": AttemptStatus.IN_PROGRESS}).json()
    assert in_progress["count"] == 2


def test_it_refuses_an_unknown_filter_value(api):
    response = api.get("/api/attempts/", {"status": "won"})
    assert response.status_code == 400
    assert response.json()["field"] == "status"


def test_it_shows_one_attempt_with_its_progress(api, trainee, drill):
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    response = api.get(f"/api/attempts/{attempt.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == attempt.pk
    assert body["progress"]["rounds"] == 2
    assert body["score"] is None


def test_it_answers_404_for_another_trainee_s_attempt(api, other_trainee, drill):
    theirs = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    response = api.get(f"/api/attempts/{theirs.pk}/")
    assert response.status_code == 404
    assert response.json() == {"error": "no such attempt", "field": "attempt", "code": "not_found"}
