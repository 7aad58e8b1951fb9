"""A JSON object with one key set, in SQL: for an UPDATE that adds a key without reading
the row first (the question's first showing, trainer.services.attempts)."""

from __future__ import annotations

from typing import Any

from django.db.models import Func, JSONField, Value
from django.db.models.sql.compiler import SQLCompiler


class WithKey(Func):
    """The JSON object in column `column` with `key` set to the string `value`.

    PostgreSQL: ``column || jsonb_build_object(key, value)``; SQLite: ``json_set(column,
    '$."key"', value)``. The key and the value are parameters, never spliced into the SQL;
    the key is a question's number (SQLite's path quotes it as one member).
    """

    output_field = JSONField()

    def __init__(self, column: str, key: str, value: str) -> None:
        if not key.isdigit():
            raise ValueError(f"a question's number, not {key!r}")
        super().__init__(column, Value(key), Value(value))

    def as_sql(  # type: ignore[override]
        self, compiler: SQLCompiler, connection: Any, **extra: Any
    ) -> tuple[str, list[Any]]:
        column, key, value = self.source_expressions
        column_sql, column_params = compiler.compile(column)
        key_sql, key_params = compiler.compile(key)
        value_sql, value_params = compiler.compile(value)
        params = [*column_params, *key_params, *value_params]
        if connection.vendor == "postgresql":
            return (
                f"({column_sql} || jsonb_build_object({key_sql}::text, {value_sql}::text))",
                params,
            )
        return f"json_set({column_sql}, '$.\"' || {key_sql} || '\"', {value_sql})", params
