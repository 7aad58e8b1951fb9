"""Verifying the tamper-evident ledger against its head and its anchors."""

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from ledger.chain import Anchor, ChainBreak, verify_chain
from ledger.models import LedgerEntry, LedgerHead, entry_content, recorded_at_sql
from ledger.services.anchors import checkpoint_anchors, checkpoint_file_problems, file_anchors
from ledger.services.vouch_check import collecting, records_verify
from ledger.services.vouch_store import SeenVouches

# Where anchors come from besides the ledger's own: a function returning the anchors it
# found and the problems (untrusted or unplaceable anchors) it met. The compliance reports
# are one (audit registers audit.services.anchors.report_anchors when the app is ready), so
# the ledger checks them without importing the app that keeps them.
AnchorSource = Callable[[], tuple[list[Anchor], list[str]]]
_anchor_sources: list[AnchorSource] = []


def anchor_source_register(source: AnchorSource) -> None:
    """Have every verification check the anchors `source` returns (once, however often)."""
    if source not in _anchor_sources:
        _anchor_sources.append(source)


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
    # 0: every entry was recomputed, from the first. N: only the entries after entry N, the
    # head of the trusted checkpoint named by `verified_from_source`, which vouches for the
    # ones before it (docs/security.md says what that trusts).
    verified_from: int = 0
    verified_from_source: str = ""
    # The vouched rows compared with the ledger (ledger.services.vouch_check): how many
    # were, and which (every row, or those vouched since the checkpoint).
    rows_checked: int = 0
    rows_scope: str = ""
    # What is worth knowing but does not fail verification (in development only: an
    # emptied checkpoint file, say).
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.first_break is None and not self.problems

    @property
    def incremental(self) -> bool:
        return self.verified_from > 0

    @property
    def scope(self) -> str:
        """Which way the chain was verified, as a reader would say it."""
        if not self.incremental:
            return "every entry recomputed, from the first"
        return (
            f"the entries after entry {self.verified_from:,} recomputed; "
            f"{self.verified_from_source} vouches for the ones up to it"
        )


# The rows ledger_verify reads on PostgreSQL: `recorded_at` already as datetime.isoformat()
# gives it for the UTC instant (microseconds only when not zero) and the payload as its JSON
# text, so Python neither parses nor re-formats a timestamp per entry (half the CPU of a
# verification went there and to Django's per-row converters).
_VERIFY_SQL = (
    f"SELECT sequence, {recorded_at_sql('recorded_at')}, "  # noqa: S608 - our own table name, no input
    "event, actor_id, actor_name, subject_type, subject_id, payload::text, previous_hash, hash "
    f"FROM {LedgerEntry._meta.db_table} WHERE sequence > %s ORDER BY sequence"
)
VERIFY_CHUNK = 10_000


def _entries_postgresql(after: int) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    loads = json.loads
    with connection.chunked_cursor() as cursor:
        cursor.execute(_VERIFY_SQL, [after])
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


