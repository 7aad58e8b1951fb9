"""Signing in with Django's user model, the user's roles read with the user.

Every request reads its signed-in user from the session; every view then asks for the
user's roles (core.roles). Read apart, that is two queries on every request; read here in
the one query that loads the user (a row per group, through the join), it is one. Roles
are still read afresh on every request: a role taken away holds from the next request.

Signing in finds the account as every other door does (core.usernames): ``Tina``,
``TINA`` and TINA in full-width letters (U+FF34 ...) sign in as ``tina``.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from core.models import Session
from core.roles import remember_roles
from core.rows import columns, fetch_all, instance, table
from core.usernames import users_with_username


class ReadWithSession(Protocol):
    def user_rows(self, user_id: Any) -> list[tuple[Any, ...]] | None: ...


# The session whose read brought the user's rows (config.session_store), set only while
# the request's user is read from it (config.middleware.AuthenticationMiddleware).
session_being_read: ContextVar[ReadWithSession | None] = ContextVar(
    "session_being_read", default=None
)


class RolesModelBackend(ModelBackend):
    """Django's ModelBackend (passwords, permissions) whose get_user reads the roles too,
    and whose authenticate finds the account ignoring case and width."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        model = get_user_model()
        if username is None:
            username = kwargs.pop(model.USERNAME_FIELD, None)
        if isinstance(username, str):
            stored = list(users_with_username(username).values_list("username", flat=True)[:2])
            # One account has this key (the index allows no more): sign in as it. Otherwise
            # Django's own exact lookup decides, and times a miss as it times a hit.
            if len(stored) == 1:
                username = stored[0]
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        session = session_being_read.get()
        rows = session.user_rows(user_id) if session is not None else None
        if rows is None:
            rows = fetch_all(_user_with_roles_sql(model), [user_id])
        if not rows:
            return None
        user, _ = instance(model, rows[0])
        remember_roles(user, {row[-1] for row in rows if row[-1] is not None})
        return user if self.user_can_authenticate(user) else None


@cache
def _user_with_roles_sql(model: Any) -> str:
    """The user's row once per group it is in (its roles), in one fixed statement: every
    request runs it, and a queryset of the same join cost more to build than to run."""
    pk = model._meta.pk.column
    return (
        f"SELECT {columns(model, 'u')}, g.name FROM {table(model)} u {_roles_joined(model)} "  # noqa: S608 - names only
        f"WHERE u.{pk} = %s"
    )


def _roles_joined(model: Any) -> str:
    """The user ``u``'s groups ``g``: a row for each (one, of NULLs, for none)."""
    pk = model._meta.pk.column
    return (
        f"LEFT JOIN {table(model.groups.through)} ug ON ug.user_id = u.{pk} "
        f"LEFT JOIN {table(model.groups.field.related_model)} g ON g.id = ug.group_id"
    )


@cache
def session_with_user_sql() -> str:
    """A session's data and user id, and the rows ``_user_with_roles_sql`` reads for that
    user (NULLs when the session has none, or the user is gone), in one statement:
    parameters the session key and the time now."""
    model = get_user_model()
    pk = model._meta.pk.column
    return (
        f"SELECT s.session_data, s.user_id, {columns(model, 'u')}, g.name "  # noqa: S608 - names only
        f"FROM {table(Session)} s "
        f"LEFT JOIN {table(model)} u ON u.{pk} = s.user_id {_roles_joined(model)} "
        "WHERE s.session_key = %s AND s.expire_date > %s"
    )
