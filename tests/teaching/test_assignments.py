"""Assignments: the service (the assigner is the actor, the assignee a trainee, reassign,
cancel, ledger entries), the progress board's statuses, and the workspace pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from teaching.selectors.assignments import BoardStatus, assignment_board, class_board
from teaching.services.assignments import (
    assignment_cancel,
    assignment_create,
    assignment_reassign,
)
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory, entries_written
from tests.graded import client_for
from tests.queries import assert_database_query_count
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Attempt, AttemptStatus, GradingStatus, Mode
from trainer.selectors.attempts import assignments_for_trainee

pytestmark = pytest.mark.django_db


@pytest.fixture
def drill():
    return DrillFactory(documents=[natural_document()])


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


def test_the_assigner_is_the_acting_user_and_the_ledger_names_them(drill, trainee, admin_user):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, trainee=trainee, assigned_by=admin_user
    )
    assert assignment.assigned_by == admin_user
    entry = LedgerEntry.objects.get(event=Event.ASSIGNMENT_CREATED)
    assert entry.actor_id == admin_user.pk
    assert entry.subject_id == str(assignment.pk)
    assert entry.payload["trainee_id"] == trainee.pk
    assert entry.payload["assigned_by"] == admin_user.pk
    assert ledger_verify().ok


@pytest.mark.parametrize("role", ["compliance", "admin", "pit_boss"])
def test_only_a_trainee_is_assigned_a_drill(drill, admin_user, role):
    """The bug found: an admin assigned a drill to the compliance officer, and it was taken."""
    someone = UserFactory(roles=[role])
    with pytest.raises(ProductError) as refused:
        assignment_create(drill=drill, mode=Mode.PRACTICE, trainee=someone, assigned_by=admin_user)
    assert refused.value.field == "trainee"
    assert not Assignment.objects.exists()
    assert not entries_written().exists()


@pytest.mark.parametrize("role", ["trainee", "compliance"])
def test_neither_a_trainee_nor_compliance_assigns(drill, other_trainee, role):
    actor = UserFactory(roles=[role])
    with pytest.raises(ForbiddenError):
        assignment_create(drill=drill, mode=Mode.PRACTICE, trainee=other_trainee, assigned_by=actor)
    assert not Assignment.objects.exists()


def test_a_pit_boss_assigns_only_to_a_class_they_teach(drill, pit_boss, other_trainee):
    theirs = TrainingClassFactory(trainees=[other_trainee])
    with pytest.raises(ForbiddenError):
        assignment_create(
            drill=drill, mode=Mode.PRACTICE, training_class=theirs, assigned_by=pit_boss
        )


def test_reassign_changes_sittings_and_due_date_and_records_both(drill, morning, pit_boss):
    assignment = assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=morning,
        assigned_by=pit_boss,
        max_sittings=1,
    )
    due = timezone.now() + dt.timedelta(days=3)
    changed = assignment_reassign(assignment=assignment, user=pit_boss, max_sittings=3, due_at=due)
    assert (changed.max_sittings, changed.due_at) == (3, due)
    entry = LedgerEntry.objects.get(event=Event.ASSIGNMENT_REASSIGNED)
    assert entry.actor_id == pit_boss.pk
    assert entry.payload["before"]["max_sittings"] == 1
    assert entry.payload["after"]["max_sittings"] == 3
    # Only what is given changes.
    assignment_reassign(assignment=changed, user=pit_boss, max_sittings=None)
    changed.refresh_from_db()
    assert (changed.max_sittings, changed.due_at) == (None, due)


def test_reassign_refuses_nothing_a_naive_date_and_another_class(
    drill, morning, pit_boss, other_trainee
):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    with pytest.raises(ProductError):
        assignment_reassign(assignment=assignment, user=pit_boss)
    with pytest.raises(ProductError) as naive:
        assignment_reassign(assignment=assignment, user=pit_boss, due_at=dt.datetime(2030, 1, 1))
    assert naive.value.field == "due_at"
    other_boss = UserFactory(roles=["pit_boss"])
    with pytest.raises(ForbiddenError):
        assignment_reassign(assignment=assignment, user=other_boss, max_sittings=2)
    assert not LedgerEntry.objects.filter(event=Event.ASSIGNMENT_REASSIGNED).exists()


def test_a_cancelled_assignment_is_hidden_from_trainees_and_cannot_be_changed(
    drill, morning, pit_boss, trainee
):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    assert list(assignments_for_trainee(user=trainee)) == [assignment]
    cancelled = assignment_cancel(assignment=assignment, user=pit_boss)
    assert cancelled.cancelled_by == pit_boss
    assert cancelled.cancelled_at is not None
    assert list(assignments_for_trainee(user=trainee)) == []
    entry = LedgerEntry.objects.get(event=Event.ASSIGNMENT_CANCELLED)
    assert entry.actor_id == pit_boss.pk
    with pytest.raises(ConflictError):
        assignment_cancel(assignment=cancelled, user=pit_boss)
    with pytest.raises(ConflictError):
        assignment_reassign(assignment=cancelled, user=pit_boss, max_sittings=2)
    response = client_for(trainee).get(reverse("train:home"))
    assert f'data-assignment="{assignment.pk}"' not in response.content.decode()


def _attempt(trainee, assignment, *, status, passed=None, started=None, sitting=1):
    attempt = Attempt.objects.create(
        trainee=trainee,
        drill=assignment.drill,
        mode=assignment.mode,
        assignment=assignment,
        sitting=sitting,
        status=status,
        grading_status=GradingStatus.GRADED if passed is not None else GradingStatus.NOT_SUBMITTED,
        passed=passed,
        score=Decimal("90.00") if passed else None,
        submitted_at=timezone.now() if status == AttemptStatus.SUBMITTED else None,
    )
    if started is not None:
        Attempt.objects.filter(pk=attempt.pk).update(started_at=started)
    return attempt


def test_the_board_says_where_each_trainee_stands(drill, pit_boss):
    names = ["ann", "ben", "cat", "dan", "eve"]
    people = {name: UserFactory(username=name, roles=["trainee"]) for name in names}
    group = TrainingClassFactory(trainees=list(people.values()), instructors=[pit_boss])
    now = timezone.now()
    current = assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=group,
        assigned_by=pit_boss,
        due_at=now + dt.timedelta(days=1),
    )
    late = assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=group,
        assigned_by=pit_boss,
        due_at=now - dt.timedelta(days=1),
    )
    started = now - dt.timedelta(hours=2)
    _attempt(people["ben"], current, status=AttemptStatus.IN_PROGRESS, started=started)
    _attempt(people["cat"], current, status=AttemptStatus.SUBMITTED, passed=False)
    _attempt(people["dan"], current, status=AttemptStatus.SUBMITTED, passed=True)
    _attempt(people["dan"], late, status=AttemptStatus.SUBMITTED, passed=True)
    _attempt(people["eve"], late, status=AttemptStatus.SUBMITTED, passed=False)
    board = class_board(training_class=group, now=now)
    assert [a.pk for a in board.assignments] == [late.pk, current.pk]
    statuses = {
        row.trainee.username: [cell.status for cell in row.cells if cell] for row in board.rows
    }
    assert statuses == {
        "ann": [BoardStatus.OVERDUE, BoardStatus.NOT_STARTED],
        "ben": [BoardStatus.OVERDUE, BoardStatus.IN_PROGRESS],
        "cat": [BoardStatus.OVERDUE, BoardStatus.SUBMITTED],
        "dan": [BoardStatus.PASSED, BoardStatus.PASSED],
        "eve": [BoardStatus.OVERDUE, BoardStatus.NOT_STARTED],
    }
    ben = next(row for row in board.rows if row.trainee.username == "ben")
    assert ben.cells[1] is not None
    assert ben.cells[1].last_activity == started
    # A cancelled assignment leaves the class's board; its own board still shows it.
    assignment_cancel(assignment=late, user=pit_boss)
    assert [a.pk for a in class_board(training_class=group, now=now).assignments] == [current.pk]
    assert len(assignment_board(assignment=late, now=now).rows) == len(names)


def test_an_assignment_to_one_trainee_shows_on_their_row_only(drill, morning, pit_boss, trainee):
    other = UserFactory(username="zed", roles=["trainee"])
    morning.trainees.add(other)
    assignment_create(drill=drill, mode=Mode.PRACTICE, trainee=trainee, assigned_by=pit_boss)
    board = class_board(training_class=morning)
    cells = {row.trainee.pk: row.cells for row in board.rows}
    assert cells[trainee.pk][0] is not None
    assert cells[other.pk] == [None]


# the session with the user and roles, the class, its trainees, the assignments, the attempts.
BOARD_QUERIES = 5


@pytest.mark.parametrize("size", [2, 8])
def test_the_class_board_page_costs_the_same_at_two_sizes(drill, pit_boss, size):
    trainees = [UserFactory(roles=["trainee"]) for _ in range(size)]
    group = TrainingClassFactory(trainees=trainees, instructors=[pit_boss])
    for _ in range(size // 2):
        assignment = assignment_create(
            drill=drill, mode=Mode.PRACTICE, training_class=group, assigned_by=pit_boss
        )
        for person in trainees:
            _attempt(person, assignment, status=AttemptStatus.SUBMITTED, passed=True)
    client = client_for(pit_boss)
    url = reverse("teach:class_board", args=[group.pk])
    client.get(url)
    with assert_database_query_count(BOARD_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('data-status="passed"') == size * (size // 2)


def test_the_page_assigns_as_the_signed_in_user_whatever_the_form_says(
    drill, morning, pit_boss, trainee, admin_user
):
    client = client_for(pit_boss)
    response = client.post(
        reverse("teach:assignments"),
        {
            "drill": drill.pk,
            "trainee": trainee.pk,
            "mode": "practice",
            "due_day": "2030-05-01",
            "due_time": "18:30",
            "max_sittings": "2",
            "assigned_by": admin_user.pk,  # not a field: ignored
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assignment = Assignment.objects.get()
    assert assignment.assigned_by == pit_boss
    assert assignment.max_sittings == 2
    local = timezone.localtime(assignment.due_at)
    assert (local.date(), local.hour, local.minute) == (dt.date(2030, 5, 1), 18, 30)


def test_the_page_offers_a_pit_boss_only_their_trainees(drill, morning, pit_boss, other_trainee):
    response = client_for(pit_boss).post(
        reverse("teach:assignments"),
        {"drill": drill.pk, "trainee": other_trainee.pk, "mode": "practice"},
    )
    assert response.status_code == 400
    assert not Assignment.objects.exists()


def test_the_pages_reassign_and_cancel(drill, morning, pit_boss, trainee):
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=morning, assigned_by=pit_boss
    )
    client = client_for(pit_boss)
    page = client.get(reverse("teach:assignment", args=[assignment.pk]))
    assert page.status_code == 200
    assert 'data-status="not_started"' in page.content.decode()
    response = client.post(
        reverse("teach:assignment_reassign", args=[assignment.pk]), {"max_sittings": "4"}
    )
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.max_sittings == 4
    response = client.post(
        reverse("teach:assignment_cancel", args=[assignment.pk]), {"confirm": "on"}
    )
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.cancelled_by == pit_boss
