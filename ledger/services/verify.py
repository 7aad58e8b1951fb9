"""Appending to the tamper-evident ledger, and verifying it against its head and anchors."""

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from audit.chain import GENESIS_HASH, Anchor, ChainBreak, entry_hash, verify_chain
from audit.models import LedgerEntry, LedgerHead, entry_content
from audit.services.anchors import checkpoint_anchors, file_anchors, report_anchors


class Event:
    """The ledger's event names. Each says who acted on what."""

    SITTING_STARTED = "sitting.started"  # a trainee started a sitting of an assignment
    DECISION_RECORDED = "decision.recorded"  # a trainee answered a question of a round
    ATTEMPT_SUBMITTED = "attempt.submitted"  # a trainee submitted an attempt
    GRADES_RECORDED = "grades.recorded"  # the grading service graded (part of) a run
    RUN_FINISHED = "grading_run.finished"  # a grading run's score and pass/fail
    REVIEW_RECORDED = "review.recorded"  # a pit boss reviewed a mistake
    RETRAINING_FLAGGED = "retraining.flagged"  # a pit boss flagged a trainee for retraining
    CERTIFICATION_SIGNED = "certification.signed"  # a pit boss signed off a certification
    REPORT_EXPORTED = "report.exported"  # someone exported a compliance report
    TRAINING_RECORD_EXPORTED = "training_record.exported"  # someone downloaded a training record
    PROFILE_VERSION_CREATED = "profile_version.created"  # a rule set was recorded


@dataclass(frozen=True)
class PendingEntry:
    event: str
    subject_type: str
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
    with transaction.atomic():
        head, _ = LedgerHead.objects.select_for_update().get_or_create(
            id=1, defaults={"sequence": 0, "hash": GENESIS_HASH}
        )
        now = timezone.now()
        rows: list[LedgerEntry] = []
        previous_hash, sequence = head.hash, head.sequence
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
        if rows:
            _insert(rows)
            LedgerHead.objects.filter(id=1).update(sequence=sequence, hash=previous_hash)
        return rows


