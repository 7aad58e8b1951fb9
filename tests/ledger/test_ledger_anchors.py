"""Anchors: the heads kept outside the ledger table catch what the stored head cannot.

An insider who cuts entries from the end and sets the stored head back leaves a chain
that holds, with a head that fits it. The heads recorded elsewhere (each compliance
report's, the signed checkpoint file's, an auditor's own file) still name the entries
that were there.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from audit.services.reports.lifecycle import compliance_report_request
from ledger.chain import GENESIS_HASH, Anchor, ChainBreak, canonical_json, entry_hash, verify_chain
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.anchors import ledger_checkpoint_write
from ledger.services.append import PendingEntry, ledger_append_many
from ledger.services.verify import ledger_verify
from ledger.tasks import checkpoint_ledger
from tests.ledger_protection import protection_lifted

DAY = dt.date(2026, 3, 10)
NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


def append_many(count: int, *, tag: str = "n") -> list[LedgerEntry]:
    return ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, str(n), {tag: n})
            for n in range(1, count + 1)
        ]
    )


def cut_and_set_the_head_back(*, kept: int) -> None:
    """What an insider covering their tracks does: cut entries and set the head back."""
    kept_hash = LedgerEntry.objects.get(sequence=kept).hash
    with protection_lifted(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_ledgerentry WHERE sequence > %s", [kept])
        cursor.execute("UPDATE audit_ledgerhead SET sequence = %s, hash = %s", [kept, kept_hash])


def verify(*args: str) -> tuple[int, str, str]:
    out = io.StringIO()
    try:
        call_command("verify_audit_log", *args, stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), ""


# The walk itself, no database.


def chain(count: int, *, tag: str = "n", after: tuple[int, str] = (0, GENESIS_HASH)):
    entries = []
    sequence, previous = after
    for n in range(sequence + 1, sequence + count + 1):
        content = {"sequence": n, tag: n}
        digest = entry_hash(previous, content)
        entries.append((n, content, previous, digest))
        previous = digest
    return entries


def test_anchors_that_match_leave_the_chain_whole():
    entries = chain(10)
    anchors = [Anchor(3, entries[2][3], "A"), Anchor(10, entries[9][3], "B")]
    assert verify_chain(entries, anchors) == (10, entries[9][3], None)


def test_after_a_rewrite_only_the_entries_up_to_the_last_matching_anchor_hold():
    original = chain(10)
    rewritten = original[:5] + chain(5, tag="forged", after=(5, original[4][3]))
    anchors = [Anchor(3, original[2][3], "report A"), Anchor(8, original[7][3], "report B")]
    checked, head, first_break = verify_chain(rewritten, anchors)
    assert (checked, head) == (3, original[2][3])
    assert first_break == ChainBreak(
        8,
        "its hash is not the one report B records: the ledger was rewritten between "
        "entries 4 and 8",
    )


def test_the_furthest_anchor_past_the_end_is_named():
    entries = chain(3)
    anchors = [Anchor(5, "a" * 64, "checkpoint A"), Anchor(7, "b" * 64, "checkpoint B")]
    assert verify_chain(entries, anchors) == (
        3,
        entries[2][3],
        ChainBreak(
            4, "the ledger ends at entry 3 but checkpoint B says 7 entries: entries were removed"
        ),
    )


@pytest.fixture
def checkpoints(settings) -> Path:
    return Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.mark.django_db
def test_without_an_anchor_a_cut_with_the_head_set_back_goes_unseen():
    # Why anchors exist: the stored head alone can be set back with the cut.
    append_many(60)
    cut_and_set_the_head_back(kept=10)
    status, out, _ = verify()
    assert status == 0
    assert "entries checked: 10\n" in out


@pytest.mark.django_db
def test_a_compliance_reports_head_catches_the_cut(compliance_officer, media):
    append_many(1000)
    report = compliance_report_request(start=DAY, end=DAY, fmt="csv", user=compliance_officer)
    assert report.ledger_entries == 1000
    assert report.ledger_head_hash == LedgerEntry.objects.get(sequence=1000).hash
    cut_and_set_the_head_back(kept=950)
    status, out, error = verify()
    assert status == 1
    assert "entries checked: 950\n" in out
    made = report.finished_at.astimezone(dt.UTC)
    assert error == (
        "BROKEN at entry 951: the ledger ends at entry 950 but the compliance report for "
        f"2026-03-10 to 2026-03-10 made {made:%Y-%m-%d %H:%M} UTC says 1,000 entries: "
        "entries were removed"
    )


@pytest.mark.django_db
def test_the_checkpoint_file_catches_the_cut(checkpoints):
    append_many(1000)
    assert ledger_checkpoint_write(now=NOON) is not None
    cut_and_set_the_head_back(kept=950)
    status, _, error = verify()
    assert status == 1
    assert error == (
        "BROKEN at entry 951: the ledger ends at entry 950 but the checkpoint of "
        "2026-03-10 12:00:00 UTC says 1,000 entries: entries were removed"
    )


@pytest.mark.django_db
def test_an_auditors_anchors_file_catches_the_cut(tmp_path):
    entries = append_many(60)
    anchors = tmp_path / "anchors.txt"
    anchors.write_text(f"# heads the regulator was sent\n\n60 {entries[-1].hash}\n")
    assert verify("--anchors", str(anchors))[0] == 0
    cut_and_set_the_head_back(kept=10)
    status, out, error = verify("--anchors", str(anchors))
    assert status == 1
    assert "anchors checked: 2" in out  # the stored head and the file's line
    assert error == (
        "BROKEN at entry 11: the ledger ends at entry 10 but line 3 of the anchors file "
        "says 60 entries: entries were removed"
    )


@pytest.mark.django_db
def test_a_checkpoint_line_copied_to_an_anchors_file_is_an_anchor_too(checkpoints, tmp_path):
    append_many(5)
    ledger_checkpoint_write(now=NOON)
    anchors = tmp_path / "copy.jsonl"
    anchors.write_text(checkpoints.read_text())
    checkpoints.unlink()  # the insider removed the server's copy
    cut_and_set_the_head_back(kept=4)
    status, _, error = verify("--anchors", str(anchors))
    assert status == 1
    assert "the checkpoint of 2026-03-10 12:00:00 UTC says 5 entries" in error


@pytest.mark.django_db
def test_a_rewritten_ledger_is_caught_where_an_anchor_no_longer_matches(checkpoints):
    append_many(10)
    ledger_checkpoint_write(now=NOON)
    # Rewritten from entry 4 on through the application's own append: every hash is right.
    cut_and_set_the_head_back(kept=3)
    append_many(7, tag="forged")
    status, out, error = verify()
    assert status == 1
    assert "entries checked: 0\n" in out  # no anchor before the rewrite vouches for any
    assert error == (
        "BROKEN at entry 10: its hash is not the one the checkpoint of 2026-03-10 12:00:00 UTC "
        "records: the ledger was rewritten between entries 1 and 10"
    )


@pytest.mark.django_db
def test_an_unknown_anchors_file_is_refused():
    status, _, error = verify("--anchors", "/nonexistent/anchors.txt")
    assert status == 2
    assert "no such anchors file" in error


@pytest.mark.django_db
def test_an_unreadable_anchors_line_is_reported(tmp_path):
    append_many(2)
    anchors = tmp_path / "anchors.txt"
    anchors.write_text("two 9f86d0\n")
    status, out, error = verify("--anchors", str(anchors))
    assert status == 1
    assert "problem: line 1 of the anchors file: it is neither" in out
    assert error.startswith("NOT VERIFIED: 1 problem(s): line 1 of the anchors file")


# The checkpoint file.


def line_hmac(key: str, line: dict[str, object]) -> str:
    fields = {k: v for k, v in line.items() if k != "hmac"}
    return hmac.new(key.encode(), canonical_json(fields), hashlib.sha256).hexdigest()


@pytest.mark.django_db
def test_the_checkpoint_task_appends_a_signed_head_and_nothing_while_it_has_not_moved(
    checkpoints, settings
):
    checkpoints.write_text("# kept: the file is only ever appended to\n")
    entries = append_many(3)
    assert checkpoint_ledger.apply().get() == 3
    assert checkpoint_ledger.apply().get() is None  # run again (a redelivery): nothing new
    more = append_many(2)
    assert checkpoint_ledger.apply().get() == 5
    comment, *lines = checkpoints.read_text().splitlines()
    assert comment == "# kept: the file is only ever appended to"
    first, second = (json.loads(line) for line in lines)
    assert (first["entries"], first["head_hash"]) == (3, entries[-1].hash)
    assert (second["entries"], second["head_hash"]) == (5, more[-1].hash)
    for line in (first, second):
        assert line["hmac"] == line_hmac(settings.SHOESCHOOL_LEDGER_ANCHOR_KEY, line)
        assert dt.datetime.fromisoformat(line["at"]).utcoffset() == dt.timedelta(0)
    assert verify()[0] == 0


@pytest.mark.django_db
def test_an_empty_ledger_writes_no_checkpoint(checkpoints):
    assert ledger_checkpoint_write() is None
    assert not checkpoints.exists()


@pytest.mark.django_db
def test_a_forged_checkpoint_line_is_reported(checkpoints):
    append_many(3)
    ledger_checkpoint_write(now=NOON)
    line = json.loads(checkpoints.read_text())
    # Someone without the key claims the ledger once held 2 entries, under another hash.
    forged = {**line, "entries": 2, "at": "2026-03-11T00:00:00+00:00"}
    forged["hmac"] = line_hmac("a guess at the key", forged)
    with checkpoints.open("a") as handle:
        handle.write(json.dumps(forged) + "\n")
    status, out, error = verify()
    assert status == 1
    assert (
        "problem: line 2 of the checkpoint file: its HMAC does not match: the line was "
        "forged or altered, or signed with another key"
    ) in out
    assert error.startswith("NOT VERIFIED")
    assert ledger_verify().anchors == 2  # the head and the genuine line; not the forgery


@pytest.mark.django_db
def test_a_checkpoint_line_cut_short_by_a_crash_is_reported_and_the_next_goes_on_its_own_line(
    checkpoints,
):
    append_many(3)
    ledger_checkpoint_write(now=NOON)
    with checkpoints.open("a") as handle:
        handle.write('{"at":"2026-03-10T13:00:00+00:00","ent')
    append_many(1)
    assert ledger_checkpoint_write(now=NOON + dt.timedelta(hours=2)) is not None
    lines = checkpoints.read_text().splitlines()
    assert len(lines) == 3
    assert json.loads(lines[2])["entries"] == 4
    assert ledger_verify().problems == (
        "line 2 of the checkpoint file: it is not a checkpoint (JSON) line",
    )
