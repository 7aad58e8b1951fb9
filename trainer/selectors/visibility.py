"""Who sees whose work: the trainees and classes a viewer may see, and who may act for a
trainee (`viewer_may_act_for`, and `act_for_required`, the check every service that acts on
a person makes: never for oneself, only for a trainee of a class one teaches)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from core.errors import ForbiddenError, NotFoundError
from core.roles import Role, roles_of
from trainer.models import Grade, TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User


def trainees_visible_to(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    """The trainees whose work this user may see: a pit boss's classes; everyone for
    compliance and admins; nobody for anyone else."""
    users = get_user_model().objects.all()
    held = roles_of(user)
    if Role.ADMIN in held or Role.COMPLIANCE in held:
        return users.filter(
            Q(groups__name=Role.TRAINEE.value) | Q(classes_attended__isnull=False)
        ).distinct()
    if Role.PIT_BOSS in held:
        return users.filter(classes_attended__instructors=user.pk).distinct()
    return users.none()


def trainees_actable_by(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    """The trainees this user may act for (review, flag, sign), as `viewer_may_act_for`
    decides one at a time: every trainee for an administrator, a pit boss's classes'
    trainees, nobody otherwise (compliance reads, never acts); never the user themselves."""
    users = get_user_model().objects.all()
    held = roles_of(user)
    if user.pk is None:
        return users.none()
    if Role.ADMIN in held:
        found = users.filter(
            Q(groups__name=Role.TRAINEE.value) | Q(classes_attended__isnull=False)
        ).distinct()
    elif Role.PIT_BOSS in held:
        found = users.filter(classes_attended__instructors=user.pk).distinct()
    else:
        return users.none()
    return found.exclude(pk=user.pk)


def classes_visible_to(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[TrainingClass]:
    held = roles_of(user)
    classes = TrainingClass.objects.all()
    if Role.ADMIN in held or Role.COMPLIANCE in held:
        return classes
    if Role.PIT_BOSS in held:
        return classes.filter(instructors=user.pk)
    return classes.none()


def trainee_get_for_viewer(*, trainee_id: int, user: AbstractBaseUser | AnonymousUser) -> User:
    """The trainee, if this user may see their work; NotFoundError otherwise."""
    found = trainees_visible_to(user=user).filter(pk=trainee_id).first()
    if found is None:
        raise NotFoundError("no such trainee among yours", field="trainee")
    return found


def viewer_may_act_for(*, user: AbstractBaseUser | AnonymousUser, trainee: User) -> bool:
    """True for an admin, or a pit boss who teaches one of the trainee's classes."""
    held = roles_of(user)
    if Role.ADMIN in held:
        return True
    return (
        Role.PIT_BOSS in held
        and TrainingClass.objects.filter(instructors=user.pk, trainees=trainee).exists()
    )


def not_for_oneself(
    *,
    user: AbstractBaseUser | AnonymousUser,
    trainee_id: int | None,
    doing: str = "acts on their own training",
) -> None:
    """Separation of duties: nobody flags, lifts, reviews, assigns, reassigns, cancels,
    signs or withdraws for themselves, whatever roles they hold (a trainee who is also a
    pit boss, or an administrator on a class). ForbiddenError if ``trainee_id`` is theirs."""
    if trainee_id is not None and user.pk is not None and user.pk == trainee_id:
        raise ForbiddenError(
            f"nobody {doing}: another pit boss of the class or an administrator must do it"
        )


def act_for_required(*, user: AbstractBaseUser | AnonymousUser, trainee: User) -> None:
    """The check of every service that acts on one trainee (flag, lift, review, assign,
    sign, withdraw): never for oneself, and only an administrator or a pit boss who teaches
    one of the trainee's classes. ForbiddenError saying which."""
    not_for_oneself(user=user, trainee_id=trainee.pk)
    if not viewer_may_act_for(user=user, trainee=trainee):
        raise ForbiddenError(
            "only a pit boss of the trainee's class, or an administrator, may do this"
        )


def class_includes(*, training_class_id: int, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether this user is a trainee on the class (an action on the class concerns them)."""
    return TrainingClass.objects.filter(pk=training_class_id, trainees=user.pk).exists()


def grade_get_for_viewer(*, grade_id: int, user: AbstractBaseUser | AnonymousUser) -> Grade:
    """One grade of a trainee this user may see, with its round and decision; 404 if not."""
    grade = (
        Grade.objects.select_related(
            "run__attempt__trainee",
            "run__attempt__drill",
            "item__profile_version__profile",
            "decision",
        )
        .filter(pk=grade_id, run__attempt__trainee__in=trainees_visible_to(user=user))
        .first()
    )
    if grade is None:
        raise NotFoundError("no such graded answer among your trainees'", field="grade")
    return grade
