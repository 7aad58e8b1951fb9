"""Classes and who is on them: creating and renaming a class, its trainees, its
instructors (administrators only), and the rule of who may change a class.

Who may: an administrator, any class; a pit boss, the classes they teach (a class they
create is theirs); nobody else. A pit boss adds only trainees on no other instructor's
class (`addable_trainee_required`); the others come by a join request their instructor
accepts or an administrator's transfer (`requests`). Every change is a ledger entry in its
transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.db import transaction

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError, echo
from core.roles import Role, has_role, roles_of
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.selectors.classes import NOT_ADDABLE, classes_of_others
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

NAME_MAX = 120


def may_manage(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.PIT_BOSS, Role.ADMIN):
        raise ForbiddenError("only pit bosses and administrators manage classes")


def may_manage_class(actor: AbstractBaseUser, training_class: TrainingClass) -> None:
    may_manage(actor)
    if has_role(actor, Role.ADMIN):
        return
    if not training_class.instructors.filter(pk=actor.pk).exists():
        raise ForbiddenError(f"you do not teach {training_class.name}")


def _may_administer(actor: AbstractBaseUser) -> None:
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only administrators choose a class's instructors")


def _class_name(name: str, *, exclude: int | None = None) -> str:
    text = " ".join((name or "").split())
    if not text:
        raise ProductError("a class needs a name", field="name")
    if len(text) > NAME_MAX:
        raise ProductError(f"a class name is at most {NAME_MAX} characters", field="name")
    taken = TrainingClass.objects.filter(name__iexact=text)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise ConflictError(f"there is already a class named {echo(text)}", field="name")
    return text


def training_class_create(*, actor: AbstractBaseUser, name: str) -> TrainingClass:
    """A new class; a pit boss who creates one teaches it."""
    may_manage(actor)
    with transaction.atomic():
        text = _class_name(name)
        training_class = TrainingClass.objects.create(name=text)
        if has_role(actor, Role.PIT_BOSS):
            training_class.instructors.add(actor.pk)
        ledger_append(
            event=Event.CLASS_CREATED,
            subject_type=Subject.TRAINING_CLASS,
            subject_id=training_class.pk,
            payload={"name": text, "instructor_ids": list(_instructor_ids(training_class))},
            actor=actor,
        )
    return training_class


def _instructor_ids(training_class: TrainingClass) -> Iterable[int]:
    return training_class.instructors.order_by("pk").values_list("pk", flat=True)


def training_class_rename(
    *, actor: AbstractBaseUser, training_class: TrainingClass, name: str
) -> TrainingClass:
    may_manage_class(actor, training_class)
    with transaction.atomic():
        text = _class_name(name, exclude=training_class.pk)
        if text == training_class.name:
            return training_class
        before = training_class.name
        training_class.name = text
        training_class.save(update_fields=["name"])
        ledger_append(
            event=Event.CLASS_RENAMED,
            subject_type=Subject.TRAINING_CLASS,
            subject_id=training_class.pk,
            payload={"from": before, "to": text},
            actor=actor,
        )
    return training_class


def _roster_changed(
    *,
    actor: AbstractBaseUser,
    training_class: TrainingClass,
    event: Event,
    change: Callable[[int], None],
    person: AbstractBaseUser,
    role_key: str,
) -> None:
    """Make the change to the class's people and record it, in one transaction."""
    with transaction.atomic():
        change(person.pk)
        ledger_append(
            event=event,
            subject_type=Subject.TRAINING_CLASS,
            subject_id=training_class.pk,
            payload={role_key: person.pk, "username": person.get_username()},
            actor=actor,
        )


ON_ANOTHER_CLASS = (
    "{name} is on another instructor's class: ask their instructor for them (a join "
    "request they accept) or ask an administrator to transfer them"
)


