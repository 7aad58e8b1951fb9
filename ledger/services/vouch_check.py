"""Checking the vouched rows against the ledger (ledger.services.vouch says what they are).

- `records_verify`: what verify_audit_log and the compliance reports run after the chain
  walk, with the vouches the walk met (so only vouches of entries whose chain holds count).
  Full: every row of every vouched table. Incremental: the rows vouched by the entries the
  walk recomputed (those after the checkpoint), and the small tables whole.
- `vouch_problems`: the check of a few rows, for a sign-off (through the ledger's subject
  index, without a walk).
- `vouch_backfill`: the entries that vouch for rows written before vouching existed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.db import models, transaction

from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.append import PendingEntry, ledger_append_many, ledger_hold
from ledger.services.vouch import (
    EMPTY_GROUP,
    VOUCHES,
    Vouched,
    digests,
    vouched_models,
    vouched_spec,
)
from ledger.services.vouch_store import Expected, HeldVouches, SeenVouches, Vouch

# A few vouches read through the subject index: a key's digest and the entry that vouched
# for it last.
Collected = dict[str, Vouch]

# Problems listed one by one; past this many, a count.
MAX_LISTED = 50
# Rows compared with their vouches a batch.
_BATCH = 500


def collecting(
    entries: Iterator[tuple[int, dict[str, Any], str, str]], into: SeenVouches
) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    """The walk's entries, passed on as they are, their vouches noted in `into`."""
    for entry in entries:
        payload = entry[1]["payload"]
        if isinstance(payload, dict):
            vouches = payload.get(VOUCHES)
            if isinstance(vouches, dict):
                sequence = entry[0]
                for key, digest in vouches.items():
                    into.note(key, digest, sequence)
        yield entry


@dataclass(frozen=True)
class RecordsCheck:
    rows: int
    problems: tuple[str, ...]
    scope: str


def _compare(
    spec: Vouched, found: Iterable[tuple[str, str, bool]], expected: Expected
) -> Iterator[str]:
    """Each row edited or inserted behind the services; the keys seen are taken from
    `expected`, so what is left was vouched for and is gone."""
    rows = iter(found)
    while batch := list(islice(rows, _BATCH)):
        vouches = expected.take([spec.key(value) for value, _, _ in batch])
        for value, digest, needed in batch:
            vouched = vouches.get(spec.key(value))
            if vouched is None:
                if needed:
                    yield (
                        f"{spec.describe(value)}: no ledger entry vouches for it: it was "
                        "inserted or changed outside the application"
                    )
            elif vouched[0] != digest:
                yield (
                    f"{spec.describe(value)}: it does not match what ledger entry "
                    f"{vouched[1]:,} recorded: it was changed outside the application"
                )


def _gone(spec: Vouched, expected: Expected) -> Iterator[str]:
    prefix = f"{spec.table}:"
    for key, (digest, sequence) in expected.left():
        if spec.group is not None and digest == EMPTY_GROUP:
            continue
        yield (
            f"{spec.describe(key[len(prefix) :])}: ledger entry {sequence:,} vouches for it "
            "but the database no longer has it: it was deleted outside the application"
        )


def _check(spec: Vouched, expected: Expected, keys: Sequence[str] | None) -> Iterator[str]:
    yield from _compare(spec, digests(spec, keys=keys), expected)
    yield from _gone(spec, expected)


def _all_vouches(spec: Vouched) -> Collected:
    """Every vouch of `spec`'s table, from the entries about its subject type (the index)."""
    prefix = f"{spec.table}:"
    found: Collected = {}
    rows = (
        LedgerEntry.objects.filter(subject_type=spec.subject_type)
        .order_by("sequence")
        .values_list("sequence", "payload")
    )
    for sequence, payload in rows.iterator(chunk_size=2000):
        vouches = payload.get(VOUCHES) if isinstance(payload, dict) else None
        if isinstance(vouches, dict):
            for key, digest in vouches.items():
                if key.startswith(prefix):
                    found[key] = (digest, sequence)
    return found


def records_verify(*, collected: SeenVouches, full: bool) -> RecordsCheck:
    """Compare the vouched tables with the vouches the walk collected (see the module)."""
    listed: list[str] = []
    unlisted = 0
    rows = 0
    for spec in vouched_models():
        seen = collected.table(spec.table)
        expected: Expected = seen
        keys: list[str] | None = None
        if not full and spec.small:
            expected = HeldVouches(_all_vouches(spec))
        elif not full:
            keys = list(seen.keys())
            if not keys:
                continue
        rows += len(expected)
        # Counted past the first few, not kept: a table emptied behind the application
        # would otherwise be millions of sentences in memory.
        for problem in _check(spec, expected, keys):
            if len(listed) < MAX_LISTED:
                listed.append(problem)
            else:
                unlisted += 1
    if unlisted:
        listed.append(f"and {unlisted:,} more rows that do not match the ledger")
    if full:
        scope = "every one of the " + _words([spec.plural for spec in vouched_models()])
    else:
        small = [spec.plural for spec in vouched_models() if spec.small]
        scope = (
            "the rows vouched for since the checkpoint"
            + (f", and every one of the {_words(small)}" if small else "")
            + "; a row changed, inserted or deleted behind the application before the "
            "checkpoint is found by the full verification"
        )
    return RecordsCheck(rows, tuple(listed), scope)


