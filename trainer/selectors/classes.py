"""The classes a pit boss or administrator runs, and their rosters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, QuerySet

from core.errors import NotFoundError
from core.roles import Role, has_role
from core.usernames import users_with_username
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User


def classes_managed_by(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[TrainingClass]:
    """An administrator's: every class; a pit boss's: the ones they teach; else none.
    Each with ``trainee_count`` and ``instructor_count``."""
    classes = TrainingClass.objects.all()
    if not has_role(user, Role.ADMIN):
        if not has_role(user, Role.PIT_BOSS):
            return classes.none()
        classes = classes.filter(pk__in=TrainingClass.objects.filter(instructors=user.pk))
    return classes.annotate(
        trainee_count=Count("trainees", distinct=True),
        instructor_count=Count("instructors", distinct=True),
    ).order_by("name")


def class_get_for_manager(
    *, class_id: int, user: AbstractBaseUser | AnonymousUser
) -> TrainingClass:
    """One class this user runs; NotFoundError for a missing one or someone else's."""
    found = classes_managed_by(user=user).filter(pk=class_id).first()
    if found is None:
        raise NotFoundError("no such class among yours", field="class")
    return found


def class_roster(*, training_class: TrainingClass) -> QuerySet[User]:
    """The class's trainees by name, each with ``last_activity`` (their latest attempt's
    start, of any drill; None if they never started one)."""
    return training_class.trainees.annotate(last_activity=Max("attempts__started_at")).order_by(
        "last_name", "first_name", "username"
    )


def class_instructors(*, training_class: TrainingClass) -> QuerySet[User]:
    return training_class.instructors.order_by("last_name", "first_name", "username")


def trainee_by_username(*, username: str) -> User:
    """A trainee account by its username, ignoring case and width as signing in does
    (core.usernames); NotFoundError naming the field."""
    trainees = get_user_model().objects.filter(groups__name=Role.TRAINEE.value)
    found = users_with_username(username, trainees).first()
    if found is None:
        raise NotFoundError("no trainee has this username", field="username")
    return found


def class_trainee_get(*, training_class: TrainingClass, trainee_id: int) -> User:
    found = training_class.trainees.filter(pk=trainee_id).first()
    if found is None:
        raise NotFoundError("no such trainee on this class", field="trainee")
    return found