def _insert(rows: list[LedgerEntry]) -> None:
    """bulk_create, but COPY on PostgreSQL.

    Django 5.2 sends a PostgreSQL bulk insert as UNNEST of one array per column, and the
    client-side parameter binding quotes the jsonb[] array of payloads in Python,
    character by character. COPY writes the same rows; the ids are taken from the
    table's sequence first, so the rows come back with their pk as bulk_create's do.
    """
    if connection.vendor != "postgresql" or len(rows) < 2:
        LedgerEntry.objects.bulk_create(rows, batch_size=1000)
        return
    meta = LedgerEntry._meta
    fields = [f for f in meta.concrete_fields if f.column]
    pk = meta.pk
    assert pk is not None
    columns = ", ".join(connection.ops.quote_name(str(f.column)) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, pk.column, len(rows)],
        )
        for row, (pk_value,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = pk_value
        raw = cursor.cursor
        with raw.copy(f"COPY {meta.db_table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(
                    [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
                )
    for row in rows:
        row._state.adding = False
        row._state.db = connection.alias


def ledger_append(
    *,
    event: str,
    subject_type: str,
    subject_id: object,
    payload: Mapping[str, Any],
    actor: AbstractBaseUser | None = None,
) -> LedgerEntry:
    """Append one entry recording a change, in the same transaction as the change."""
    pending = PendingEntry(event, subject_type, str(subject_id), payload, actor)
    return ledger_append_many(entries=[pending])[0]


@dataclass(frozen=True)
class LedgerVerification:
    """What verification found: how many entries hold and the hash of the last of them.

    `first_break` is the first entry that does not hold (changed, missing, or cut from the
    end, as the stored head or an anchor shows); `problems` are what else makes the
    ledger untrustworthy: an anchor that cannot be trusted (a checkpoint line with a bad
    HMAC), or a stored head that does not fit the entries.
    """

    entries: int
    head_hash: str
    first_break: ChainBreak | None
    anchors: int = 0
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.first_break is None and not self.problems


# The rows ledger_verify reads on PostgreSQL: `recorded_at` already as datetime.isoformat()
# gives it for the UTC instant (microseconds only when not zero) and the payload as its JSON
# text, so Python neither parses nor re-formats a timestamp per entry (half the CPU of a
# verification went there and to Django's per-row converters).
_RECORDED_AT = "(recorded_at AT TIME ZONE 'UTC')"
_VERIFY_SQL = (
    "SELECT sequence, "  # noqa: S608 - our own table name, no input
    f"to_char({_RECORDED_AT}, 'YYYY-MM-DD\"T\"HH24:MI:SS') || "
    f"CASE WHEN mod(date_part('microseconds', {_RECORDED_AT})::bigint, 1000000) = 0 "
    f"THEN '' ELSE to_char({_RECORDED_AT}, '.US') END || '+00:00', "
    "event, actor_id, actor_name, subject_type, subject_id, payload::text, previous_hash, hash "
    f"FROM {LedgerEntry._meta.db_table} ORDER BY sequence"
)
VERIFY_CHUNK = 10_000


def _entries_postgresql() -> Iterator[tuple[int, dict[str, Any], str, str]]:
    loads = json.loads
    with connection.chunked_cursor() as cursor:
        cursor.execute(_VERIFY_SQL)
        while rows := cursor.fetchmany(VERIFY_CHUNK):
            for (
                sequence,
                recorded_at,
                event,
                actor_id,
                actor_name,
                subject_type,
                subject_id,
                payload,
                previous_hash,
                stored_hash,
            ) in rows:
                # The keys and values of entry_content, without its call.
                yield (
                    sequence,
                    {
                        "sequence": sequence,
                        "recorded_at": recorded_at,
                        "event": event,
                        "actor_id": actor_id,
                        "actor_name": actor_name,
                        "subject_type": subject_type,
                        "subject_id": subject_id,
                        "payload": loads(payload),
                    },
                    previous_hash,
                    stored_hash,
                )


def _stored_head() -> tuple[int, str] | None:
    return LedgerHead.objects.filter(id=1).values_list("sequence", "hash").first()


def ledger_verify(*, anchors_file: Path | None = None) -> LedgerVerification:
    """Recompute the whole chain from the stored rows, in constant memory, and check that it
    still holds its stored head and every anchor: the heads the compliance reports state,
    the checkpoint file's (when there is one) and `anchors_file`'s.
    """
    # Read before the walk: every entry it counts is committed, so the walk sees them all.
    head = _stored_head()
    anchors, problems = report_anchors()
    for more, more_problems in (
        checkpoint_anchors(),
        file_anchors(anchors_file) if anchors_file is not None else ([], []),
    ):
        anchors += more
        problems += more_problems
    if head is not None:
        anchors.append(Anchor(head[0], head[1], "its head"))
    checked, head_hash, first_break = verify_chain(_entries(), anchors)
    if first_break is None:
        problems += _head_problems(checked)
    return LedgerVerification(checked, head_hash, first_break, len(anchors), tuple(problems))


def _head_problems(checked: int) -> list[str]:
    # Read after the walk: an append committed meanwhile has moved the head past it too.
    head = _stored_head()
    if head is None:
        if checked:
            return [
                f"the ledger holds {checked:,} entries but its head is missing: "
                "it was deleted outside the application"
            ]
        return []
    if head[0] < checked:
        return [
            f"the ledger holds {checked:,} entries but its head says {head[0]:,}: "
            "it was set back, or entries were added outside the application"
        ]
    return []


def _entries() -> Iterator[tuple[int, dict[str, Any], str, str]]:
    if connection.vendor == "postgresql":
        return _entries_postgresql()
    # Plain tuples rather than model instances: a million entries verify in ~40% less CPU.
    rows = LedgerEntry.objects.order_by("sequence").values_list(
        "sequence",
        "recorded_at",
        "event",
        "actor_id",
        "actor_name",
        "subject_type",
        "subject_id",
        "payload",
        "previous_hash",
        "hash",
    )
    return (
        (
            sequence,
            entry_content(
                sequence=sequence,
                recorded_at=recorded_at,
                event=event,
                actor_id=actor_id,
                actor_name=actor_name,
                subject_type=subject_type,
                subject_id=subject_id,
                payload=payload,
            ),
            previous_hash,
            stored_hash,
        )
        for (
            sequence,
            recorded_at,
            event,
            actor_id,
            actor_name,
            subject_type,
            subject_id,
            payload,
            previous_hash,
            stored_hash,
        ) in rows.iterator(chunk_size=5000)
    )
