"""PostgreSQL's fast paths, in one place: bulk writers (COPY, pipelined UPDATEs), reading
rows past the ORM, and the SQL that formats values exactly as the Python beside it does.

Each writer falls back to (or is called beside) the ORM on another database, so SQLite runs
the same code paths apart from these; the tests on PostgreSQL run both. Everything here
takes our own table and column names, never user input, into the SQL it builds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model, QuerySet

from core.rows import prepared

# Bulk writers.


def copy_rows(*, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write rows (values in `columns` order, as the database adapter takes them) with COPY.

    Several times faster than INSERT for many rows, and it skips the client-side binding
    of array parameters (Django 5.2 sends a bulk insert as UNNEST of one array per column,
    quoting each jsonb[] array in Python, character by character). PostgreSQL only.
    """
    names = ", ".join(connection.ops.quote_name(column) for column in columns)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def copy_instances(*, model: type[Model], instances: Iterable[Model], with_pk: bool) -> None:
    """Write model instances with COPY, every concrete column (the primary key too when
    `with_pk`: see `reserve_ids`), each value prepared as bulk_create prepares it."""
    meta = model._meta
    fields: list[Field[Any, Any]] = [
        f for f in meta.concrete_fields if f.column and (with_pk or f is not meta.auto_field)
    ]
    copy_rows(
        table=meta.db_table,
        columns=[str(f.column) for f in fields],
        rows=(prepared(instance, fields) for instance in instances),
    )


def reserve_ids(*, model: type[Model], count: int) -> list[int]:
    """`count` new primary keys from the table's sequence (for rows written by COPY, which
    returns none)."""
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, pk.column, count],
        )
        return [value for (value,) in cursor.fetchall()]


