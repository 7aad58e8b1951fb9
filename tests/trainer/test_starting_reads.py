"""The start's fixed-SQL reads (trainer.selectors.starting) answer what the querysets they
replace answer, over every combination of the filters a start uses."""

import datetime as dt
import itertools

import pytest
from django.utils import timezone

from tests.queries import assert_database_query_count, per_vendor
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    TrainingClassFactory,
    simple_document,
)
from trainer.models import Attempt, AttemptStatus, Drill, Mode
from trainer.selectors.attempts import assignments_for_trainee
from trainer.selectors.starting import (
    assignment_of_trainee,
    attempts_at_assignment,
    drill_active,
)
from trainer.services.attempts import attempt_start, attempt_submit

pytestmark = pytest.mark.django_db


def test_an_active_drill_is_read_and_a_retired_or_missing_one_is_not():
    active = DrillFactory(documents=[simple_document()])
    retired = DrillFactory(documents=[simple_document()], is_active=False)
    read = drill_active(drill_id=active.pk)
    assert read == active
    assert {f.attname: getattr(read, f.attname) for f in Drill._meta.concrete_fields} == {
        f.attname: getattr(active, f.attname) for f in Drill._meta.concrete_fields
    }
    assert drill_active(drill_id=retired.pk) is None
    assert drill_active(drill_id=retired.pk + 1000) is None


@pytest.fixture
def assignments(trainee, other_trainee):
    """A trainee's assignments every way a start can meet them: direct and through their
    class, another class's and another trainee's, cancelled, of a retired drill, in two
    modes, with and without due dates (equal ones too, so the id decides)."""
    first = DrillFactory(documents=[simple_document()])
    second = DrillFactory(documents=[simple_document()])
    retired = DrillFactory(documents=[simple_document()])
    mine = TrainingClassFactory(trainees=[trainee])
    theirs = TrainingClassFactory(trainees=[other_trainee])
    soon = timezone.now() + dt.timedelta(days=1)
    made = [
        AssignmentFactory(drill=first, trainee=trainee, due_at=soon + dt.timedelta(days=2)),
        AssignmentFactory(drill=first, training_class=mine, due_at=soon),
        AssignmentFactory(drill=first, training_class=mine, due_at=soon),
        AssignmentFactory(drill=first, trainee=trainee, due_at=None),
        AssignmentFactory(drill=first, trainee=trainee, mode=Mode.SPEED),
        AssignmentFactory(drill=second, training_class=theirs),
        AssignmentFactory(drill=second, trainee=other_trainee),
        AssignmentFactory(drill=second, trainee=trainee, cancelled_at=timezone.now()),
        AssignmentFactory(drill=retired, trainee=trainee),
        AssignmentFactory(drill=second, training_class=mine, mode=Mode.EXAM),
    ]
    retired.is_active = False
    retired.save()
    return made, [first, second, retired]


def test_the_assignment_read_is_the_querysets_first_row_for_every_filter(
    trainee, other_trainee, assignments
):
    made, drills = assignments
    ids = [None, *(a.pk for a in made), max(a.pk for a in made) + 1]
    drill_ids = [None, *(d.pk for d in drills)]
    modes = [None, Mode.PRACTICE, Mode.SPEED, Mode.EXAM]
    for user, assignment_id, drill_id, mode in itertools.product(
        (trainee, other_trainee), ids, drill_ids, modes
    ):
        given = {"pk": assignment_id, "drill_id": drill_id, "mode": mode}
        expected = (
            assignments_for_trainee(user=user)
            .filter(**{name: value for name, value in given.items() if value is not None})
            .first()
        )
        read = assignment_of_trainee(
            trainee=user, assignment_id=assignment_id, drill_id=drill_id, mode=mode
        )
        assert (read and read.pk) == (expected and expected.pk), given
        if read is not None:
            assert read.drill == expected.drill
            assert read.due_at == expected.due_at


def test_the_attempts_at_an_assignment_are_every_sitting_with_its_times(trainee):
    drill = DrillFactory(documents=[simple_document()])
    assignment = AssignmentFactory(drill=drill, trainee=trainee)
    ended = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)
    attempt_submit(attempt=ended, user=trainee)
    open_ = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)
    sat = attempts_at_assignment(assignment_id=assignment.pk, trainee_id=trainee.pk)
    assert [one.pk for one in sat] == [ended.pk, open_.pk]
    assert sat[0].submitted_at == Attempt.objects.get(pk=ended.pk).submitted_at
    assert sat[0].submitted_at.tzinfo is not None
    assert [one.open for one in sat] == [False, True]
    assert sat[1].status == AttemptStatus.IN_PROGRESS
    assert attempts_at_assignment(assignment_id=assignment.pk, trainee_id=trainee.pk + 1) == []


# the session with the user, drill, the assignment (the view's and the service's check), the
# trainee's sittings of it, the drill's rounds; BEGIN, the attempt, its rounds, the
# ledger's head, entry and move (one statement on PostgreSQL, three on SQLite), COMMIT; the
# progress.
API_START_WITH_ASSIGNMENT_QUERIES = per_vendor(sqlite=14, postgresql=12)


def test_an_api_start_under_an_assignment_makes_a_fixed_number_of_queries(api, trainee):
    drill = DrillFactory(documents=[simple_document(), simple_document("second")])
    assignment = AssignmentFactory(drill=drill, trainee=trainee)
    body = {"drill": drill.pk, "mode": "practice", "assignment": assignment.pk}
    api.get("/api/attempts/")  # the session's first request saves it: not counted
    # The ledger's first entry makes its head: another sitting's start, before counting.
    earlier = DrillFactory(documents=[simple_document()])
    attempt_start(
        trainee=trainee,
        drill=earlier,
        mode=Mode.PRACTICE,
        assignment=AssignmentFactory(drill=earlier, trainee=trainee),
    )
    with assert_database_query_count(API_START_WITH_ASSIGNMENT_QUERIES):
        response = api.post("/api/attempts/", body, format="json")
    assert response.status_code == 201
    # Resumed, not started again: the open attempt is found among the sittings.
    again = api.post("/api/attempts/", body, format="json")
    assert again.json()["id"] == response.json()["id"]
    assert Attempt.objects.filter(assignment=assignment).count() == 1
