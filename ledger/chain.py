"""The hash chain behind the tamper-evident ledger: plain Python, no Django.

Each entry's hash is SHA-256 over the previous entry's hash and the entry's canonical
JSON (sorted keys, no spaces, UTF-8), so changing, removing or reordering any entry
changes every hash after it. Entries cut from the end, or a chain rewritten with every
hash recomputed, leave a chain that holds: anchors, heads recorded elsewhere, catch those.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GENESIS_HASH = "0" * 64


# One encoder for every entry: json.dumps with these options would build a new one per call,
# which costs about as much as encoding a small entry. Same output as
# json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).
_encode = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode


def canonical_json(data: Mapping[str, Any]) -> bytes:
    """The one byte string an entry's content hashes to: sorted keys, no spaces, UTF-8."""
    return _encode(data).encode()


def entry_hash(previous_hash: str, content: Mapping[str, Any]) -> str:
    """SHA-256 over the previous hash (ASCII), a newline, and the content's canonical JSON."""
    return hashlib.sha256(
        previous_hash.encode("ascii") + b"\n" + _encode(content).encode()
    ).hexdigest()


def canonical_json_around_stamp(content: Mapping[str, Any]) -> tuple[str, str]:
    """An entry's canonical JSON without its `recorded_at` and `sequence`, as the text before
    and after them, for a writer that learns both only once it holds the chain's head::

        before + recorded_at + '","sequence":' + str(sequence) + after

    is the canonical JSON of the content with them (`recorded_at` an ISO text, which needs
    no escaping). `content` must not hold either key.
    """
    if "recorded_at" in content or "sequence" in content:
        raise ValueError("the content given already has its recorded_at or sequence")
    # sort_keys orders by Python's str comparison: recorded_at and sequence sort next to
    # each other unless a key falls between them.
    early = {key: value for key, value in content.items() if key < "recorded_at"}
    late = {key: value for key, value in content.items() if key > "sequence"}
    if len(early) + len(late) != len(content):
        raise ValueError("a key of the content sorts between recorded_at and sequence")
    before = (_encode(early)[:-1] + "," if early else "{") + '"recorded_at":"'
    after = "," + _encode(late)[1:] if late else "}"
    return before, after


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first entry whose stored hashes do not match what its content gives, or the
    first entry that an anchor says should be there and is not."""

    sequence: int
    reason: str


@dataclass(frozen=True, slots=True)
class Anchor:
    """A head recorded somewhere else: the chain must still have this hash at this entry.

    A chain rewritten from its genesis, or cut short with its stored head set back, holds
    together again; only a hash kept outside the table shows that it is not the chain it
    was. `source` names where the anchor was recorded, as a reader would say it ("its
    head", "the checkpoint of 2026-03-10 12:00 UTC").
    """

    sequence: int
    hash: str
    source: str


def _count(n: int) -> str:
    return f"{n:,} {'entry' if n == 1 else 'entries'}"


def verify_chain(
    entries: Iterable[tuple[int, Mapping[str, Any], str, str]],
    anchors: Iterable[Anchor] = (),
    *,
    start: tuple[int, str] = (0, GENESIS_HASH),
) -> tuple[int, str, ChainBreak | None]:
    """Walk (sequence, content, previous_hash, hash) in order, checking every anchor on the way.

    Returns how many entries hold, the hash of the last of them, and the first break (or
    None). An anchor whose entry has another hash puts the break there, and only the
    entries up to the last anchor that matched are said to hold: the rewrite may have
    started anywhere after it. An anchor past the last entry means entries were removed.

    `start` is the entry the walk takes as holding without reading it, and its hash (a
    trusted checkpoint's): the entries given are the ones after it, and the count returned
    still counts from the genesis. Anchors at or before it are the caller's to check.
    """
    by_sequence: dict[int, list[Anchor]] = {}
    for anchor in anchors:
        if anchor.sequence > start[0]:
            by_sequence.setdefault(anchor.sequence, []).append(anchor)
    vouched_sequence, vouched_hash = start
    expected_previous = start[1]
    expected_sequence = start[0] + 1
    checked = start[0]
    for sequence, content, previous_hash, stored_hash in entries:
        if sequence != expected_sequence:
            return (
                checked,
                expected_previous,
                ChainBreak(
                    sequence, f"expected entry {expected_sequence} here: an entry is missing"
                ),
            )
        if previous_hash != expected_previous:
            return (
                checked,
                expected_previous,
                ChainBreak(sequence, "its previous-hash does not match the entry before it"),
            )
        if entry_hash(previous_hash, content) != stored_hash:
            return (
                checked,
                expected_previous,
                ChainBreak(sequence, "its content does not match its hash (the entry was changed)"),
            )
        if sequence in by_sequence:
            for anchor in by_sequence[sequence]:
                if anchor.hash != stored_hash:
                    where = (
                        f"at entry {sequence:,}"
                        if vouched_sequence + 1 == sequence
                        else f"between entries {vouched_sequence + 1:,} and {sequence:,}"
                    )
                    return (
                        vouched_sequence,
                        vouched_hash,
                        ChainBreak(
                            sequence,
                            f"its hash is not the one {anchor.source} records: "
                            f"the ledger was rewritten {where}",
                        ),
                    )
            vouched_sequence, vouched_hash = sequence, stored_hash
        expected_previous = stored_hash
        expected_sequence += 1
        checked += 1
    beyond = [
        anchor for sequence, group in by_sequence.items() if sequence > checked for anchor in group
    ]
    if beyond:
        anchor = max(beyond, key=lambda a: a.sequence)
        ends = f"ends at entry {checked:,}" if checked else "is empty"
        return (
            checked,
            expected_previous,
            ChainBreak(
                checked + 1,
                f"the ledger {ends} but {anchor.source} says {_count(anchor.sequence)}: "
                "entries were removed",
            ),
        )
    return checked, expected_previous, None