def addable_trainee_required(*, actor: AbstractBaseUser, trainee: AbstractBaseUser) -> None:
    """A trainee a pit boss may put on a class they teach: a trainee account (else the one
    neutral answer, whatever the account is), never themselves, and on no class another
    instructor teaches (that takes their instructor's consent or an administrator's
    transfer). An administrator may add anyone who is a trainee but themselves."""
    if Role.TRAINEE not in roles_of(trainee):
        raise NotFoundError(NOT_ADDABLE, field="username")
    if trainee.pk == actor.pk:
        raise ForbiddenError(
            "nobody puts themselves on a class they run: an administrator or another pit "
            "boss does it"
        )
    if has_role(actor, Role.ADMIN):
        return
    if classes_of_others(trainee=trainee, user=actor).exists():
        raise ConflictError(
            ON_ANOTHER_CLASS.format(name=echo(trainee.get_username())),
            field="username",
            code="on_another_class",
        )


def class_trainee_add(
    *, actor: AbstractBaseUser, training_class: TrainingClass, trainee: AbstractBaseUser
) -> None:
    """Put a trainee on the class's roster: only a trainee, and for a pit boss only one on
    no other instructor's class (class boundaries: docs/security.md)."""
    may_manage_class(actor, training_class)
    addable_trainee_required(actor=actor, trainee=trainee)
    if training_class.trainees.filter(pk=trainee.pk).exists():
        raise ConflictError(
            f"{echo(trainee.get_username())} is already on {training_class.name}",
            field="username",
        )
    _roster_changed(
        actor=actor,
        training_class=training_class,
        event=Event.CLASS_TRAINEE_ADDED,
        change=training_class.trainees.add,
        person=trainee,
        role_key="trainee_id",
    )


def class_trainee_remove(
    *, actor: AbstractBaseUser, training_class: TrainingClass, trainee: AbstractBaseUser
) -> None:
    """Take a trainee off the roster; their account and record stay as they are. Nobody
    takes themselves off: a trainee who also teaches the class would leave its other
    instructors unable to act for them (and, on no class, open to any pit boss's add)."""
    may_manage_class(actor, training_class)
    if trainee.pk == actor.pk:
        raise ForbiddenError(
            "nobody takes themselves off a class they are a trainee on: another pit boss of "
            "the class or an administrator does it"
        )
    if not training_class.trainees.filter(pk=trainee.pk).exists():
        raise NotFoundError(f"no such trainee on {training_class.name}", field="trainee")
    _roster_changed(
        actor=actor,
        training_class=training_class,
        event=Event.CLASS_TRAINEE_REMOVED,
        change=training_class.trainees.remove,
        person=trainee,
        role_key="trainee_id",
    )


def class_instructor_add(
    *, actor: AbstractBaseUser, training_class: TrainingClass, instructor: AbstractBaseUser
) -> None:
    _may_administer(actor)
    if Role.PIT_BOSS not in roles_of(instructor):
        raise ProductError(
            f"{echo(instructor.get_username())} is not a pit boss", field="instructor"
        )
    if training_class.instructors.filter(pk=instructor.pk).exists():
        raise ConflictError(
            f"{echo(instructor.get_username())} already teaches {training_class.name}",
            field="instructor",
        )
    if training_class.trainees.filter(pk=instructor.pk).exists():
        # A trainee who is also a pit boss never teaches their own class: its assignments
        # and figures would be their own (separation of duties, docs/security.md).
        raise ConflictError(
            f"{echo(instructor.get_username())} is a trainee on {training_class.name}: "
            "nobody teaches a class they train in; move them off it first",
            field="instructor",
            code="trainee_of_class",
        )
    _roster_changed(
        actor=actor,
        training_class=training_class,
        event=Event.CLASS_INSTRUCTOR_ADDED,
        change=training_class.instructors.add,
        person=instructor,
        role_key="instructor_id",
    )


def class_instructor_remove(
    *, actor: AbstractBaseUser, training_class: TrainingClass, instructor: AbstractBaseUser
) -> None:
    _may_administer(actor)
    if not training_class.instructors.filter(pk=instructor.pk).exists():
        raise NotFoundError(
            f"{echo(instructor.get_username())} does not teach {training_class.name}",
            field="instructor",
        )
    _roster_changed(
        actor=actor,
        training_class=training_class,
        event=Event.CLASS_INSTRUCTOR_REMOVED,
        change=training_class.instructors.remove,
        person=instructor,
        role_key="instructor_id",
    )
