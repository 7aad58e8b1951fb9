"""Django's database sessions, read with the signed-in user in one fixed statement.

Every request reads its session, then its user (core.auth). The session row carries the
user's id beside its data (core.models.Session, written from the data on every save), so
the session's read joins the user's row and roles, and core.auth's backend takes that row
instead of reading it again: one round trip fewer on every signed-in request, which on a
busy floor is one wait fewer for PostgreSQL's turn on a core. Same expiry rule and writes
as django.contrib.sessions.backends.db; the session data, signed, still says who the user
is (docs/security.md).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.utils import timezone

from core.auth import session_with_user_sql
from core.models import Session
from core.rows import fetch_all


class SessionStore(DatabaseSessionStore):
    # The rows core.auth reads a user from (a row per role), read with the session: (the
    # user's id, rows), or None.
    _user_read_with_session: tuple[int, list[tuple[Any, ...]]] | None = None

    @classmethod
    def get_model_class(cls) -> type[Session]:
        return Session

    def create_model_instance(self, data: dict[str, Any]) -> Session:
        session = cast(Session, super().create_model_instance(data))
        session.user_id = _user_id(data.get(SESSION_KEY))
        return session

    def _get_session_from_db(self) -> Any:
        self._user_read_with_session = None
        key = self.session_key
        if not key:
            self._session_key = None
            return None
        rows = fetch_all(session_with_user_sql(), [key, timezone.now()])
        if not rows:
            self._session_key = None
            return None
        data, user_id = rows[0][0], rows[0][1]
        if user_id is not None and rows[0][2] is not None:  # the user's row was found
            self._user_read_with_session = (int(user_id), [row[2:] for row in rows])
        return Session(session_key=key, session_data=data, user_id=user_id)

    def user_rows(self, user_id: Any) -> list[tuple[Any, ...]] | None:
        """The rows of the user read with this session, once, if that user is `user_id`
        (the one its signed data names); else None, and the backend reads the user."""
        read, self._user_read_with_session = self._user_read_with_session, None
        if read is None or read[0] != _user_id(user_id):
            return None
        return read[1]


def _user_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