def _words(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def vouch_problems(model: type[models.Model], keys: Iterable[object]) -> list[str]:
    """What does not match the ledger among these rows (or groups) of `model`."""
    spec = vouched_spec(model)
    wanted = sorted({str(key) for key in keys})
    if not wanted:
        return []
    wanted_set = set(wanted)
    prefix = f"{spec.table}:"
    expected: Collected = {}
    for subject_type, subjects in _subjects_by_type(spec, wanted):
        for start in range(0, len(subjects), 1000):
            _expect(
                expected,
                LedgerEntry.objects.filter(
                    subject_type=subject_type, subject_id__in=subjects[start : start + 1000]
                ),
                prefix,
                wanted_set,
            )
    # The newest entry naming a key vouches for it, whichever subject it is about.
    return list(_check(spec, HeldVouches(expected), wanted))


def _subjects_by_type(spec: Vouched, wanted: Sequence[str]) -> list[tuple[Subject, list[str]]]:
    """The subjects whose entries may vouch for `wanted`, by subject type (a backfill's
    last, when it writes under another type; a row gone from the table has only its own)."""
    subjects = spec.subjects_of(wanted)
    if spec.backfill_subject is None:
        return [(spec.subject_type, sorted({s for ids in subjects.values() for s in ids}))]
    own = {key for key in wanted if key not in subjects}
    own.update(s for ids in subjects.values() for s in ids[:-1])
    return [
        (spec.subject_type, sorted(own)),
        (spec.backfill_subject, sorted({ids[-1] for ids in subjects.values() if len(ids) > 1})),
    ]


def _expect(expected: Collected, entries: Any, prefix: str, wanted: AbstractSet[str]) -> None:
    """Note in `expected` the vouches `entries` hold for `wanted`, the newer over the older."""
    for sequence, payload in entries.values_list("sequence", "payload"):
        vouches = payload.get(VOUCHES) if isinstance(payload, dict) else None
        if isinstance(vouches, dict):
            for key, digest in vouches.items():
                if key.startswith(prefix) and key[len(prefix) :] in wanted:
                    known = expected.get(key)
                    if known is None or known[1] < sequence:
                        expected[key] = (digest, sequence)


# Vouches a backfill entry carries at most.
BACKFILL_CHUNK = 2000


def vouch_backfill(*, specs: Sequence[tuple[Vouched, Any]]) -> int:
    """Vouch for the rows already in the tables (written before vouching existed): one
    `vouched.backfilled` entry per subject, holding the current digests of its rows, found
    as later entries are. `specs`: each spec with the manager to read through (a
    migration's historical model's). Returns the entries written.

    The rows are read holding the ledger's head: a change being written now (a grading
    that appends at its end) either commits before they are read, or appends after these
    entries, so its own later entry vouches for it. Read first, a row could be vouched as it
    was after a fresher entry had vouched for it as it is."""
    with transaction.atomic():
        ledger_hold()
        return _backfill(specs)


def _backfill(specs: Sequence[tuple[Vouched, Any]]) -> int:
    by_subject: dict[tuple[Subject, str], dict[str, str]] = {}
    for spec, manager in specs:
        found = [(value, digest) for value, digest, _ in digests(spec, manager=manager)]
        subjects = spec.subjects_of([value for value, _ in found])
        for value, digest in found:
            ids = subjects.get(value)
            if not ids:
                continue
            subject_type = spec.backfill_subject or spec.subject_type
            by_subject.setdefault((subject_type, ids[-1]), {})[spec.key(value)] = digest
    pending = [
        PendingEntry(
            event=Event.VOUCHED_BACKFILLED,
            subject_type=subject_type,
            subject_id=subject_id,
            payload={"note": "rows written before the ledger vouched for rows", VOUCHES: vouches},
        )
        for (subject_type, subject_id), vouches in sorted(by_subject.items())
    ]
    for start in range(0, len(pending), BACKFILL_CHUNK):
        ledger_append_many(entries=pending[start : start + BACKFILL_CHUNK])
    return len(pending)
