"""The ledger's anchors: heads recorded outside the ledger table, that it must still hold.

The stored head alone does not show entries cut from the end of the ledger if whoever cut
them set the head back too. What does: the head each compliance report states (and
stores; audit.services.anchors, registered by the audit app), the signed lines of the
checkpoint file, written periodically outside the database, and any file of heads an
auditor kept (verify_audit_log --anchors).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ledger.chain import Anchor
from ledger.checkpoints import (
    Checkpoint,
    LineError,
    checkpoint_line,
    parse_checkpoint,
    read_anchors,
)
from ledger.models import CheckpointTally, LedgerHead

# A checkpoint line is about 200 bytes: the last one is within this much of the end.
_TAIL_BYTES = 4096


def _key() -> bytes:
    return str(settings.SHOESCHOOL_LEDGER_ANCHOR_KEY).encode()


def checkpoint_file() -> Path:
    return Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE)


def checkpoint_anchors() -> tuple[list[Anchor], list[str]]:
    """The heads in the checkpoint file, if there is one; a problem for each untrusted line."""
    path = checkpoint_file()
    if not path.is_file():
        return [], []
    with path.open(encoding="utf-8", errors="replace") as lines:
        return read_anchors(lines, key=_key(), name="the checkpoint file", plain=False)


def file_anchors(path: Path) -> tuple[list[Anchor], list[str]]:
    """The heads in a file an auditor kept: "ENTRIES HEAD_HASH" or checkpoint lines."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        return read_anchors(lines, key=_key(), name="the anchors file", plain=True)


def _last_line(path: Path) -> str | None:
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - _TAIL_BYTES))
        lines = handle.read().decode("utf-8", errors="replace").splitlines()
    return lines[-1] if lines else None


def _ends_mid_line(path: Path) -> bool:
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return False
        handle.seek(size - 1)
        return handle.read(1) != b"\n"


def ledger_checkpoint_write(*, now: dt.datetime | None = None) -> Checkpoint | None:
    """Append the ledger's stored head, signed, to the checkpoint file.

    Returns the checkpoint written, or None when there was nothing new to record: an empty
    ledger, or a head the file's last line already records (so the task can run twice).
    The head is recorded as stored, without walking the chain, which a large ledger takes
    a while to do: the verification checks it like any other anchor.
    """
    head = LedgerHead.objects.filter(id=1).values_list("sequence", "hash").first()
    if head is None or head[0] == 0:
        return None
    path = checkpoint_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    # Append-only on our side: the file is never rewritten, only added to. The tally row is
    # locked meanwhile, so two writers number their lines in turn; it counts the line only
    # once the line is on disk (a file with more lines than the count is fine, fewer is not).
    with transaction.atomic(), path.open("a", encoding="utf-8") as handle:
        tally, _ = CheckpointTally.objects.select_for_update().get_or_create(id=1)
        # Two workers running the task at once: the second sees the first's line.
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        last = _last_line(path)
        if last is not None:
            try:
                previous = parse_checkpoint(last, key=_key())
            except LineError:
                previous = None
            if previous is not None and (previous.entries, previous.head_hash) == head:
                return None
        if _ends_mid_line(path):
            # A line cut short (a crash mid-write) is left as it is, on a line of its own.
            handle.write("\n")
        checkpoint = Checkpoint(now or timezone.now(), head[0], head[1], tally.lines + 1)
        handle.write(checkpoint_line(checkpoint, key=_key()))
        handle.flush()
        os.fsync(handle.fileno())
        CheckpointTally.objects.filter(id=1).update(lines=tally.lines + 1)
    return checkpoint


def checkpoint_lines_written() -> int:
    """The database's count of the lines written to the checkpoint file."""
    return CheckpointTally.objects.filter(id=1).values_list("lines", flat=True).first() or 0


def _file_lines(path: Path) -> tuple[int, int | None]:
    """The checkpoint lines the file holds (blank lines aside) and the highest line number
    its signed lines state."""
    count, highest = 0, None
    with path.open(encoding="utf-8", errors="replace") as lines:
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            count += 1
            try:
                number = parse_checkpoint(line, key=_key()).number
            except LineError:
                continue
            if number is not None and (highest is None or number > highest):
                highest = number
    return count, highest


def checkpoint_file_problems() -> list[str]:
    """An emptied, shrunk or missing checkpoint file, told from the count of lines kept on
    both sides: the database's tally, and each line's own number."""
    path = checkpoint_file()
    written = checkpoint_lines_written()
    if not path.is_file():
        if written:
            return [
                f"the checkpoint file {path} is missing, but {written:,} lines were written to "
                "it: it was removed or moved"
            ]
        return []
    held, highest = _file_lines(path)
    problems: list[str] = []
    if held < written:
        problems.append(
            f"the checkpoint file {path} holds {held:,} lines, but {written:,} were written to "
            "it: it was emptied, cut short or replaced"
        )
    if highest is not None and held < highest:
        problems.append(
            f"the checkpoint file {path} holds {held:,} lines, but its lines are numbered up to "
            f"{highest:,}: lines were removed from it"
        )
    return problems