def update_rows(model: type[Model], changes: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """One UPDATE a row by primary key, pipelined in one round trip on PostgreSQL; one
    queryset update a row elsewhere.

    (bulk_update's CASE expressions cost more to build than they save.)
    """
    if connection.vendor != "postgresql":
        for pk, change in changes:
            model._default_manager.filter(pk=pk).update(**change)
        return
    meta = model._meta
    groups: dict[tuple[str, ...], list[list[Any]]] = {}
    for pk, change in changes:
        fields = tuple(change)
        groups.setdefault(fields, []).append(
            [
                *(meta.get_field(f).get_db_prep_save(change[f], connection) for f in fields),  # type: ignore[union-attr]
                pk,
            ]
        )
    with connection.cursor() as cursor:
        for fields, params in groups.items():
            if not fields:
                continue
            assignments = ", ".join(f"{meta.get_field(f).column} = %s" for f in fields)  # type: ignore[union-attr]
            cursor.executemany(
                f"UPDATE {meta.db_table} SET {assignments} WHERE id = %s",  # noqa: S608 - our own columns
                params,
            )


def deferred_checks_run() -> None:
    """The transaction's deferred constraint checks (Django makes every foreign key
    DEFERRABLE INITIALLY DEFERRED) run now, and any later statement's at once, instead of
    all at the commit; PostgreSQL only (elsewhere nothing changes). For a transaction that
    is about to take a lock others wait for, so as not to hold it while they run."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


# Reading.


def fetch_rows(values: QuerySet[Any, Any]) -> list[tuple[Any, ...]]:
    """The rows of a values_list query as the database driver gives them (converting
    thousands of rows' JSON through the ORM costs more than the query)."""
    sql, params = values.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# CSV cells, in Python and in SQL: the two must give the same bytes.

# The characters that get a cell quoted, quotes doubled, as RFC 4180 has it. Python 3.11's
# csv.writer leaves a lone carriage return unquoted, which readers take for the end of the
# row: a comment could end its row there and start a forged one. So the report writes its
# lines itself (`csv_line`), and the SQL (`sql_csv_text`) quotes the same characters.
CSV_QUOTED = ',"\r\n'

# Formula injection (OWASP, "CSV injection"): a spreadsheet runs a cell starting with one of
# these as a formula, whoever typed it (a username "-2+3", a review "=HYPERLINK(…)"). Such a
# cell is written after a single quote, which the spreadsheet shows as text. A cell that is
# only a number ("-2.50", a negative amount) is no formula and is left as it is.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Of those, only "-" also starts a number.
_NEGATIVE_NUMBER = re.compile(r"-[0-9]+(\.[0-9]+)?")
_NEGATIVE_NUMBER_SQL = r"'^-[0-9]+(\.[0-9]+)?$'"
_QUOTED = re.compile("[" + re.escape(CSV_QUOTED) + "]")


def csv_formula_safe(cell: str) -> str:
    """The cell as the CSV must hold it: after a single quote if a spreadsheet would run it."""
    if cell.startswith(FORMULA_START) and not _NEGATIVE_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def csv_line(row: Sequence[str]) -> str:
    """One line of the CSV, "\\n" ended: each cell made formula-safe, then quoted, quotes
    doubled, when it holds a character of CSV_QUOTED.

    Written here rather than by csv.writer, which on Python 3.11 leaves a lone carriage
    return unquoted (see CSV_QUOTED); otherwise the same bytes.
    """
    cells = []
    for cell in map(csv_formula_safe, row):
        cells.append('"' + cell.replace('"', '""') + '"' if _QUOTED.search(cell) else cell)
    return ",".join(cells) + "\n"


def sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _sql_formula_quote(column: str) -> str:
    # csv_formula_safe in SQL: the single quote to put in front of the cell, or nothing.
    quote = sql_literal("'")
    return (
        f"(CASE WHEN left({column}, 1) IN ('=', '+', '@', chr(9), chr(13)) "
        f"OR (left({column}, 1) = '-' AND {column} !~ {_NEGATIVE_NUMBER_SQL}) "
        f"THEN {quote} ELSE '' END)"
    )


def sql_csv_text(column: str) -> str:
    """A text cell as `csv_line` writes it: made formula-safe, then quoted, quotes doubled,
    when it holds a character of CSV_QUOTED; NULL as an empty cell. The quote put in front
    is not one of those characters."""
    pattern = "[" + "".join("\\" + c if c in "]\\^-" else c for c in CSV_QUOTED) + "]"
    prefix = _sql_formula_quote(column)
    quoted = "'\"' || {0} || replace({1}, '\"', '\"\"') || '\"'"
    return (
        f"COALESCE(CASE WHEN {column} ~ {sql_literal(pattern)} "
        f"THEN {quoted.format(prefix, column)} ELSE {prefix} || {column} END, '')"
    )


def sql_house_text(column: str, *, zone: str, abbreviations: Mapping[int, str]) -> str:
    """`core.dates.house_second` in SQL: the instant in the house's zone to the second, then
    the zone's abbreviation at that offset (`core.dates.zone_abbreviations`, which the caller
    reads for its period), or the offset ("UTC-05:00") where it has none; NULL as ''."""
    local = f"({column} AT TIME ZONE {sql_literal(zone)})"
    offset = f"(extract(epoch FROM {local} - ({column} AT TIME ZONE 'UTC'))::int)"
    names = " ".join(
        f"WHEN {seconds} THEN {sql_literal(name)}" for seconds, name in abbreviations.items()
    )
    numeric = (
        f"CASE WHEN {offset} = 0 THEN 'UTC' ELSE 'UTC' || "
        f"CASE WHEN {offset} < 0 THEN '-' ELSE '+' END || "
        f"lpad((abs({offset}) / 3600)::text, 2, '0') || ':' || "
        f"lpad((mod(abs({offset}), 3600) / 60)::text, 2, '0') END"
    )
    name = f"(CASE {offset} {names} ELSE {numeric} END)" if names else numeric
    return f"COALESCE(to_char({local}, 'YYYY-MM-DD HH24:MI:SS') || ' ' || {name}, '')"


def sql_words(column: str, words: Mapping[str, str]) -> str:
    """A value by its label, `words.get(value, value)` in SQL (NULL stays NULL)."""
    cases = " ".join(f"WHEN {sql_literal(k)} THEN {sql_literal(v)}" for k, v in words.items())
    return f"(CASE {column} {cases} ELSE {column} END)"
