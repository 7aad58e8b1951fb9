"""Django's database sessions, read with fixed SQL.

Every request reads its session; through the ORM, building that one-row query cost about
as much Python as the rest of a question request's reads (core.rows). Same table, same
rows, same expiry rule as django.contrib.sessions.backends.db, whose writes are kept.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from core.rows import fetch_one, table


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Any:
        key = self.session_key
        if not key:
            self._session_key = None
            return None
        row = fetch_one(
            f"SELECT session_data FROM {table(Session)} "  # noqa: S608 - names only
            "WHERE session_key = %s AND expire_date > %s",
            [key, timezone.now()],
        )
        if row is None:
            self._session_key = None
            return None
        return Session(session_key=key, session_data=row[0])
