"""The ledger's checkpoint lines and anchor files: plain Python, no Django.

A checkpoint line records the ledger's head (its entry count and head hash) at a moment,
signed with HMAC-SHA256 so that whoever can write the file but does not hold the key
cannot add a believable line:

    {"at":"2026-03-10T12:00:00+00:00","entries":1000,"head_hash":"…","hmac":"…","n":12}

The HMAC is over the canonical JSON (ledger.chain.canonical_json) of the line without its
"hmac" key. "n" is the line's number in the file (the database keeps the count too, so a
file emptied or cut short is noticed); lines written before it existed have none.

An anchors file given to verify_audit_log holds one anchor a line: either
such a checkpoint line, or the entry count and head hash a report states, separated by
a space (`1000 9f86d0…`). Blank lines and lines starting with # are skipped.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ledger.chain import Anchor, canonical_json

_HASH = re.compile(r"[0-9a-f]{64}")
_PLAIN = re.compile(r"(\d+)\s+([0-9a-f]{64})")


@dataclass(frozen=True, slots=True)
class Checkpoint:
    at: dt.datetime
    entries: int
    head_hash: str
    # The line's number in the file (1 for the first line written); None on older lines.
    number: int | None = None

    def source(self) -> str:
        return f"the checkpoint of {self.at.astimezone(dt.UTC):%Y-%m-%d %H:%M:%S} UTC"


def _signature(
    key: bytes, *, at: str, entries: int, head_hash: str, number: int | None = None
) -> str:
    fields: dict[str, object] = {"at": at, "entries": entries, "head_hash": head_hash}
    if number is not None:
        fields["n"] = number
    return hmac.new(key, canonical_json(fields), hashlib.sha256).hexdigest()


def checkpoint_line(checkpoint: Checkpoint, *, key: bytes) -> str:
    """The checkpoint as one signed JSON line, with its newline."""
    at = checkpoint.at.astimezone(dt.UTC).isoformat(timespec="seconds")
    fields: dict[str, object] = {
        "at": at,
        "entries": checkpoint.entries,
        "head_hash": checkpoint.head_hash,
    }
    if checkpoint.number is not None:
        fields["n"] = checkpoint.number
    signature = _signature(
        key,
        at=at,
        entries=checkpoint.entries,
        head_hash=checkpoint.head_hash,
        number=checkpoint.number,
    )
    return canonical_json({**fields, "hmac": signature}).decode() + "\n"


class LineError(ValueError):
    """A line that is not a trustworthy anchor; the message says why."""


def parse_checkpoint(line: str, *, key: bytes) -> Checkpoint:
    """A signed checkpoint line read back; LineError when it cannot be trusted."""
    try:
        data = json.loads(line)
    except ValueError:
        raise LineError("it is not a checkpoint (JSON) line") from None
    if not isinstance(data, dict):
        raise LineError("it is not a checkpoint (JSON) line")
    at, entries, head_hash, signature = (
        data.get("at"),
        data.get("entries"),
        data.get("head_hash"),
        data.get("hmac"),
    )
    if (
        not isinstance(at, str)
        or not isinstance(entries, int)
        or isinstance(entries, bool)
        or entries < 0
        or not isinstance(head_hash, str)
        or not _HASH.fullmatch(head_hash)
    ):
        raise LineError("it lacks a time, an entry count or a head hash")
    if not isinstance(signature, str):
        raise LineError("it has no HMAC")
    number = data.get("n")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise LineError("its line number is not a whole number")
    expected = _signature(key, at=at, entries=entries, head_hash=head_hash, number=number)
    if not hmac.compare_digest(expected, signature):
        raise LineError(
            "its HMAC does not match: the line was forged or altered, or signed with another key"
        )
    try:
        when = dt.datetime.fromisoformat(at)
    except ValueError:
        raise LineError("its time is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise LineError("its time has no UTC offset")
    return Checkpoint(when, entries, head_hash, number)


def read_anchors(
    lines: Iterable[str], *, key: bytes, name: str, plain: bool
) -> tuple[list[Anchor], list[str]]:
    """The anchors in a file's lines, and a problem for each line that cannot be trusted.

    `name` is how the problems name the file ("the checkpoint file"); `plain` accepts
    "SEQUENCE HASH" lines too (an anchors file), which carry no signature: whoever gives
    them vouches for them.
    """
    anchors: list[Anchor] = []
    problems: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if plain and (match := _PLAIN.fullmatch(line)):
            anchors.append(Anchor(int(match[1]), match[2], f"line {number} of {name}"))
            continue
        if plain and not line.startswith("{"):
            problems.append(
                f"line {number} of {name}: it is neither an entry count and a 64-character "
                "head hash nor a checkpoint line"
            )
            continue
        try:
            checkpoint = parse_checkpoint(line, key=key)
        except LineError as error:
            problems.append(f"line {number} of {name}: {error}")
            continue
        anchors.append(Anchor(checkpoint.entries, checkpoint.head_hash, checkpoint.source()))
    return anchors, problems
