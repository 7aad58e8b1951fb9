"""Counting SQL queries in tests (zulip's ``assert_database_query_count`` is the model):
exactly so many in a block, or how many an action made. For the tests of every app."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext


@contextmanager
def assert_database_query_count(expected: int) -> Iterator[None]:
    """Exactly ``expected`` queries in the block; on failure, every query is listed."""
    with CaptureQueriesContext(connection) as queries:
        yield
    found = len(queries.captured_queries)
    if found != expected:
        listing = "\n".join(
            f"{n}. {q['sql'][:300]}" for n, q in enumerate(queries.captured_queries, 1)
        )
        pytest.fail(f"{found} queries, expected {expected}:\n{listing}")


def per_vendor(*, sqlite: int, postgresql: int) -> int:
    """Where the database changes the count (PostgreSQL's bulk COPY, row locks)."""
    return {"sqlite": sqlite, "postgresql": postgresql}[connection.vendor]


def counted(action: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries.captured_queries)
