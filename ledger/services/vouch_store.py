"""The vouches a verification walk met, kept on disk so that its memory stays flat.

A full verification meets one vouch for each trainee decision besides the runs', the
attempts' and the audit rows': held in a dict, some 350 bytes each, 3.5 GB for ten million
decisions. `SeenVouches` keeps them in a private temporary SQLite database instead (a file
SQLite deletes when it is closed; only its page cache, a few MB, is in memory), the newest
vouch of each key winning as in the dict, and hands them back a chunk of keys at a time.

`HeldVouches` is the same interface over a dict: for the few vouches a sign-off or the
incremental verification's small tables read through the subject index.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Protocol

# A key's digest and the sequence of the entry that vouched for it last.
Vouch = tuple[str, int]

# Vouches written to SQLite in one statement; keys looked up (and removed) in one.
_FLUSH = 5000
_LOOKUP = 500


class Expected(Protocol):
    """The vouches of one table a check compares its rows with, by key."""

    def take(self, keys: Sequence[str]) -> dict[str, Vouch]:
        """The vouches of those keys that are here, removed from here."""

    def left(self) -> Iterator[tuple[str, Vouch]]:
        """The vouches not taken (rows vouched for and gone), by key."""

    def __len__(self) -> int: ...


def digest_text(digest: object) -> str:
    """A payload's digest as stored: a string as it is; anything else (a payload edited by
    hand) as text no hex digest equals."""
    if isinstance(digest, str):
        return digest
    return "not a digest: " + json.dumps(digest, default=str, sort_keys=True)


class HeldVouches:
    """Vouches in memory (a few: a sign-off's rows, the small tables)."""

    def __init__(self, vouches: dict[str, Vouch]) -> None:
        self._vouches = vouches

    def take(self, keys: Sequence[str]) -> dict[str, Vouch]:
        found: dict[str, Vouch] = {}
        for key in keys:
            vouch = self._vouches.pop(key, None)
            if vouch is not None:
                found[key] = vouch
        return found

    def left(self) -> Iterator[tuple[str, Vouch]]:
        yield from list(self._vouches.items())

    def __len__(self) -> int:
        return len(self._vouches)


class SeenVouches:
    """Every vouch a walk met, by table (the key's part before the colon), on disk."""

    def __init__(self, *, flush: int = _FLUSH) -> None:
        self._flush_at = flush
        # "": a temporary database of this connection's own, deleted when it closes.
        self._db = sqlite3.connect("", isolation_level=None)
        # Nothing to roll back or keep across a crash: the file dies with the process.
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute(
            "CREATE TABLE seen (tbl INTEGER, id TEXT, digest TEXT, seq INTEGER, "
            "PRIMARY KEY (tbl, id)) WITHOUT ROWID"
        )
        self._tables: dict[str, int] = {}
        self._pending: list[tuple[int, str, str, int]] = []

    def note(self, key: str, digest: object, sequence: int) -> None:
        """The vouch of `key` by the entry at `sequence` (a later sequence replaces it)."""
        table, _, value = key.partition(":")
        code = self._tables.setdefault(table, len(self._tables))
        self._pending.append((code, value, digest_text(digest), sequence))
        if len(self._pending) >= self._flush_at:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._db.executemany(
                "INSERT INTO seen VALUES (?, ?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET "
                "digest = excluded.digest, seq = excluded.seq WHERE excluded.seq > seen.seq",
                self._pending,
            )
            self._pending = []

    def table(self, table: str) -> TableVouches:
        """The vouches of one table (keys `table:…`)."""
        self._flush()
        return TableVouches(self._db, self._tables.get(table), f"{table}:")

    def close(self) -> None:
        self._pending = []
        self._db.close()

    def __enter__(self) -> SeenVouches:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class TableVouches:
    """One table's vouches in a `SeenVouches`."""

    def __init__(self, db: sqlite3.Connection, code: int | None, prefix: str) -> None:
        self._db = db
        self._code = code
        self._prefix = prefix

    def keys(self) -> Iterator[str]:
        """The keys' values (after `table:`): row ids in the order of their numbers."""
        if self._code is None:
            return
        rows = self._db.execute(
            "SELECT id FROM seen WHERE tbl = ? ORDER BY length(id), id", (self._code,)
        )
        for (value,) in rows:
            yield value

    def take(self, keys: Sequence[str]) -> dict[str, Vouch]:
        found: dict[str, Vouch] = {}
        if self._code is None:
            return found
        prefix = self._prefix
        values = [key[len(prefix) :] for key in keys if key.startswith(prefix)]
        for start in range(0, len(values), _LOOKUP):
            chunk = values[start : start + _LOOKUP]
            marks = ", ".join("?" * len(chunk))
            where = f"tbl = ? AND id IN ({marks})"
            for value, digest, sequence in self._db.execute(
                f"SELECT id, digest, seq FROM seen WHERE {where}",  # noqa: S608 - placeholders
                (self._code, *chunk),
            ):
                found[f"{prefix}{value}"] = (digest, sequence)
            self._db.execute(f"DELETE FROM seen WHERE {where}", (self._code, *chunk))  # noqa: S608
        return found

    def left(self) -> Iterator[tuple[str, Vouch]]:
        if self._code is None:
            return
        rows = self._db.execute(
            "SELECT id, digest, seq FROM seen WHERE tbl = ? ORDER BY length(id), id", (self._code,)
        )
        for value, digest, sequence in rows:
            yield f"{self._prefix}{value}", (digest, sequence)

    def __len__(self) -> int:
        if self._code is None:
            return 0
        row = self._db.execute("SELECT count(*) FROM seen WHERE tbl = ?", (self._code,)).fetchone()
        return int(row[0])
