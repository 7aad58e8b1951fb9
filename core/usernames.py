"""Usernames: one normal form and one comparison, for every door that makes or finds an
account (an invitation, a roster, a class's "add a trainee", the admin's user forms, the
API, signing in) and for the lockout's count.

- **Normal form**: Unicode NFKC (as Django's ``AbstractBaseUser.normalize_username``), then
  surrounding spaces removed. TRAINEE in full-width letters (U+FF34 U+FF32 ...) is ``TRAINEE``; a
  compatibility ligature or a superscript digit is its plain letter or digit.
- **Comparison**: the normal form in lower case (``username_key``). Two usernames with the
  same key are the same account: making a second is refused, and signing in with any of
  them signs in as the one account. A casino floor types on tablets whose keyboards
  capitalise the first letter; ``Tina`` and ``tina`` are one person.
- **Database**: a unique index on ``LOWER(username)`` (migration core/0002) makes a second
  account with the same key impossible whatever door is used. PostgreSQL's ``LOWER``
  folds every letter; SQLite's folds ASCII only, so there the lookups below compare
  non-ASCII keys in Python (and the index guards ASCII, which every NFKC'd full-width
  letter is).

The account keeps the username as it was first written (``Tina`` stays ``Tina``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Lower

if TYPE_CHECKING:
    from django.http import HttpRequest

# The database index that keeps one account per key (created by core/0002).
INDEX_NAME = "auth_user_username_lower_uniq"


def username_normal(raw: object) -> str:
    """``raw`` in its normal form: NFKC, without surrounding spaces ("" for a non-string)."""
    if not isinstance(raw, str):
        return ""
    return unicodedata.normalize("NFKC", raw).strip()


def username_key(raw: object) -> str:
    """What two usernames are compared by: the normal form in lower case."""
    return username_normal(raw).lower()


def users_with_username(raw: object, queryset: QuerySet[Any] | None = None) -> QuerySet[Any]:
    """The accounts whose username is ``raw`` ignoring case and width (at most one, given
    the index; old duplicates made before it would all be returned)."""
    users = queryset if queryset is not None else get_user_model()._default_manager.all()
    key = username_key(raw)
    if not key:
        return users.none()
    if key.isascii() or connection.vendor == "postgresql":
        return users.alias(username_key=Lower("username")).filter(username_key=key)
    # SQLite's LOWER folds ASCII letters only: compare the few candidates in Python.
    names = users.values_list("pk", "username")
    return users.filter(pk__in=[pk for pk, name in names if username_key(name) == key])


def username_taken(raw: object, *, exclude_pk: Any = None) -> bool:
    """Whether another account already has this username, ignoring case and width."""
    users = users_with_username(raw)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


def duplicate_usernames(names: Iterable[str]) -> list[list[str]]:
    """Groups of usernames that share a key (each group sorted, groups by their first)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(username_key(name), []).append(name)
    return sorted(sorted(group) for group in groups.values() if len(group) > 1)


def lockout_username(
    request: HttpRequest | None, credentials: Mapping[str, Any] | None
) -> str | None:
    """django-axes' AXES_USERNAME_CALLABLE: wrong passwords are counted against the key, so
    ``Admin``, ``ADMIN`` and admin in full-width letters are one account's failures, not three."""
    from django.conf import settings

    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        raw = credentials.get(field)
    else:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        raw = data.get(field) if hasattr(data, "get") else None
    return None if raw is None else username_key(raw)
