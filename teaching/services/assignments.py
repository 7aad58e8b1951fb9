"""Assigning drills, changing an assignment's allowance or due date, and cancelling one.

The assigner recorded is always the acting user (never a name a form or a caller picks),
the assignee is always a trainee, and every change is a ledger entry in its transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from core.queue import enqueue
from core.roles import Role, has_role, roles_of
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.selectors.drills import drills_visible_to
from trainer.models import (
    ASSIGNED_MODES,
    Assignment,
    Drill,
    DrillPurpose,
    Mode,
    TrainingClass,
)
from trainer.selectors import visibility
from trainer.selectors.pools import pool_reopen_check
from trainer.services.drills import manager_required, whole_number

DEFAULT_EXAM_COOLDOWN_HOURS = 24
MAX_SITTINGS = 100


def _not_on_the_class(*, user: AbstractBaseUser, training_class_id: int) -> None:
    """Separation of duties for a class's assignment: a pit boss who is also a trainee on
    the class would be assigning (or easing) their own exam."""
    if visibility.class_includes(training_class_id=training_class_id, user=user):
        raise ForbiddenError(
            "you are a trainee on this class: another of its pit bosses or an administrator "
            "must assign, change or cancel its drills"
        )


def _may_manage_assignment(*, user: AbstractBaseUser, assignment: Assignment) -> None:
    """An admin or the class's instructors manage a class's assignment; an admin or a pit
    boss of one of the trainee's classes a trainee's. Never one that concerns oneself."""
    manager_required(user)
    if assignment.training_class_id is not None:
        _not_on_the_class(user=user, training_class_id=assignment.training_class_id)
        if has_role(user, Role.ADMIN):
            return
        if not TrainingClass.objects.filter(
            pk=assignment.training_class_id, instructors=user.pk
        ).exists():
            raise ForbiddenError("only this class's pit bosses or an administrator may do this")
        return
    trainee = get_user_model().objects.get(assignments=assignment.pk)
    visibility.act_for_required(user=user, trainee=trainee)


def _due(due_at: datetime | None) -> datetime | None:
    if due_at is not None and timezone.is_naive(due_at):
        raise ProductError("due_at must carry a time zone", field="due_at")
    return due_at


def _payload(assignment: Assignment) -> dict[str, object]:
    return {
        "drill_id": assignment.drill_id,
        "mode": assignment.mode,
        "trainee_id": assignment.trainee_id,
        "class_id": assignment.training_class_id,
        "due_at": assignment.due_at,
        "max_sittings": assignment.max_sittings,
        "cooldown_hours": assignment.cooldown_hours,
        "assigned_by": assignment.assigned_by_id,
    }


def assignment_create(
    *,
    drill: Drill,
    mode: str,
    assigned_by: AbstractBaseUser,
    trainee: AbstractBaseUser | None = None,
    training_class: TrainingClass | None = None,
    due_at: datetime | None = None,
    max_sittings: int | None = None,
    cooldown_hours: int | None = None,
) -> Assignment:
    """A drill given to one trainee or to a class (exactly one) in a mode.

    ``assigned_by`` is the acting user: doors pass ``request.user``, nothing else. Only a
    pit boss or an administrator assigns; a pit boss to classes they teach and to trainees
    of those classes; nobody to themselves or to a class they are a trainee on. The assignee
    must hold the trainee role. An exam is sat under rules: at most ``max_sittings``
    sittings (no limit when None), ``cooldown_hours`` between them (24 by default for an
    exam, none otherwise).
    """
    manager_required(assigned_by)
    if (
        not drills_visible_to(user=assigned_by, drills=Drill.objects.all())
        .filter(pk=drill.pk)
        .exists()
    ):
        # Another class's drill (security.md, *Class boundaries*): as if it did not exist.
        raise NotFoundError("no such drill among yours", field="drill")
    if mode not in ASSIGNED_MODES:
        raise ProductError(f"mode must be one of {', '.join(ASSIGNED_MODES)}", field="mode")
    if not drill.is_active:
        raise ProductError(f"drill '{drill.title}' is retired", field="drill")
    if mode == Mode.EXAM and drill.purpose != DrillPurpose.EXAM:
        raise ProductError(
            f"'{drill.title}' is a practice drill that any trainee can see: an exam must be "
            "a sealed exam drill",
            field="drill",
        )
    if mode == Mode.PRACTICE and drill.purpose == DrillPurpose.EXAM:
        raise ProductError(
            f"'{drill.title}' is a sealed exam: it cannot be practised", field="mode"
        )
    if max_sittings is not None:
        max_sittings = whole_number(max_sittings, "max_sittings", 1, MAX_SITTINGS)
    if cooldown_hours is None:
        cooldown_hours = DEFAULT_EXAM_COOLDOWN_HOURS if mode == Mode.EXAM else 0
    cooldown_hours = whole_number(cooldown_hours, "cooldown_hours", 0, 24 * 365)
    if (trainee is None) == (training_class is None):
        raise ProductError("assign to a trainee or to a class, not both or neither")
    if trainee is not None and Role.TRAINEE not in roles_of(trainee):
        raise ProductError(
            "only a trainee can be assigned a drill: this account is not a trainee's",
            field="trainee",
        )
    if trainee is not None:
        visibility.act_for_required(user=assigned_by, trainee=trainee)  # type: ignore[arg-type]
    if training_class is not None:
        _not_on_the_class(user=assigned_by, training_class_id=training_class.pk)
        if (
            not has_role(assigned_by, Role.ADMIN)
            and not training_class.instructors.filter(pk=assigned_by.pk).exists()
        ):
            raise ForbiddenError(f"you do not teach {training_class}")
    due_at = _due(due_at)
    pool_reopen_check(drill=drill, due_at=due_at)  # a pool whose answers were shown stays shut
    with transaction.atomic():
        assignment = Assignment.objects.create(
            drill=drill,
            mode=mode,
            trainee_id=trainee.pk if trainee is not None else None,
            training_class=training_class,
            due_at=due_at,
            max_sittings=max_sittings,
            cooldown_hours=cooldown_hours,
            assigned_by_id=assigned_by.pk,
        )
        ledger_append(
            event=Event.ASSIGNMENT_CREATED,
            subject_type=Subject.ASSIGNMENT,
            subject_id=assignment.pk,
            payload=_payload(assignment),
            actor=assigned_by,
        )
        # The e-mail to each trainee concerned; the beat sweep sends it if this is lost.
        enqueue("trainer.tasks.notify_assignment", assignment.pk)
    return assignment


_UNCHANGED = object()


def assignment_reassign(
    *,
    assignment: Assignment,
    user: AbstractBaseUser,
    max_sittings: int | object | None = _UNCHANGED,
    due_at: datetime | object | None = _UNCHANGED,
) -> Assignment:
    """A new sitting allowance and/or a new due date for an assignment (None: no limit,
    no due date); what it was and what it is now go to the ledger."""
    _may_manage_assignment(user=user, assignment=assignment)
    if assignment.cancelled_at is not None:
        raise ConflictError("this assignment was cancelled", field="assignment")
    changes: dict[str, object] = {}
    if max_sittings is not _UNCHANGED:
        if max_sittings is not None:
            max_sittings = whole_number(max_sittings, "max_sittings", 1, MAX_SITTINGS)
        changes["max_sittings"] = max_sittings
    if due_at is not _UNCHANGED:
        assert due_at is None or isinstance(due_at, datetime)
        changes["due_at"] = _due(due_at)
        pool_reopen_check(drill=assignment.drill, due_at=changes["due_at"])  # type: ignore[arg-type]
    if not changes:
        raise ProductError("give a new sitting allowance or a new due date", field="max_sittings")
    with transaction.atomic():
        locked = Assignment.objects.select_for_update().get(pk=assignment.pk)
        if locked.cancelled_at is not None:
            raise ConflictError("this assignment was cancelled", field="assignment")
        before = {name: getattr(locked, name) for name in changes}
        for name, value in changes.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(changes))
        ledger_append(
            event=Event.ASSIGNMENT_REASSIGNED,
            subject_type=Subject.ASSIGNMENT,
            subject_id=locked.pk,
            payload={"before": before, "after": changes},
            actor=user,
        )
    return locked


def assignment_cancel(*, assignment: Assignment, user: AbstractBaseUser) -> Assignment:
    """Cancel an assignment: trainees no longer see it; its sittings stay on record."""
    _may_manage_assignment(user=user, assignment=assignment)
    with transaction.atomic():
        locked = Assignment.objects.select_for_update().get(pk=assignment.pk)
        if locked.cancelled_at is not None:
            raise ConflictError("this assignment was already cancelled", field="assignment")
        locked.cancelled_at = timezone.now()
        locked.cancelled_by_id = user.pk
        locked.save(update_fields=["cancelled_at", "cancelled_by"])
        ledger_append(
            event=Event.ASSIGNMENT_CANCELLED,
            subject_type=Subject.ASSIGNMENT,
            subject_id=locked.pk,
            payload={"cancelled_at": locked.cancelled_at},
            actor=user,
        )
    return locked
