"""Lifting the ledger's append-only protection, as a DBA with enough rights can.

The tamper tests use it to play that DBA. The test run's flush, which empties every table
after a transactional test, uses it too: the database rightly refuses to empty the ledger.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper

TABLES = ("audit_ledgerentry", "audit_ledgerhead")


@contextmanager
def protection_lifted(connection: BaseDatabaseWrapper = default_connection) -> Iterator[None]:
    """The ledger's triggers off (PostgreSQL) or dropped (SQLite) inside; back on after."""
    triggers: list[tuple[str, str]] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if connection.in_atomic_block:
                # Deferred foreign-key checks of the test's own inserts block ALTER TABLE.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in TABLES:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        elif connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name IN (%s, %s)",
                list(TABLES),
            )
            triggers = list(cursor.fetchall())
            for name, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
    yield
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table in TABLES:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        for _, sql in triggers:
            cursor.execute(sql)


def tamper(sql: str, params: Sequence[Any] | None = None) -> None:
    """Run one statement on the ledger with its protection lifted, as a DBA could."""
    with protection_lifted(), default_connection.cursor() as cursor:
        cursor.execute(sql, params)
