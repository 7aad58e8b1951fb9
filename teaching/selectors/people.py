"""People, as the administrators see them (the Administration pages and the API): every
account with its roles, whether it can sign in, whether it is locked out, whether the
person has chosen a password yet, and the classes they teach or attend. Nobody else sees
this list: for anyone but an administrator it is empty."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db.models import Prefetch, Q, QuerySet

from core.errors import NotFoundError
from core.lockout import LockoutState, lockout_states
from core.roles import Role, has_role, remember_roles
from core.usernames import username_key
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

STATUSES = {
    "active": "Can sign in",
    "invited": "Invited, no password yet",
    "locked": "Locked out",
    "closed": "Closed",
}


@dataclass
class PersonRow:
    """One account as the People page and the API show it."""

    user: User
    roles: list[Role]
    lockout: LockoutState | None
    invited: bool
    taught: list[TrainingClass] = field(default_factory=list)
    attended: list[TrainingClass] = field(default_factory=list)

    @property
    def status(self) -> str:
        if not self.user.is_active:
            return "closed"
        if self.lockout is not None:
            return "locked"
        if self.invited:
            return "invited"
        return "active"

    @property
    def status_words(self) -> str:
        return STATUSES[self.status]

    @property
    def locked_until(self) -> datetime | None:
        if self.lockout is None:
            return None
        until: datetime = self.lockout.last + settings.AXES_COOLOFF_TIME
        return until


def _people(user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    users = get_user_model().objects.all()
    if not has_role(user, Role.ADMIN):
        return users.none()
    return users.prefetch_related(
        "groups",
        Prefetch("classes_taught", queryset=TrainingClass.objects.order_by("name")),
        Prefetch("classes_attended", queryset=TrainingClass.objects.order_by("name")),
    ).order_by("last_name", "first_name", "username")


def _rows(users: list[User]) -> list[PersonRow]:
    locks = lockout_states([u.get_username() for u in users]) if users else {}
    rows = []
    for user in users:
        held = remember_roles(user, {group.name for group in user.groups.all()})
        rows.append(
            PersonRow(
                user=user,
                roles=[role for role in Role if role in held],
                lockout=locks.get(username_key(user.get_username())),
                invited=not user.has_usable_password(),
                taught=list(user.classes_taught.all()),
                attended=list(user.classes_attended.all()),
            )
        )
    return rows


def people_list(
    *,
    user: AbstractBaseUser | AnonymousUser,
    role: str = "",
    status: str = "",
    search: str = "",
) -> list[PersonRow]:
    """Every account an administrator may manage, filtered by role, status (a key of
    STATUSES) and a search in the name, username and e-mail address."""
    users = _people(user)
    if role in {r.value for r in Role}:
        users = users.filter(groups__name=role)
        if role == Role.ADMIN.value:
            users = _people(user).filter(Q(groups__name=role) | Q(is_superuser=True)).distinct()
    text = " ".join(search.split())[:100]
    if text:
        users = users.filter(
            Q(username__icontains=text)
            | Q(first_name__icontains=text)
            | Q(last_name__icontains=text)
            | Q(email__icontains=text)
        )
    rows = _rows(list(users))
    if status in STATUSES:
        rows = [row for row in rows if row.status == status]
    return rows


def person_get(*, user: AbstractBaseUser | AnonymousUser, person_id: int) -> PersonRow:
    """One account for an administrator; NotFoundError for anyone else, or none."""
    found = _people(user).filter(pk=person_id).first()
    if found is None:
        raise NotFoundError("no such person", field="person")
    return _rows([found])[0]


def pit_bosses(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    """The active pit bosses an administrator may make a class's instructors."""
    if not has_role(user, Role.ADMIN):
        return get_user_model().objects.none()
    return (
        get_user_model()
        .objects.filter(groups__name=Role.PIT_BOSS.value, is_active=True)
        .order_by("last_name", "first_name", "username")
    )


def trainees_all(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    """Every trainee account, for an administrator's move between classes."""
    if not has_role(user, Role.ADMIN):
        return get_user_model().objects.none()
    return (
        get_user_model()
        .objects.filter(groups__name=Role.TRAINEE.value)
        .order_by("last_name", "first_name", "username")
    )


def people_waiting(*, user: AbstractBaseUser | AnonymousUser) -> dict[str, int]:
    """What waits for an administrator: accounts locked out, invited people who have not
    chosen a password, classes with no instructor."""
    if not has_role(user, Role.ADMIN):
        return {"locked": 0, "invited": 0, "untaught": 0}
    active = get_user_model().objects.filter(is_active=True)
    usernames = list(active.values_list("username", flat=True))
    return {
        "locked": len(lockout_states(usernames)) if usernames else 0,
        "invited": active.filter(password__startswith=UNUSABLE_PASSWORD_PREFIX).count(),
        "untaught": TrainingClass.objects.filter(instructors__isnull=True).count(),
    }
