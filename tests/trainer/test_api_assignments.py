"""GET /api/assignments/: the trainee's assigned drills with their own attempts."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    TrainingClassFactory,
    natural_document,
)
from trainer.models import Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


def ids(response):
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def test_it_lists_direct_and_class_assignments_but_not_other_trainees(api, trainee, other_trainee):
    drill = DrillFactory(documents=[natural_document()])
    mine = AssignmentFactory(drill=drill, trainee=trainee)
    klass = TrainingClassFactory(trainees=[trainee, other_trainee])
    ours = AssignmentFactory(drill=drill, mode=Mode.EXAM, training_class=klass)
    AssignmentFactory(drill=drill, trainee=other_trainee)
    assert sorted(ids(api.get("/api/assignments/"))) == sorted([mine.pk, ours.pk])


def test_it_shows_the_drill_mode_due_date_and_only_the_trainee_s_attempts(
    api, trainee, other_trainee
):
    drill = DrillFactory(documents=[natural_document()], title="Naturals")
    klass = TrainingClassFactory(trainees=[trainee, other_trainee])
    due = timezone.now() + timedelta(days=3)
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, training_class=klass, due_at=due)
    mine = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=assignment)
    attempt_start(trainee=other_trainee, drill=drill, mode=Mode.EXAM, assignment=assignment)

    row = api.get("/api/assignments/").json()["results"][0]
    assert row["drill"]["title"] == "Naturals"
    assert row["drill"]["pass_mark"] == "80.00"
    assert row["mode"] == "exam"
    assert row["due_at"] is not None
    assert [a["id"] for a in row["attempts"]] == [mine.pk]
    assert row["attempts"][0]["status"] == "in_progress"
    assert row["attempts"][0]["grading_status"] == "not_submitted"


def test_it_filters_by_mode_and_due_date(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    now = timezone.now()
    soon = AssignmentFactory(drill=drill, trainee=trainee, due_at=now + timedelta(days=1))
    later = AssignmentFactory(
        drill=drill, trainee=trainee, mode=Mode.EXAM, due_at=now + timedelta(days=10)
    )
    assert ids(api.get("/api/assignments/", {"mode": "exam"})) == [later.pk]
    cut = (now + timedelta(days=5)).isoformat()
    assert ids(api.get("/api/assignments/", {"due_before": cut})) == [soon.pk]
    assert ids(api.get("/api/assignments/", {"due_after": cut})) == [later.pk]


def test_it_refuses_a_due_date_that_is_not_a_date(api):
    response = api.get("/api/assignments/", {"due_before": "next tuesday"})
    assert response.status_code == 400
    assert response.json()["field"] == "due_before"


def test_it_does_not_query_once_per_assignment(api, trainee, django_assert_max_num_queries):
    drill = DrillFactory(documents=[natural_document()])
    for _ in range(5):
        assignment = AssignmentFactory(drill=drill, trainee=trainee)
        attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)
    # Session, user, roles, count, page, prefetched attempts: the same for 5 rows or 500.
    with django_assert_max_num_queries(8):
        assert len(ids(api.get("/api/assignments/"))) == 5
