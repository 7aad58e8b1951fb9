"""The instructor's reads of assignments: the ones a user manages and the progress board
(each trainee against each assignment: not started, in progress, submitted, passed,
overdue, with the last activity)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.errors import NotFoundError
from core.roles import Role, roles_of
from trainer.models import Assignment, Attempt, AttemptStatus, TrainingClass


class BoardStatus:
    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    SUBMITTED = "submitted"
    PASSED = "passed"
    OVERDUE = "overdue"
    LABELS = {
        NOT_STARTED: "Not started",
        IN_PROGRESS: "In progress",
        SUBMITTED: "Submitted",
        PASSED: "Passed",
        OVERDUE: "Overdue",
    }


def assignments_managed_by(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Assignment]:
    """Every assignment for an admin; a pit boss's: those of the classes they teach and of
    the trainees in them. Cancelled ones included (the page marks them)."""
    held = roles_of(user)
    found = Assignment.objects.select_related(
        "drill", "trainee", "training_class", "assigned_by"
    ).order_by("-created_at", "-id")
    if Role.ADMIN in held:
        return found
    if Role.PIT_BOSS in held:
        return found.filter(
            Q(training_class__instructors=user.pk)
            | Q(trainee__classes_attended__instructors=user.pk)
        ).distinct()
    return found.none()


def assignment_get_for_manager(
    *, assignment_id: int, user: AbstractBaseUser | AnonymousUser
) -> Assignment:
    found = assignments_managed_by(user=user).filter(pk=assignment_id).first()
    if found is None:
        raise NotFoundError("no such assignment among yours", field="assignment")
    return found


@dataclass(frozen=True)
class Cell:
    status: str
    last_activity: datetime | None
    score: object = None

    @property
    def label(self) -> str:
        return BoardStatus.LABELS[self.status]


@dataclass(frozen=True)
class BoardRow:
    trainee: User
    cells: list[Cell | None]  # None: this assignment is not the trainee's


@dataclass(frozen=True)
class Board:
    assignments: list[Assignment]
    rows: list[BoardRow]


def _cell(assignment: Assignment, attempts: list[Any], now: datetime) -> Cell:
    times = [
        t for a in attempts for t in (a["started_at"], a["submitted_at"]) if isinstance(t, datetime)
    ]
    last = max(times) if times else None
    passed = [a for a in attempts if a["passed"]]
    if passed:
        return Cell(BoardStatus.PASSED, last, passed[0]["score"])
    if assignment.due_at is not None and assignment.due_at < now:
        return Cell(BoardStatus.OVERDUE, last)
    submitted = [a for a in attempts if a["status"] == AttemptStatus.SUBMITTED]
    if submitted:
        return Cell(BoardStatus.SUBMITTED, last, submitted[0]["score"])
    if any(a["status"] == AttemptStatus.IN_PROGRESS for a in attempts):
        return Cell(BoardStatus.IN_PROGRESS, last)
    return Cell(BoardStatus.NOT_STARTED, last)


def _board(*, assignments: list[Assignment], trainees: list[User], now: datetime | None) -> Board:
    now = now or timezone.now()
    found: dict[tuple[int, int], list[Any]] = {}
    if assignments and trainees:
        for attempt in (
            Attempt.objects.filter(
                assignment_id__in=[a.pk for a in assignments],
                trainee_id__in=[t.pk for t in trainees],
            )
            .order_by("-started_at")
            .values(
                "assignment_id",
                "trainee_id",
                "status",
                "passed",
                "score",
                "started_at",
                "submitted_at",
            )
        ):
            key = (attempt["assignment_id"], attempt["trainee_id"])
            found.setdefault(key, []).append(attempt)
    rows = []
    for trainee in trainees:
        cells: list[Cell | None] = []
        for assignment in assignments:
            if assignment.trainee_id is not None and assignment.trainee_id != trainee.pk:
                cells.append(None)
                continue
            cells.append(_cell(assignment, found.get((assignment.pk, trainee.pk), []), now))
        rows.append(BoardRow(trainee=trainee, cells=cells))
    return Board(assignments=assignments, rows=rows)


def class_board(*, training_class: TrainingClass, now: datetime | None = None) -> Board:
    """The class's trainees against its live assignments, and those given to one of them."""
    trainees = list(training_class.trainees.order_by("last_name", "first_name", "username"))
    assignments = list(
        Assignment.objects.filter(
            Q(training_class=training_class) | Q(trainee__in=[t.pk for t in trainees]),
            cancelled_at__isnull=True,
        )
        .select_related("drill", "trainee")
        .order_by("due_at", "id")
    )
    return _board(assignments=assignments, trainees=trainees, now=now)


def assignment_board(*, assignment: Assignment, now: datetime | None = None) -> Board:
    """One assignment's trainees (its class's, or its one trainee) and where each stands."""
    if assignment.training_class_id is not None:
        trainees = list(
            get_user_model()
            .objects.filter(classes_attended=assignment.training_class_id)
            .order_by("last_name", "first_name", "username")
        )
    else:
        trainees = list(get_user_model().objects.filter(assignments=assignment.pk))
    return _board(assignments=[assignment], trainees=trainees, now=now)
