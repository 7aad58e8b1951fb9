"""The incremental verify: from the newest trusted checkpoint, only the entries after it.

A checkpoint is trusted when its HMAC holds and the stored entry at its position still has
its hash; anything else (no checkpoint, a forged line, a ledger that no longer fits) and
the whole chain is walked. What the incremental verify cannot see, an entry changed in
place before the checkpoint, the full verify (the command's default, and a daily task) sees.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from audit.services.reports.lifecycle import compliance_report_request
from ledger.chain import GENESIS_HASH, ChainBreak, entry_hash, verify_chain
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.anchors import ledger_checkpoint_write
from ledger.services.append import PendingEntry, ledger_append_many
from ledger.services.verify import ledger_verify
from ledger.tasks import verify_ledger_full
from tests.ledger_protection import protection_lifted, tamper

NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
CHECKPOINT = "the checkpoint of 2026-03-10 12:00:00 UTC"


def append_many(count: int, *, tag: str = "n") -> None:
    ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, str(n), {tag: n})
            for n in range(1, count + 1)
        ]
    )


def change_in_place(sequence: int) -> None:
    """An entry's content changed by a DBA, its stored hashes left as they were."""
    tamper(
        "UPDATE audit_ledgerentry SET payload = %s WHERE sequence = %s",
        [json.dumps({"n": -1}), sequence],
    )


def cut(*, after: int, set_head_back: bool) -> None:
    kept_hash = LedgerEntry.objects.get(sequence=after).hash
    with protection_lifted(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_ledgerentry WHERE sequence > %s", [after])
        if set_head_back:
            cursor.execute(
                "UPDATE audit_ledgerhead SET sequence = %s, hash = %s", [after, kept_hash]
            )


@pytest.fixture
def checkpoints(settings) -> Path:
    return Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE)


@pytest.fixture
def checkpointed(checkpoints) -> Path:
    """1,050 entries, the checkpoint file recording the first 1,000."""
    append_many(1000)
    assert ledger_checkpoint_write(now=NOON) is not None
    append_many(50, tag="later")
    return checkpoints


def verify_command(*args: str) -> tuple[int, str, str]:
    out = io.StringIO()
    try:
        call_command("verify_audit_log", *args, stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), ""


# The walk from a start, no database.


def test_a_walk_from_a_start_counts_from_the_genesis_and_checks_the_anchors_after_it():
    entries, previous = [], GENESIS_HASH
    for n in range(1, 11):
        content = {"sequence": n}
        digest = entry_hash(previous, content)
        entries.append((n, content, previous, digest))
        previous = digest
    start = (6, entries[5][3])
    assert verify_chain(entries[6:], start=start) == (10, entries[9][3], None)
    # The entry after the start must follow from the start's hash.
    assert verify_chain(entries[7:], start=start)[2] == ChainBreak(
        8, "expected entry 7 here: an entry is missing"
    )
    assert verify_chain(entries[6:], start=(6, "f" * 64))[2] == ChainBreak(
        7, "its previous-hash does not match the entry before it"
    )


# On the database.


@pytest.mark.django_db
def test_from_a_trusted_checkpoint_only_the_entries_after_it_are_walked(checkpointed):
    incremental = ledger_verify()
    full = ledger_verify(full=True)
    assert incremental.ok
    assert full.ok
    assert (incremental.verified_from, incremental.verified_from_source) == (1000, CHECKPOINT)
    assert incremental.incremental
    assert not full.incremental
    assert (incremental.entries, incremental.head_hash) == (full.entries, full.head_hash)
    assert incremental.entries == 1050
    assert incremental.anchors == full.anchors == 2  # the checkpoint and the stored head
    assert "after entry 1,000" in incremental.scope
    assert full.scope == "every entry recomputed, from the first"


@pytest.mark.django_db
def test_without_a_checkpoint_the_whole_chain_is_walked(checkpoints):
    append_many(20)
    result = ledger_verify()
    assert (result.ok, result.verified_from, result.entries) == (True, 0, 20)


@pytest.mark.django_db
def test_an_entry_changed_after_the_checkpoint_is_broken_incrementally(checkpointed):
    change_in_place(1020)
    result = ledger_verify()
    assert result.verified_from == 1000
    assert result.first_break == ChainBreak(
        1020, "its content does not match its hash (the entry was changed)"
    )
    assert result.entries == 1019
    status, out, error = verify_command("--since-checkpoint")
    assert status == 1
    assert f"verified: since the checkpoint at entry 1000 ({CHECKPOINT})" in out
    assert "entries recomputed: 19" in out
    assert error.startswith("BROKEN at entry 1020")


