"""The classes a pit boss or administrator runs, and their rosters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, QuerySet

from core.errors import NotFoundError
from core.roles import Role, has_role
from core.usernames import users_with_username
from teaching.models import ClassJoinRequest, JoinRequestStatus
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


# The one answer for a username that is not a trainee a pit boss may add, whatever the
# reason (no such account, a staff account, another role): it tells nothing about whose.
NOT_ADDABLE = "no trainee you can add has this username"


def trainee_by_username(*, username: str) -> User:
    """A trainee account by its username, ignoring case and width as signing in does
    (core.usernames); NotFoundError naming the field, in the same words whatever the
    username is (docs/security.md, *Class boundaries*)."""
    trainees = get_user_model().objects.filter(groups__name=Role.TRAINEE.value)
    found = users_with_username(username, trainees).first()
    if found is None:
        raise NotFoundError(NOT_ADDABLE, field="username")
    return found


def classes_of_others(
    *, trainee: AbstractBaseUser, user: AbstractBaseUser
) -> QuerySet[TrainingClass]:
    """The classes this trainee is on that ``user`` does not teach."""
    return TrainingClass.objects.filter(trainees=trainee.pk).exclude(instructors=user.pk)


def class_trainee_get(*, training_class: TrainingClass, trainee_id: int) -> User:
    found = training_class.trainees.filter(pk=trainee_id).first()
    if found is None:
        raise NotFoundError("no such trainee on this class", field="trainee")
    return found


def join_requests_waiting_for(*, user: AbstractBaseUser | AnonymousUser) -> list[ClassJoinRequest]:
    """The pending join requests this user may answer: an administrator's, all of them; a
    pit boss's, those for a trainee whose every class (that the asker does not teach) they
    teach. Newest first; three queries however many wait."""
    if not has_role(user, Role.PIT_BOSS, Role.ADMIN):
        return []
    pending = (
        ClassJoinRequest.objects.filter(status=JoinRequestStatus.PENDING)
        .exclude(requested_by=user.pk)
        .exclude(trainee=user.pk)
        .select_related("training_class", "trainee", "requested_by")
    )
    if has_role(user, Role.ADMIN):
        return list(pending)
    mine = list(pending.filter(trainee__classes_attended__instructors=user.pk).distinct())
    if not mine:
        return []
    enrolled = TrainingClass.trainees.through.objects.filter(
        user_id__in={r.trainee_id for r in mine}
    ).values_list("user_id", "trainingclass_id")
    classes_of: dict[int, set[int]] = {}
    for trainee_id, class_id in enrolled:
        classes_of.setdefault(trainee_id, set()).add(class_id)
    teaching = TrainingClass.instructors.through.objects.filter(
        trainingclass_id__in=set().union(*classes_of.values())
    ).values_list("trainingclass_id", "user_id")
    taught_by: dict[int, set[int]] = {}
    for class_id, instructor_id in teaching:
        taught_by.setdefault(class_id, set()).add(instructor_id)
    waiting = []
    for request in mine:
        others = {
            c
            for c in classes_of.get(request.trainee_id, set())
            if request.requested_by_id not in taught_by.get(c, set())
        }
        if others and all(user.pk in taught_by.get(c, set()) for c in others):
            waiting.append(request)
    return waiting


def join_requests_sent_for(*, training_class: TrainingClass) -> QuerySet[ClassJoinRequest]:
    """A class's join requests still waiting, with their trainee and asker."""
    return training_class.join_requests.filter(status=JoinRequestStatus.PENDING).select_related(
        "trainee", "requested_by"
    )


def join_request_get_for_answer(
    *, request_id: int, user: AbstractBaseUser | AnonymousUser
) -> ClassJoinRequest:
    """One pending request this user may answer; NotFoundError otherwise."""
    for request in join_requests_waiting_for(user=user):
        if request.pk == request_id:
            return request
    raise NotFoundError("no such request waiting for you", field="request")
