"""The hash chain behind the tamper-evident ledger: plain Python, no Django.

Each entry's hash is SHA-256 over the previous entry's hash and the entry's canonical
JSON (sorted keys, no spaces, UTF-8), so changing, removing or reordering any entry
changes every hash after it.
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


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first entry whose stored hashes do not match what its content gives."""

    sequence: int
    reason: str


def verify_chain(
    entries: Iterable[tuple[int, Mapping[str, Any], str, str]],
) -> tuple[int, str, ChainBreak | None]:
    """Walk (sequence, content, previous_hash, hash) in order.

    Returns how many entries were checked, the head hash, and the first break (or None).
    """
    expected_previous = GENESIS_HASH
    expected_sequence = 1
    checked = 0
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
        expected_previous = stored_hash
        expected_sequence += 1
        checked += 1
    return checked, expected_previous, None