@pytest.mark.django_db
def test_an_entry_changed_in_place_before_the_checkpoint_is_caught_only_by_the_full_verify(
    checkpointed, caplog
):
    change_in_place(10)
    # What the incremental verify trusts: the checkpoint vouches for entries 1 to 1,000.
    assert ledger_verify().ok
    full = ledger_verify(full=True)
    assert full.first_break == ChainBreak(
        10, "its content does not match its hash (the entry was changed)"
    )
    status, out, error = verify_command()  # the command's default is the whole chain
    assert status == 1
    assert "verified: every entry, from the first" in out
    assert error.startswith("BROKEN at entry 10:")
    with caplog.at_level(logging.ERROR, logger="ledger.verify"):
        assert verify_ledger_full()["ok"] is False
    assert "FAILS full verification: entry 10" in caplog.text


@pytest.mark.django_db
def test_the_periodic_full_verify_logs_nothing_for_a_ledger_that_holds(checkpointed, caplog):
    with caplog.at_level(logging.ERROR, logger="ledger.verify"):
        result = verify_ledger_full()
    assert result["ok"] is True
    assert result["entries"] == 1050
    assert caplog.text == ""


@pytest.mark.django_db
@pytest.mark.parametrize("earlier_checkpoint", [True, False])
def test_a_forged_checkpoint_is_refused_and_named(checkpoints, earlier_checkpoint):
    append_many(1000)
    if earlier_checkpoint:
        ledger_checkpoint_write(now=NOON)
    append_many(50, tag="later")
    head = LedgerEntry.objects.get(sequence=1050).hash
    # A line claiming the newest head, signed without the key.
    forged = {"at": "2026-03-11T12:00:00+00:00", "entries": 1050, "head_hash": head}
    with checkpoints.open("a") as handle:
        handle.write(json.dumps({**forged, "hmac": "0" * 64}) + "\n")
    result = ledger_verify()
    # Not trusted as a start: the walk starts at the last signed line, or at the first entry.
    assert result.verified_from == (1000 if earlier_checkpoint else 0)
    assert result.entries == 1050
    assert result.first_break is None
    assert not result.ok
    assert any("HMAC does not match" in problem for problem in result.problems)
    status, _, error = verify_command("--since-checkpoint")
    assert status == 1
    assert error.startswith("NOT VERIFIED")


@pytest.mark.django_db
def test_a_tail_cut_after_the_checkpoint_is_caught_incrementally(checkpointed):
    cut(after=1040, set_head_back=False)
    result = ledger_verify()
    assert result.verified_from == 1000
    assert result.first_break == ChainBreak(
        1041, "the ledger ends at entry 1,040 but its head says 1,050 entries: entries were removed"
    )


@pytest.mark.django_db
def test_a_tail_cut_past_the_checkpoint_with_the_head_set_back_falls_back_to_the_whole_chain(
    checkpointed,
):
    cut(after=900, set_head_back=True)
    result = ledger_verify()
    assert result.verified_from == 0
    assert result.first_break == ChainBreak(
        901,
        f"the ledger ends at entry 900 but {CHECKPOINT} says 1,000 entries: entries were removed",
    )


@pytest.mark.django_db
def test_a_ledger_rewritten_before_the_checkpoint_falls_back_and_names_the_rewrite(checkpointed):
    # Every hash recomputed from entry 501 on, through the application's own append.
    cut(after=500, set_head_back=True)
    append_many(550, tag="forged")
    result = ledger_verify()
    assert result.verified_from == 0
    assert result.first_break is not None
    assert result.first_break.sequence == 1000
    assert CHECKPOINT in result.first_break.reason


@pytest.mark.django_db
def test_a_report_verifies_from_the_checkpoint_and_records_which_way(
    checkpoints, compliance_officer
):
    day = NOON.date()
    append_many(30)
    first = compliance_report_request(start=day, end=day, fmt="csv", user=compliance_officer)
    assert (first.ledger_ok, first.ledger_verified_from) == (True, 0)
    ledger_checkpoint_write(now=NOON)
    at = LedgerEntry.objects.latest("sequence").sequence
    second = compliance_report_request(start=day, end=day, fmt="pdf", user=compliance_officer)
    assert (second.ledger_ok, second.ledger_verified_from) == (True, at)
    assert second.ledger_entries == at  # the head it states is the whole ledger's
    logged = LedgerEntry.objects.filter(
        event=Event.REPORT_EXPORTED, subject_id=str(second.pk)
    ).get()
    assert logged.payload["ledger_verified_from"] == at
    client = Client()
    client.force_login(compliance_officer)
    page = client.get("/compliance/").content.decode()
    assert f'data-verified-from="{at}"' in page
    assert f"checked from the checkpoint at entry {at}" in page
    assert 'data-verified-from="0"' in page
