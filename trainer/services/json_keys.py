"""A question's first showing recorded in one conditional UPDATE that adds its key to the
round's JSON object without reading the row first (trainer.services.attempts).

PostgreSQL: ``questions_shown || jsonb_build_object(key, moment)``; SQLite: ``json_set(
questions_shown, '$."key"', moment)``. The key and the moment are parameters, never spliced
into the SQL; the key is a question's number (SQLite's path quotes it as one member).
"""

from __future__ import annotations

from functools import cache


@cache
def first_showing_sql(table: str, vendor: str) -> str:
    """The UPDATE that records a question's first showing in the round's row, where it has
    none yet: parameters (key, moment, now, row id, key). Fixed SQL (core.rows): every
    question a trainee is shown runs it."""
    if vendor == "postgresql":
        added = "questions_shown || jsonb_build_object(%s::text, %s::text)"
        missing = "NOT (questions_shown ? %s)"
    else:
        added = "json_set(questions_shown, '$.\"' || %s || '\"', %s)"
        missing = "JSON_TYPE(questions_shown, '$.\"' || %s || '\"') IS NULL"
    return (
        f"UPDATE {table} SET questions_shown = {added}, "  # noqa: S608 - names only
        f"shown_at = COALESCE(shown_at, %s) WHERE id = %s AND {missing}"
    )
