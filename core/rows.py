"""Fixed SQL for the reads and writes every answer makes: the statement is written once,
its columns taken from the models, its rows turned into model instances and its values
prepared as the ORM would.

Why not the ORM: building and compiling a queryset costs a request more Python than the
query costs PostgreSQL. On the answering loop (a session, a user, an attempt and its round,
read on every question and every answer) that compiling was a quarter of the web
workers' CPU (docs/benchmarks.md, "Issue 29"). Nothing here takes text from a request:
values travel as parameters, and the SQL is built from the models' own table and column
names only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


# PostgreSQL and SQLite (the two databases the product runs on) quote names alike.
def table(model: type[Model]) -> str:
    return f'"{model._meta.db_table}"'


def columns(model: type[Model], as_: str) -> str:
    """The model's concrete columns, in field order, as ``as_``'s: the select list that
    ``instance`` reads."""
    return ", ".join(f'{as_}."{field.column}"' for field in model._meta.concrete_fields)


class _Shape:
    """How one model's columns are read back from the database: its attribute names, where
    its primary key is, and the converters the ORM runs on a value read (the backend's,
    then the field's own: a JSON column parsed, SQLite's datetimes made aware), kept only
    for the fields that have any."""

    def __init__(self, model: type[Model]) -> None:
        fields = model._meta.concrete_fields
        self.width = len(fields)
        self.names = [field.attname for field in fields]
        self.pk_index = list(fields).index(model._meta.pk)
        self.converters: list[tuple[int, Any, list[Converter]]] = []
        for index, field in enumerate(fields):
            col = field.get_col(model._meta.db_table)
            found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
            if found:
                self.converters.append((index, col, found))


_SHAPES: dict[type[Model], _Shape] = {}


def _shape(model: type[Model]) -> _Shape:
    shape = _SHAPES.get(model)
    if shape is None:
        shape = _SHAPES[model] = _Shape(model)
    return shape


def optional_instance(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M | None, int]:
    """The instance whose columns (``columns``) begin at ``row[start]``, and where the next
    model's begin. None for a LEFT JOIN that found no row (its primary key is NULL)."""
    shape = _shape(model)
    end = start + shape.width
    values = list(row[start:end])
    if values[shape.pk_index] is None:
        return None, end
    for index, col, converters in shape.converters:
        for convert in converters:
            values[index] = convert(values[index], col, connection)
    return model.from_db(connection.alias, shape.names, values), end


def instance(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M, int]:
    """``optional_instance`` for a row that is there (an inner join, the FROM table)."""
    found, end = optional_instance(model, row, start)
    if found is None:
        raise ValueError(f"no {model._meta.label} row at column {start}")
    return found, end


def read_value(model: type[Model], attname: str, value: Any) -> Any:
    """One column's value as the ORM reads it (an SQLite datetime made aware, JSON parsed)."""
    shape = _shape(model)
    index = shape.names.index(attname)
    for at, col, converters in shape.converters:
        if at == index:
            for convert in converters:
                value = convert(value, col, connection)
    return value


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(row) for row in cursor.fetchall()]


