"""Rows the ledger vouches for: a content hash of each relied-upon row, in its ledger entry.

A service that writes a row a page, a sign-off or a report relies on (a grade, a grading
run, an attempt's result, a certification, a flag, a review) puts the row's digest in the
payload of the ledger entry it appends in the same transaction:

    "vouches": {"audit_certification:12": "<sha256>", "trainer_grade:7": "<sha256>"}

The key is the row's table and primary key, or, for rows vouched by the group (a grading
run's grades: one digest over all of them), the table and the group's value. The newest
entry naming a key vouches for it. Verification (ledger.services.vouch_check) recomputes
the digests from the tables and names every row edited, inserted or deleted behind the
services.

The ledger knows no app: each app registers its vouched models when it is ready
(`vouched_register`, as audit registers its anchor source), saying which fields are
hashed, which ledger subjects vouch for a row, and which rows must be vouched for.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.db import models

from ledger.events import Subject

# The payload key holding a ledger entry's vouches.
VOUCHES = "vouches"


@dataclass(frozen=True)
class Vouched:
    """How the ledger vouches for the rows of one model.

    `fields`: the relied-upon fields (attribute names, `trainee_id` for a foreign key),
    hashed in this order. `subject_type` / `subject_field`: a row's vouching entries are the
    ledger entries about (`subject_type`, the row's `subject_field`), found through the
    ledger's subject index; `subjects`, when given, maps keys to those subject ids instead
    (an attempt's result is vouched by its grading runs' entries). `group`: the rows are
    vouched together, one digest over the rows with the same value of this field. `needs`:
    which rows (their `fields` values) must be vouched for, e.g. a run only once finished;
    every row when None. `noun`/`plural`: what verification calls a row (for a group,
    `noun` is what the group belongs to: "grading run"). `small`: a table small enough to
    be checked whole by every verification, the incremental one too (the sign-off's
    certifications and flags). `later`: fields added after rows were vouched for, hashed
    after `fields` as {name: value} only where a row has a value (not None), so that every
    row from before keeps its digest. `backfill_subject`: the subject type of the entries a
    backfill writes, when not `subject_type` (a decision's: one entry per sitting, not per
    decision); `subjects` then gives each key's backfill subject id last.
    """

    model: type[models.Model]
    fields: tuple[str, ...]
    subject_type: Subject
    # What a row is, in the words of the people who read verification ("certification"),
    # and the rows together ("certifications").
    noun: str = "row"
    plural: str = "rows"
    subject_field: str = "pk"
    group: str | None = None
    needs: Callable[[tuple[Any, ...]], bool] | None = None
    subjects: Callable[[Sequence[str]], dict[str, list[str]]] | None = None
    small: bool = False
    later: tuple[str, ...] = ()
    backfill_subject: Subject | None = None

    def hashed(self, values: Sequence[Any], later: Sequence[str] | None = None) -> list[Any]:
        """What is hashed of a row's values (`fields`, then `later`, or those of them a
        migration's historical model has, in order)."""
        count = len(self.fields)
        out = list(values[:count])
        out.extend(
            {name: value}
            for name, value in zip(
                self.later if later is None else later, values[count:], strict=True
            )
            if value is not None
        )
        return out

    @property
    def table(self) -> str:
        return str(self.model._meta.db_table)

    def key(self, value: object) -> str:
        return f"{self.table}:{value}"

    def describe(self, value: object) -> str:
        """The row (or the group of rows) a key names, as the verification reports it."""
        if self.group is None:
            return f"{self.noun} {value} (table {self.table}, row {value})"
        return (
            f"the {self.plural} of {self.noun} {value} "
            f"(table {self.table}, the rows with {self.group} {value})"
        )

    def subjects_of(self, keys: Sequence[str]) -> dict[str, list[str]]:
        """The subject ids of the entries that may vouch for each key (the last: the one
        a backfill writes it under)."""
        if self.subjects is not None:
            return self.subjects(keys)
        if self.subject_field in ("pk", "id", self.group):
            return {key: [key] for key in keys}
        key_field = self.group or "pk"
        found: dict[str, list[str]] = {}
        for start in range(0, len(keys), 1000):
            for key, subject in self.model._default_manager.filter(
                **{f"{key_field}__in": list(keys[start : start + 1000])}
            ).values_list(key_field, self.subject_field):
                found[str(key)] = [str(subject)]
        return found


_registry: dict[str, Vouched] = {}


def vouched_register(spec: Vouched) -> None:
    """Have every verification check `spec.model`'s rows against the ledger (once)."""
    _registry.setdefault(spec.model._meta.label, spec)


def vouched_models() -> list[Vouched]:
    return list(_registry.values())


def vouched_spec(model: type[models.Model]) -> Vouched:
    try:
        return _registry[model._meta.label]
    except KeyError:
        raise LookupError(f"{model._meta.label} is not registered as vouched") from None


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        # 0.50, 0.5 and -0.00 are the same amount whichever database returns it.
        return "0" if value == 0 else format(value.normalize(), "f")
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    raise TypeError(f"cannot hash {type(value).__name__}")


def _text(values: Sequence[Any]) -> str:
    return json.dumps(
        list(values), default=_plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def row_digest(values: Sequence[Any]) -> str:
    """The digest of one row: its `fields` values, in order."""
    return hashlib.sha256(_text(values).encode()).hexdigest()


def group_digest(rows: Iterable[Sequence[Any]]) -> str:
    """The digest of a group of rows, whatever order they come in."""
    digest = hashlib.sha256()
    for text in sorted(_text(values) for values in rows):
        digest.update(text.encode())
        digest.update(b"\n")
    return digest.hexdigest()


EMPTY_GROUP = group_digest([])


def digests(
    spec: Vouched, *, keys: Sequence[str] | None = None, manager: Any = None
) -> Iterator[tuple[str, str, bool]]:
    """(key value, digest, must be vouched) for each row (or group) of the table, from the
    database; only those of `keys` when given. `manager`: a migration's historical model's."""
    objects = manager if manager is not None else spec.model._default_manager
    # A migration's historical model may not have the fields added later yet.
    names = {field.name for field in objects.model._meta.get_fields()}
    later = tuple(name for name in spec.later if name in names)
    key_field = spec.group or "pk"
    chunks: Iterable[Sequence[str] | None] = (
        [None]
        if keys is None
        else (list(keys[start : start + 1000]) for start in range(0, len(keys), 1000))
    )
    for chunk in chunks:
        query = objects.all() if chunk is None else objects.filter(**{f"{key_field}__in": chunk})
        rows = query.order_by(key_field).values_list(key_field, *spec.fields, *later)
        count = len(spec.fields)
        if spec.group is None:
            for pk, *values in rows.iterator(chunk_size=5000):
                needed = spec.needs is None or spec.needs(tuple(values[:count]))
                yield str(pk), row_digest(spec.hashed(values, later)), needed
            continue
        current: object = None
        members: list[Sequence[Any]] = []
        for value, *values in rows.iterator(chunk_size=5000):
            if value != current and members:
                yield str(current), group_digest(members), True
                members = []
            current = value
            members.append(spec.hashed(values, later))
        if members:
            yield str(current), group_digest(members), True
        if chunk is not None:
            # A group with no rows left (all of them deleted) is the empty group.
            found = {str(v) for v in query.values_list(key_field, flat=True).distinct()}
            for key in chunk:
                if str(key) not in found:
                    yield str(key), EMPTY_GROUP, False


def row_vouches(model: type[models.Model], keys: Iterable[object]) -> dict[str, str]:
    """The payload's vouches for rows just written (read back in the writer's transaction,
    so what is hashed is what the database holds)."""
    spec = vouched_spec(model)
    return {spec.key(key): digest for key, digest, _ in digests(spec, keys=[str(k) for k in keys])}
