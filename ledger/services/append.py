"""Appending to the tamper-evident ledger, in the transaction of the change it records."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from core.postgres import copy_instances, reserve_ids
from core.rows import fetch_one, insert, lock_clause, table
from ledger.chain import GENESIS_HASH, canonical_json_around_stamp, entry_hash
from ledger.events import Event, Subject
from ledger.models import LedgerEntry, LedgerHead, entry_content, recorded_at_sql


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
    entries = list(entries)
    # No savepoint: an append that fails fails the change it records with it, and every
    # change appends, so a savepoint would only add two round trips to each.
    with transaction.atomic(savepoint=False):
        if len(entries) == 1 and connection.vendor == "postgresql":
            appended = _append_one_postgresql(entries[0])
            if appended is not None:
                return [appended]
        sequence, previous_hash, now = _locked_head()
        rows: list[LedgerEntry] = []
        for pending in entries:
            sequence += 1
            row = _unstamped(pending)
            row.sequence, row.recorded_at, row.previous_hash = sequence, now, previous_hash
            row.hash = entry_hash(previous_hash, row.content())
            previous_hash = row.hash
            rows.append(row)
        moved: tuple[str, list[Any]] = (_HEAD_MOVE_SQL, [sequence, previous_hash])
        if len(rows) == 1:
            # One entry where the statement above is not used (SQLite; PostgreSQL's first
            # append, which makes the head): the entry and the head's move (core.rows).
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


# An answer's or a submit's entry in one statement, the head locked, the entry written with
# its hash, and the head moved: whoever waits for the head waits for PostgreSQL alone, not for
# the holder's next turn on a core between a read and a write. The hash is SHA-256 over the
# same bytes as ledger.chain.entry_hash: the canonical JSON comes from Python in two parts,
# around the sequence and recorded_at that only the holder of the head knows. Every parameter
# is cast: an INSERT … SELECT types none by its column, were psycopg to bind on the server.
_ENTRY = table(LedgerEntry)
_APPEND_ONE_SQL = (
    f"WITH head AS (SELECT sequence, hash FROM {_HEAD} WHERE id = 1 FOR UPDATE), "  # noqa: S608
    "stamp AS MATERIALIZED (SELECT sequence + 1 AS sequence, hash AS previous_hash, "
    "clock_timestamp() AS at FROM head), "
    f"inserted AS (INSERT INTO {_ENTRY} (sequence, recorded_at, event, actor_id, actor_name, "
    "subject_type, subject_id, payload, previous_hash, hash) "
    "SELECT sequence, at, %s::text, %s::bigint, %s::text, %s::text, %s::text, %s::jsonb, "
    "previous_hash, "
    "encode(sha256(convert_to(previous_hash || E'\\n' || %s::text || "
    f'{recorded_at_sql("at")} || \'","sequence":\' || sequence::text || %s::text, '
    "'UTF8')), 'hex') "
    "FROM stamp RETURNING id, sequence, recorded_at, previous_hash, hash) "
    f"UPDATE {_HEAD} SET sequence = inserted.sequence, hash = inserted.hash FROM inserted "
    f"WHERE {_HEAD}.id = 1 "
    "RETURNING inserted.id, inserted.sequence, inserted.recorded_at, inserted.previous_hash, "
    "inserted.hash"
)
_STAMP_PLACEHOLDER = datetime(1970, 1, 1, tzinfo=UTC)


def _append_one_postgresql(pending: PendingEntry) -> LedgerEntry | None:
    """The entry appended in one statement, or None when there is no head yet (nothing written)."""
    row = _unstamped(pending)
    # Both set by the statement; entry_content says what else the hash covers.
    content = entry_content(
        sequence=0,
        recorded_at=_STAMP_PLACEHOLDER,
        event=row.event,
        actor_id=row.actor_id,
        actor_name=row.actor_name,
        subject_type=row.subject_type,
        subject_id=row.subject_id,
        payload=row.payload,
    )
    del content["recorded_at"], content["sequence"]
    before, after = canonical_json_around_stamp(content)
    params = [
        row.event,
        row.actor_id,
        row.actor_name,
        row.subject_type,
        row.subject_id,
        json.dumps(row.payload),
        before,
        after,
    ]
    appended = fetch_one(_APPEND_ONE_SQL, params)
    if appended is None:
        return None
    row.pk, row.sequence, row.recorded_at, row.previous_hash, row.hash = appended
    row._state.adding = False
    row._state.db = connection.alias
    return row


def _unstamped(pending: PendingEntry) -> LedgerEntry:
    """The entry without its place in the chain: sequence, time and hashes."""
    actor = pending.actor
    return LedgerEntry(
        event=pending.event,
        actor_id=getattr(actor, "pk", None),
        actor_name=actor.get_username() if actor is not None else "",
        subject_type=pending.subject_type,
        subject_id=str(pending.subject_id),
        payload=_plain(pending.payload),
    )


def ledger_hold() -> None:
    """Lock the chain's head for the rest of the caller's transaction (one must be open):
    a change that appends commits before this returns, or appends after the caller."""
    _locked_head()


def _locked_head() -> tuple[int, str, datetime]:
    """The chain's length and last hash, the head's row locked until the transaction ends
    (made on the first append: a new database has none), and the time now, read once the
    lock is held: on PostgreSQL by the database's clock, as the one-statement append reads
    it, so an entry's time never goes back as the sequence goes up, whatever the host."""
    if connection.vendor == "postgresql":
        row = fetch_one(_LOCKED_HEAD_SQL, [])
    else:
        row = fetch_one(f"SELECT sequence, hash FROM {_HEAD} WHERE id = 1{lock_clause()}", [])  # noqa: S608
    if row is None:
        head, _ = LedgerHead.objects.select_for_update().get_or_create(
            id=1, defaults={"sequence": 0, "hash": GENESIS_HASH}
        )
        return head.sequence, head.hash, timezone.now()
    return int(row[0]), str(row[1]), row[2] if len(row) > 2 else timezone.now()


# The clock read after the lock is granted: in the row lock's own SELECT it may be read
# before the wait.
_LOCKED_HEAD_SQL = (
    f"WITH head AS (SELECT sequence, hash FROM {_HEAD} WHERE id = 1 FOR UPDATE) "  # noqa: S608
    "SELECT sequence, hash, clock_timestamp() FROM head"
)


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
