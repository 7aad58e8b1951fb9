"""Appending to the tamper-evident ledger, in the transaction of the change it records."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from core.postgres import copy_instances, reserve_ids
from core.rows import fetch_one, insert, lock_clause, table
from ledger.chain import GENESIS_HASH, entry_hash
from ledger.events import Event, Subject
from ledger.models import LedgerEntry, LedgerHead


@dataclass(frozen=True)
class PendingEntry:
    event: Event
    subject_type: Subject
    subject_id: str
    payload: Mapping[str, Any]
    actor: AbstractBaseUser | None = None


def _plain(payload: Mapping[str, Any]) -> dict[str, Any]:
    # Decimals, dates and UUIDs become strings now, so what is stored is what was hashed.
    plain: dict[str, Any] = json.loads(json.dumps(payload, cls=DjangoJSONEncoder))
    return plain


def ledger_append_many(*, entries: Iterable[PendingEntry]) -> list[LedgerEntry]:
    """Append entries in order, in the caller's transaction (one is opened if none is).

    The head row is locked for the rest of the transaction, so concurrent writers
    extend the chain one after another and the entries commit or roll back with the
    change they record.
    """
    # No savepoint: an append that fails fails the change it records with it, and every
    # change appends, so a savepoint would only add two round trips to each.
    with transaction.atomic(savepoint=False):
        sequence, previous_hash = _locked_head()
        now = timezone.now()
        rows: list[LedgerEntry] = []
        for pending in entries:
            sequence += 1
            actor = pending.actor
            row = LedgerEntry(
                sequence=sequence,
                recorded_at=now,
                event=pending.event,
                actor_id=getattr(actor, "pk", None),
                actor_name=actor.get_username() if actor is not None else "",
                subject_type=pending.subject_type,
                subject_id=str(pending.subject_id),
                payload=_plain(pending.payload),
                previous_hash=previous_hash,
            )
            row.hash = entry_hash(previous_hash, row.content())
            previous_hash = row.hash
            rows.append(row)
        moved: tuple[str, list[Any]] = (_HEAD_MOVE_SQL, [sequence, previous_hash])
        if len(rows) == 1:
            # An answer's, a submit's: the entry and the head's move in one statement
            # (core.rows), one round trip fewer while the head is locked.
            insert(rows[0], then=moved)
        elif rows:
            _insert(rows)
            with connection.cursor() as cursor:
                cursor.execute(moved[0], moved[1])
        return rows


# The head is read and moved with fixed SQL (core.rows): every answer appends, and the
# querysets cost an answer more Python than the statements cost PostgreSQL.
_HEAD = table(LedgerHead)
_HEAD_MOVE_SQL = f"UPDATE {_HEAD} SET sequence = %s, hash = %s WHERE id = 1"  # noqa: S608


def ledger_hold() -> None:
    """Lock the chain's head for the rest of the caller's transaction (one must be open):
    a change that appends commits before this returns, or appends after the caller."""
    _locked_head()


def _locked_head() -> tuple[int, str]:
    """The chain's length and last hash, the head's row locked until the transaction ends
    (made on the first append: a new database has none)."""
    row = fetch_one(f"SELECT sequence, hash FROM {_HEAD} WHERE id = 1{lock_clause()}", [])  # noqa: S608
    if row is None:
        head, _ = LedgerHead.objects.select_for_update().get_or_create(
            id=1, defaults={"sequence": 0, "hash": GENESIS_HASH}
        )
        return head.sequence, head.hash
    return int(row[0]), str(row[1])


def _insert(rows: list[LedgerEntry]) -> None:
    """Several entries: bulk_create, but COPY on PostgreSQL (the payloads' jsonb[] array
    is slow through bulk_create: see core.postgres.copy_rows). The ids are taken from the
    table's sequence first, so the rows come back with their pk as bulk_create's do.
    """
    if connection.vendor != "postgresql":
        LedgerEntry.objects.bulk_create(rows, batch_size=1000)
        return
    for row, pk in zip(rows, reserve_ids(model=LedgerEntry, count=len(rows)), strict=True):
        row.pk = pk
    copy_instances(model=LedgerEntry, instances=rows, with_pk=True)
    for row in rows:
        row._state.adding = False
        row._state.db = connection.alias


def ledger_append(
    *,
    event: Event,
    subject_type: Subject,
    subject_id: object,
    payload: Mapping[str, Any],
    actor: AbstractBaseUser | None = None,
) -> LedgerEntry:
    """Append one entry recording a change, in the same transaction as the change."""
    pending = PendingEntry(event, subject_type, str(subject_id), payload, actor)
    return ledger_append_many(entries=[pending])[0]
