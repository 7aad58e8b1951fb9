"""The four roles of Shoe School, held as Django auth groups (created by a migration)."""

from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class Role(StrEnum):
    """A user's job at the casino; a user may hold several."""

    TRAINEE = "trainee"
    PIT_BOSS = "pit_boss"
    COMPLIANCE = "compliance"
    ADMIN = "admin"

    @property
    def label(self) -> str:
        return {
            Role.TRAINEE: "Trainee",
            Role.PIT_BOSS: "Pit boss",
            Role.COMPLIANCE: "Compliance officer",
            Role.ADMIN: "Administrator",
        }[self]


def roles_of(user: AbstractBaseUser | AnonymousUser) -> frozenset[Role]:
    """The roles a user holds; superusers hold the admin role whatever their groups."""
    if not user.is_authenticated:
        return frozenset()
    cached: frozenset[Role] | None = getattr(user, "_shoeschool_roles", None)
    if cached is None:
        names = set(user.groups.values_list("name", flat=True))  # type: ignore[attr-defined]
        cached = remember_roles(user, names)
    return cached


def remember_roles(user: AbstractBaseUser, group_names: set[str]) -> frozenset[Role]:
    """Keep on this user object the roles its groups give (read with the user by
    core.auth, or by roles_of), for the rest of the request."""
    roles = frozenset(role for role in Role if role.value in group_names)
    if getattr(user, "is_superuser", False):
        roles = roles | {Role.ADMIN}
    user._shoeschool_roles = roles  # type: ignore[attr-defined]
    return roles


def has_role(user: AbstractBaseUser | AnonymousUser, *roles: Role) -> bool:
    return bool(roles_of(user) & set(roles))