def ledger_verify(*, anchors_file: Path | None = None, full: bool = False) -> LedgerVerification:
    """Recompute the chain from the stored rows, in constant memory, and check that it still
    holds its stored head and every anchor: the registered sources' (the heads the
    compliance reports state), the checkpoint file's (when there is one) and `anchors_file`'s.

    Incremental unless `full`: from the newest trusted checkpoint (its HMAC good, its head
    the hash the stored entry at its position has), only the entries after it are
    recomputed; the anchors before it are checked against the stored hashes at their
    positions. Any doubt (no such checkpoint, a checkpoint or an anchor the stored entries
    do not match) and the whole chain is walked instead, which names the break.

    On PostgreSQL everything is read from one snapshot (a REPEATABLE READ transaction,
    unless the caller's transaction is open already): a run graded while the chain is
    walked would otherwise be read finished, its vouching entry past the head read first,
    and reported as changed behind the application. Read-only, so it never waits on a
    writer nor makes one wait. (SQLite's transactions here take the write lock at once:
    there it reads as before, and a verification run while grading goes on may report a
    run graded meanwhile; run it again.)
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return _verify(anchors_file=anchors_file, full=full)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return _verify(anchors_file=anchors_file, full=full)


def _verify(*, anchors_file: Path | None, full: bool) -> LedgerVerification:
    # Read before the walk: every entry it counts is committed, so the walk sees them all.
    head = _stored_head()
    anchors: list[Anchor] = []
    problems: list[str] = []
    checkpoints, checkpoint_problems = checkpoint_anchors()
    for more, more_problems in (
        *(source() for source in _anchor_sources),
        (checkpoints, checkpoint_problems),
        file_anchors(anchors_file) if anchors_file is not None else ([], []),
    ):
        anchors += more
        problems += more_problems
    if head is not None:
        anchors.append(Anchor(head[0], head[1], "its head"))
    # An emptied, shrunk or missing checkpoint file: fails production, warns elsewhere.
    file_problems = checkpoint_file_problems()
    strict = bool(getattr(settings, "SHOESCHOOL_LEDGER_ANCHOR_STRICT", False))
    warnings: list[str] = [] if strict else file_problems
    if strict:
        problems += file_problems
    start = None if full else _trusted_start(checkpoints, anchors, head)
    records = None
    # The vouches the walk meets, on disk (one a decision: too many to hold in memory).
    with SeenVouches() as collected:
        if start is None:
            checked, head_hash, first_break = verify_chain(
                collecting(_entries(after=0), collected), anchors
            )
        else:
            checked, head_hash, first_break = verify_chain(
                collecting(_entries(after=start.sequence), collected),
                anchors,
                start=(start.sequence, start.hash),
            )
        if first_break is None:
            problems += _head_problems(checked)
            # Only vouches of entries whose chain holds count: past a break nothing is vouched.
            records = records_verify(collected=collected, full=start is None)
            problems += records.problems
    return LedgerVerification(
        checked,
        head_hash,
        first_break,
        len(anchors),
        tuple(problems),
        verified_from=0 if start is None else start.sequence,
        verified_from_source="" if start is None else start.source,
        rows_checked=0 if records is None else records.rows,
        rows_scope="" if records is None else records.scope,
        warnings=tuple(warnings),
    )


# Stored hashes are looked up this many positions a query.
_LOOKUP_CHUNK = 1000


def _trusted_start(
    checkpoints: list[Anchor], anchors: list[Anchor], head: tuple[int, str] | None
) -> Anchor | None:
    """The newest signed checkpoint that the stored entries still agree with, if every anchor
    before it agrees too; None when the whole chain must be walked."""
    if not checkpoints or head is None:
        return None
    newest = max(checkpoints, key=lambda anchor: anchor.sequence)
    if newest.sequence == 0 or newest.sequence > head[0]:
        # Past the stored head: entries were cut and the head set back; the walk says so.
        return None
    before = [anchor for anchor in anchors if anchor.sequence <= newest.sequence]
    positions = sorted({anchor.sequence for anchor in before if anchor.sequence > 0})
    stored: dict[int, str] = {}
    for index in range(0, len(positions), _LOOKUP_CHUNK):
        stored.update(
            LedgerEntry.objects.filter(
                sequence__in=positions[index : index + _LOOKUP_CHUNK]
            ).values_list("sequence", "hash")
        )
    if any(anchor.sequence > 0 and stored.get(anchor.sequence) != anchor.hash for anchor in before):
        return None
    return newest


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


def _entries(*, after: int) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    """The entries after entry `after` (0: all of them), in order, as verify_chain reads them."""
    if connection.vendor == "postgresql":
        return _entries_postgresql(after)
    # Plain tuples rather than model instances: a million entries verify in ~40% less CPU.
    rows = (
        LedgerEntry.objects.filter(sequence__gt=after)
        .order_by("sequence")
        .values_list(
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
