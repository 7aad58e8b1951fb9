"""The reads the API needs beyond the trainee selectors in trainer/selectors/attempts.py."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet

from core.errors import NotFoundError
from trainer.models import Assignment, Attempt, Drill
from trainer.selectors.attempts import assignments_for_trainee, attempt_progress
from trainer.selectors.starting import assignment_of_trainee, drill_active

__all__ = [
    "assignment_get_for_trainee",
    "assignments_with_attempts",
    "attempt_progress",
    "drill_get",
]


def drill_get(*, drill_id: int) -> Drill:
    """An active drill; NotFoundError otherwise (a retired drill cannot be started)."""
    drill = drill_active(drill_id=drill_id)
    if drill is None:
        raise NotFoundError(f"no such drill: {drill_id}", field="drill")
    return drill


def assignment_get_for_trainee(*, assignment_id: int, user: AbstractBaseUser) -> Assignment:
    """One of the user's assignments; NotFoundError for a missing id and anyone else's."""
    assignment = assignment_of_trainee(trainee=user, assignment_id=assignment_id)
    if assignment is None:
        raise NotFoundError(f"no such assignment: {assignment_id}", field="assignment")
    return assignment


def assignments_with_attempts(*, user: AbstractBaseUser) -> QuerySet[Assignment]:
    """The user's assignments, each with ``my_attempts``: the user's attempts at it, newest
    first (a class assignment's attempts by classmates stay out)."""
    mine = Attempt.objects.filter(trainee_id=user.pk).order_by("-started_at", "-id")
    return assignments_for_trainee(user=user).prefetch_related(
        Prefetch("attempts", queryset=mine, to_attr="my_attempts")
    )
