"""Vouching for the decisions recorded before the ledger vouched for them (migration 0031).

Every decision the application recorded has its `decision.recorded` entry, whose payload,
protected by the chain, holds the answer, the question and the times. So the backfill
does not take the rows on trust: each decision is vouched for with the digest of what its
entry recorded, the row's own value standing in only where the entry recorded nothing
(what the table showed, `shown`; the limit and lateness in entries older than them). A row
that already differs from its entry is therefore vouched for as the ledger recorded it,
and verification names it from then on; a row no entry recorded is left without a voucher,
and verification names it as inserted outside the application.

One `vouched.backfilled` entry per sitting (not per decision: a house holds millions), the
rows read in batches in the sitting's order, so memory stays flat and the ledger grows by
one entry per sitting.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.dateparse import parse_datetime

from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.append import PendingEntry, ledger_append_many, ledger_hold
from ledger.services.vouch import VOUCHES, row_digest
from ledger.services.vouch_check import BACKFILL_CHUNK
from trainer.services.vouched import DECISION_FIELDS, DECISIONS

# Decisions read (and their entries looked up) at a time, and the most vouches held in
# entries not yet appended: a sitting holds hundreds, so entries alone would not bound it.
BATCH = 2000
HELD = 20_000
# The fields the payload recorded, under the same names (`item_id` is recorded as the
# sitting and the round, compared apart; `shown` is not recorded).
_RECORDED = (
    "question",
    "kind",
    "answer",
    "shown_at",
    "answered_at",
    "response_ms",
    "time_limit_ms",
    "late",
)
_TIMES = ("shown_at", "answered_at")


@dataclass
class DecisionsBackfilled:
    entries: int = 0
    vouched: int = 0
    # Decisions whose row no longer says what their entry recorded (vouched as recorded).
    differing: list[int] = field(default_factory=list)
    # Decisions no entry recorded (left without a voucher).
    unrecorded: list[int] = field(default_factory=list)


def decisions_vouch_backfill(*, manager: Any = None) -> DecisionsBackfilled:
    """Vouch for every decision not yet vouched for (see the module); `manager`: a
    migration's historical model's. The rows are read holding the ledger's head, as
    `vouch_backfill` reads them."""
    objects = manager if manager is not None else DECISIONS.model._default_manager
    done = DecisionsBackfilled()
    with transaction.atomic():
        ledger_hold()
        pending: list[PendingEntry] = []
        held = 0
        for attempt_id, vouches in _by_sitting(objects, done):
            pending.append(
                PendingEntry(
                    event=Event.VOUCHED_BACKFILLED,
                    subject_type=Subject.ATTEMPT,
                    subject_id=str(attempt_id),
                    payload={
                        "note": "answers recorded before the ledger vouched for them",
                        VOUCHES: vouches,
                    },
                )
            )
            held += len(vouches)
            if len(pending) == BACKFILL_CHUNK or held >= HELD:
                ledger_append_many(entries=pending)
                done.entries += len(pending)
                pending, held = [], 0
        ledger_append_many(entries=pending)
        done.entries += len(pending)
    return done


def _by_sitting(objects: Any, done: DecisionsBackfilled) -> Iterator[tuple[int, dict[str, str]]]:
    """(sitting, its decisions' vouches), sitting by sitting."""
    rows = (
        objects.order_by("item__attempt_id", "pk")
        .values_list("pk", "item__attempt_id", "item__position", *DECISION_FIELDS)
        .iterator(chunk_size=BATCH)
    )
    current: int | None = None
    vouches: dict[str, str] = {}
    for batch in _batches(rows):
        for attempt_id, key, digest in _vouched(objects, batch, done):
            if attempt_id != current and vouches:
                yield current, vouches  # type: ignore[misc]
                vouches = {}
            current = attempt_id
            vouches[key] = digest
    if vouches:
        yield current, vouches  # type: ignore[misc]


def _batches(rows: Iterator[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _vouched(
    objects: Any, batch: Sequence[tuple[Any, ...]], done: DecisionsBackfilled
) -> Iterator[tuple[int, str, str]]:
    """(sitting, key, digest) of each decision of `batch` that needs a voucher."""
    recorded: dict[str, dict[str, Any]] = {}
    vouched: set[str] = set()
    entries = LedgerEntry.objects.filter(
        subject_type=Subject.DECISION, subject_id__in=[str(row[0]) for row in batch]
    ).values_list("subject_id", "event", "payload")
    for subject_id, event, payload in entries:
        if not isinstance(payload, dict):
            continue
        if isinstance(payload.get(VOUCHES), dict):
            vouched.add(subject_id)
        if event == Event.DECISION_RECORDED:
            recorded[subject_id] = payload
    for pk, attempt_id, position, *values in batch:
        if str(pk) in vouched:
            continue  # recorded with its voucher already
        payload = recorded.get(str(pk))
        if payload is None:
            done.unrecorded.append(pk)
            continue
        row = dict(zip(DECISION_FIELDS, values, strict=True))
        as_recorded = _as_recorded(objects, row, payload, attempt_id, position)
        if as_recorded != values:
            done.differing.append(pk)
        done.vouched += 1
        yield attempt_id, DECISIONS.key(pk), row_digest(as_recorded)


def _as_recorded(
    objects: Any, row: dict[str, Any], payload: dict[str, Any], attempt_id: int, position: int
) -> list[Any]:
    """The row's fields as its entry recorded them (the row's own where it recorded none)."""
    out = dict(row)
    for name in _RECORDED:
        if name not in payload:
            continue
        if name in _TIMES:
            # The entry holds the time to the millisecond (as the ledger writes times).
            when = parse_datetime(payload[name]) if isinstance(payload[name], str) else None
            if when is None or _to_ms(row[name]) != when:
                out[name] = when if when is not None else payload[name]
        elif _json(row[name]) != _json(payload[name]):
            out[name] = payload[name]
    if (payload.get("attempt"), payload.get("round")) != (attempt_id, position):
        # Moved to another round: vouched for as the round the entry recorded.
        item_model = objects.model._meta.get_field("item").related_model
        out["item_id"] = (
            item_model._default_manager.filter(
                attempt_id=payload.get("attempt"), position=payload.get("round")
            )
            .values_list("pk", flat=True)
            .first()
        )
    return [out[name] for name in DECISION_FIELDS]


def _to_ms(value: Any) -> Any:
    return value.replace(microsecond=value.microsecond // 1000 * 1000) if value else value


def _json(value: Any) -> str:
    """A value as the ledger's payload holds it, to compare the two."""
    return json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True)
