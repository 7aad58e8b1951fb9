"""Who sees whose work: the trainees and classes a viewer may see, and who may act for a
trainee (`viewer_may_act_for`, the permission rule the pit's services check)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from core.errors import NotFoundError
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