def lock_clause(of: str | None = None) -> str:
    """The row lock a fixed SELECT ends with: FOR UPDATE (OF the alias ``of`` alone where
    the database can say so); none on SQLite, which locks the whole database for the
    write transaction instead."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    if of is not None and features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE"


def prepared(obj: Model, fields: Sequence[Any]) -> list[Any]:
    """The values of a new row, each prepared by its field as a first save() prepares it
    (``auto_now_add`` filled, JSON dumped)."""
    return [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]


@cache
def _insert_sql(model: type[Model], returning: bool, rows: int = 1) -> str:
    fields = _inserted_fields(model)
    names = ", ".join(f'"{field.column}"' for field in fields)
    marks = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * rows)
    back = f' RETURNING "{model._meta.pk.column}"' if returning else ""
    return f"INSERT INTO {table(model)} ({names}) VALUES {marks}{back}"  # noqa: S608 - names only


@cache
def _inserted_fields(model: type[Model]) -> list[Any]:
    """Every column but an automatic primary key, which the database numbers."""
    pk = model._meta.pk
    automatic = getattr(pk, "db_returning", False)
    return [field for field in model._meta.concrete_fields if not (automatic and field is pk)]


def _saved(obj: M, pk: Any) -> M:
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


def insert(obj: M, *, then: tuple[str, Sequence[Any]] | None = None) -> M:
    """Save a new instance in one fixed INSERT, as ``save()`` would: each value prepared
    by its field (``auto_now_add`` filled), the new primary key set on the instance. No
    save() override or save signal runs: for rows whose model's own save() adds nothing to
    a first insert (tests/test_rows.py checks no receiver listens for them).

    ``then``: an UPDATE of another table (SQL ending in its WHERE, and its parameters)
    made once the row is in, as a trigger checking for the row needs: on PostgreSQL in the
    same statement (a data-modifying WITH the UPDATE waits for: one round trip, not two);
    elsewhere as a statement of its own right after. ValueError when it updates nothing."""
    model = type(obj)
    returning = bool(connection.features.can_return_columns_from_insert)
    params = prepared(obj, _inserted_fields(model))
    with connection.cursor() as cursor:
        if then is not None and connection.vendor == "postgresql":
            cursor.execute(_insert_then_sql(model, then[0]), [*params, *then[1]])
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"inserting into {table(model)}: the UPDATE after it found no row")
            return _saved(obj, row[0])
        cursor.execute(_insert_sql(model, returning), params)
        pk = cursor.fetchone()[0] if returning else cursor.lastrowid
        if then is not None:
            cursor.execute(then[0], then[1])
            if cursor.rowcount != 1:
                raise ValueError(f"inserting into {table(model)}: the UPDATE after it found no row")
    return _saved(obj, pk)


@cache
def _insert_then_sql(model: type[Model], then: str) -> str:
    """The INSERT as a WITH, and the UPDATE after it made to wait for it (its WHERE reads
    it): its trigger then finds the row inserted."""
    pk = model._meta.pk.column
    # Names from the models and the caller's fixed UPDATE: no text from a request.
    return (
        f"WITH inserted AS ({_insert_sql(model, True)}) {then} AND EXISTS "  # noqa: S608
        f'(SELECT 1 FROM inserted) RETURNING (SELECT "{pk}" FROM inserted)'
    )


def update(obj: Model, fields: Sequence[str]) -> None:
    """``save(update_fields=fields)`` in one fixed UPDATE of the row with the instance's
    primary key: each value prepared by its field (``auto_now`` set). No save() override or
    save signal runs: for rows whose model's own save() adds nothing to an update
    (tests/test_rows.py checks no receiver listens for them)."""
    model = type(obj)
    known = [_concrete(model, name) for name in fields]
    params = [field.get_db_prep_save(field.pre_save(obj, False), connection) for field in known]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, tuple(fields)), [*params, obj.pk])


def _concrete(model: type[Model], name: str) -> Any:
    field = model._meta.get_field(name)
    if not getattr(field, "concrete", False):
        raise ValueError(f"{model._meta.label}.{name} is not a column")
    return field


@cache
def _update_sql(model: type[Model], fields: tuple[str, ...]) -> str:
    sets = ", ".join(f'"{_concrete(model, name).column}" = %s' for name in fields)
    return f'UPDATE {table(model)} SET {sets} WHERE "{model._meta.pk.column}" = %s'  # noqa: S608


# PostgreSQL takes at most 65,535 parameters a statement.
_MOST_PARAMETERS = 65_535


def insert_many(objs: Sequence[M]) -> list[M]:
    """Save new instances of one model as ``insert`` does, in one multi-row INSERT (one
    more for each 65,535 values), their primary keys set.

    Why not bulk_create: Django 5.2 sends a bulk insert to PostgreSQL as UNNEST of one
    array a column, and the database adapter quotes a JSON array in Python, character by
    character: for the ten rounds an attempt's start deals, a third of the request's
    Python (docs/benchmarks.md, "Issue 29"). Here each document is one parameter."""
    if not objs:
        return []
    model = type(objs[0])
    if not connection.features.can_return_rows_from_bulk_insert:
        return model._default_manager.bulk_create(objs)  # an old SQLite: the ORM's way
    fields = _inserted_fields(model)
    size = max(1, _MOST_PARAMETERS // len(fields))
    for begin in range(0, len(objs), size):
        batch = objs[begin : begin + size]
        params = [value for obj in batch for value in prepared(obj, fields)]
        with connection.cursor() as cursor:
            cursor.execute(_insert_sql(model, True, len(batch)), params)
            for obj, (pk,) in zip(batch, cursor.fetchall(), strict=True):
                _saved(obj, pk)
    return list(objs)
