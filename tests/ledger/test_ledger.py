"""The tamper-evident ledger: the chain, appending, the triggers and verify_audit_log."""

from __future__ import annotations

import io
import threading
from datetime import UTC
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from ledger.chain import (
    GENESIS_HASH,
    canonical_json,
    canonical_json_around_stamp,
    entry_hash,
    verify_chain,
)
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.append import PendingEntry, ledger_append, ledger_append_many
from ledger.services.verify import ledger_verify
from tests.ledger_protection import tamper

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: TRUNCATE and row locks exist only there (CI runs it)",
)


def _chain(count: int) -> list[tuple[int, dict[str, Any], str, str]]:
    entries = []
    previous = GENESIS_HASH
    for sequence in range(1, count + 1):
        content = {"sequence": sequence, "event": "decision.recorded", "payload": {"n": sequence}}
        digest = entry_hash(previous, content)
        entries.append((sequence, content, previous, digest))
        previous = digest
    return entries


def _append(count: int, *, start: int = 0) -> list[LedgerEntry]:
    return [
        ledger_append(
            event=Event.DECISION_RECORDED,
            subject_type=Subject.DECISION,
            subject_id=start + n,
            payload={"answer": {"action": "pay", "amount": f"{n}.50"}},
        )
        for n in range(1, count + 1)
    ]


def _verify() -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_audit_log", stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), str(exc)
    return 0, out.getvalue(), ""


# The chain itself, no database.


def test_an_untouched_chain_verifies_with_its_last_hash_as_head():
    entries = _chain(5)
    assert verify_chain(entries) == (5, entries[-1][3], None)


def test_an_empty_chain_verifies_with_the_genesis_hash():
    assert verify_chain([]) == (0, GENESIS_HASH, None)


def test_a_changed_entry_is_named_as_the_first_break():
    entries = _chain(5)
    sequence, content, previous, digest = entries[2]
    entries[2] = (sequence, {**content, "payload": {"n": 999}}, previous, digest)
    checked, head, first_break = verify_chain(entries)
    assert (checked, head) == (2, entries[1][3])
    assert first_break is not None
    assert first_break.sequence == 3
    assert "changed" in first_break.reason


def test_a_changed_entry_with_a_recomputed_hash_breaks_the_next_link():
    entries = _chain(5)
    sequence, content, previous, _ = entries[2]
    forged = {**content, "payload": {"n": 999}}
    entries[2] = (sequence, forged, previous, entry_hash(previous, forged))
    _, _, first_break = verify_chain(entries)
    assert first_break is not None
    assert first_break.sequence == 4
    assert "previous-hash" in first_break.reason


def test_a_removed_entry_is_named_as_missing():
    entries = _chain(5)
    del entries[1]
    _, _, first_break = verify_chain(entries)
    assert first_break is not None
    assert first_break.sequence == 3
    assert "entry 2" in first_break.reason
    assert "missing" in first_break.reason


def test_reordered_entries_break_the_chain():
    entries = _chain(5)
    entries[1], entries[2] = entries[2], entries[1]
    _, _, first_break = verify_chain(entries)
    assert first_break is not None
    assert first_break.sequence == 3


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
_stamp_free_keys = st.text().filter(lambda key: not "recorded_at" <= key <= "sequence")


@given(
    content=st.dictionaries(_stamp_free_keys, _json_values, max_size=6),
    sequence=st.integers(min_value=1, max_value=2**63 - 1),
    recorded_at=st.datetimes(timezones=st.just(UTC)),
)
def test_the_canonical_json_around_the_stamp_is_the_canonical_json_with_it(
    content, sequence, recorded_at
):
    before, after = canonical_json_around_stamp(content)
    stamped = {**content, "recorded_at": recorded_at.isoformat(), "sequence": sequence}
    assembled = before + recorded_at.isoformat() + '","sequence":' + str(sequence) + after
    assert assembled.encode() == canonical_json(stamped)


@pytest.mark.parametrize(
    "content", [{"sequence": 1}, {"recorded_at": "x"}, {"s": 1}, {"reserved": True}]
)
def test_the_canonical_json_around_the_stamp_refuses_content_it_cannot_cut(content):
    with pytest.raises(ValueError, match="recorded_at"):
        canonical_json_around_stamp(content)


# Appending, in the database.


@pytest.mark.django_db
def test_appended_entries_chain_from_the_genesis_hash():
    first, second = _append(2)
    assert (first.sequence, second.sequence) == (1, 2)
    assert first.previous_hash == GENESIS_HASH
    assert second.previous_hash == first.hash
    assert ledger_verify().head_hash == second.hash


# What the one-statement append hashes in SQL must be the bytes entry_hash hashes: text
# that JSON escapes, non-ASCII kept as UTF-8, a key ordering that puts the payload's keys
# around the names of the stamp's, numbers and nulls.
AWKWARD_PAYLOADS = [
    {"answer": {"action": "pay", "amount": "30.00"}},
    {"note": 'quote " backslash \\ newline \n tab \t nul-free \u2028', "n": 12345678901234567890},
    {"name": "Zoë Ødegård 黒 🂡", "recorded_at": "not the entry's", "sequence": -1, "z": None},
    {"nested": {"b": [1, 2.5, True, False, None], "a": {}}, "empty": []},
    {},
]


@pytest.mark.django_db
@pytest.mark.parametrize("payload", AWKWARD_PAYLOADS)
def test_an_entry_appended_alone_has_the_hash_its_content_gives(payload, django_user_model):
    actor = django_user_model.objects.create_user(username="Renée-Åsa_黒")
    before = _append(1)[0]
    entry = ledger_append(
        event=Event.DECISION_RECORDED,
        subject_type=Subject.DECISION,
        subject_id="7",
        payload=payload,
        actor=actor,
    )
    stored = LedgerEntry.objects.get(pk=entry.pk)
    assert (stored.sequence, stored.previous_hash, stored.hash) == (2, before.hash, entry.hash)
    assert stored.recorded_at == entry.recorded_at
    assert stored.actor_name == "Renée-Åsa_黒"
    assert stored.payload == payload
    assert entry.hash == entry_hash(before.hash, stored.content())
    result = ledger_verify()
    assert result.ok, result.problems
    assert result.head_hash == entry.hash


@postgresql_only
@pytest.mark.django_db
def test_an_entry_appended_alone_is_one_statement_on_postgresql():
    _append(1)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        _append(1, start=1)
    statements = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(statements) == 1, statements
    assert "FOR UPDATE" in statements[0]


@pytest.mark.django_db
def test_entries_are_stamped_after_the_head_is_taken_and_never_go_back_in_time():
    singles = _append(3)
    many = ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, str(n), {"n": n})
            for n in range(3)
        ]
    )
    last = _append(1, start=10)
    times = [entry.recorded_at for entry in [*singles, *many, *last]]
    assert times == sorted(times)
    assert len({entry.recorded_at for entry in many}) == 1
    assert ledger_verify().ok


@pytest.mark.django_db
def test_an_append_in_a_rolled_back_transaction_leaves_nothing():
    class AbandonedError(Exception):
        pass

    def change_then_fail() -> None:
        with transaction.atomic():
            _append(3)
            raise AbandonedError

    with pytest.raises(AbandonedError):
        change_then_fail()
    assert LedgerEntry.objects.count() == 0
    after = _append(1)[0]
    assert after.sequence == 1
    assert after.previous_hash == GENESIS_HASH


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_keep_one_unbroken_chain():
    errors: list[BaseException] = []

    def writer(start: int) -> None:
        try:
            _append(25, start=start)
        except BaseException as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n * 1000,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    result = ledger_verify()
    assert result.ok
    assert result.entries == LedgerEntry.objects.count() == 100
    times = list(LedgerEntry.objects.order_by("sequence").values_list("recorded_at", flat=True))
    assert times == sorted(times)


# Nothing in the application changes or deletes an entry.


@pytest.mark.django_db
def test_saving_an_existing_entry_again_is_refused():
    entry = _append(1)[0]
    entry.payload = {"answer": "forged"}
    with pytest.raises(ValidationError, match="append-only"):
        entry.save()
    assert LedgerEntry.objects.get(pk=entry.pk).payload != {"answer": "forged"}


@pytest.mark.django_db
def test_deleting_an_entry_is_refused():
    entry = _append(1)[0]
    with pytest.raises(ValidationError, match="never deleted"):
        entry.delete()
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.django_db
def test_the_admin_offers_no_way_to_add_change_or_delete_an_entry(admin_user):
    entry = _append(1)[0]
    request = RequestFactory().get("/admin/ledger/ledgerentry/")
    request.user = admin_user
    model_admin = site._registry[LedgerEntry]
    assert model_admin.has_view_permission(request, entry)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    assert "delete_selected" not in model_admin.get_actions(request)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_ledgerentry SET event = 'forged' WHERE sequence = 1",
        "DELETE FROM audit_ledgerentry WHERE sequence = 1",
    ],
)
def test_the_database_refuses_to_update_or_delete_an_entry(statement):
    entry = _append(1)[0]
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert LedgerEntry.objects.get(sequence=1).hash == entry.hash


# verify_audit_log.


@pytest.mark.django_db
def test_verify_audit_log_reports_the_count_and_head_hash_of_an_intact_ledger():
    entries = _append(3)
    status, out, _ = _verify()
    assert status == 0
    assert "entries checked: 3" in out
    assert f"head hash: {entries[-1].hash}" in out
    assert "OK" in out


@pytest.mark.django_db
def test_verify_audit_log_names_an_entry_changed_directly_in_the_database():
    _append(5)
    tamper(
        "UPDATE audit_ledgerentry SET payload = %s WHERE sequence = %s",
        ['{"answer": {"action": "pay", "amount": "999.50"}}', 3],
    )
    status, out, error = _verify()
    assert status == 1
    assert "entries checked: 2" in out
    assert "BROKEN at entry 3" in error
    assert "changed" in error


@pytest.mark.django_db
def test_verify_audit_log_names_the_gap_left_by_an_entry_deleted_in_the_database():
    _append(5)
    tamper("DELETE FROM audit_ledgerentry WHERE sequence = %s", [4])
    status, _, error = _verify()
    assert status == 1
    assert "BROKEN at entry 5" in error
    assert "expected entry 4" in error


@pytest.mark.django_db
def test_the_trigger_is_back_on_after_the_tamper_so_the_check_is_real():
    _append(2)
    tamper("UPDATE audit_ledgerentry SET event = %s WHERE sequence = %s", ["forged", 2])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_ledgerentry WHERE sequence = 1")
    assert _verify()[0] == 1


# Entries cut from the end: the chain that is left holds, its stored head does not.


def append_many(count: int) -> list[LedgerEntry]:
    return ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, str(n), {"n": n})
            for n in range(1, count + 1)
        ]
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("appended", "kept", "says"), [(5, 4, "5 entries"), (1000, 950, "1,000 entries")]
)
def test_entries_cut_from_the_end_are_named_by_the_stored_head(appended, kept, says):
    append_many(appended)
    tamper("DELETE FROM audit_ledgerentry WHERE sequence > %s", [kept])
    status, out, error = _verify()
    assert status == 1
    assert f"entries checked: {kept}\n" in out
    assert f"last intact hash: {LedgerEntry.objects.get(sequence=kept).hash}" in out
    assert error == (
        f"BROKEN at entry {kept + 1}: the ledger ends at entry {kept} "
        f"but its head says {says}: entries were removed"
    )


@pytest.mark.django_db
def test_a_ledger_emptied_behind_its_head_is_named():
    append_many(3)
    tamper("DELETE FROM audit_ledgerentry")
    result = ledger_verify()
    assert not result.ok
    assert result.first_break is not None
    assert result.first_break.reason == (
        "the ledger is empty but its head says 3 entries: entries were removed"
    )


@pytest.mark.django_db
def test_a_head_set_back_behind_the_last_entry_is_reported():
    entries = append_many(5)
    tamper("UPDATE audit_ledgerhead SET sequence = 3, hash = %s", [entries[2].hash])
    status, out, error = _verify()
    assert status == 1
    assert "problem: the ledger holds 5 entries but its head says 3" in out
    assert error.startswith("NOT VERIFIED")


@pytest.mark.django_db
def test_a_deleted_head_is_reported():
    append_many(2)
    tamper("DELETE FROM audit_ledgerhead")
    result = ledger_verify()
    assert not result.ok
    assert result.problems == (
        "the ledger holds 2 entries but its head is missing: it was deleted outside the "
        "application",
    )


# What the database refuses on the head: it only moves forward, to an entry of the ledger.


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("statement", "params"),
    [
        ("UPDATE audit_ledgerhead SET sequence = 2, hash = %s", ["entry 2"]),
        ("UPDATE audit_ledgerhead SET sequence = 0, hash = %s", [GENESIS_HASH]),
        ("UPDATE audit_ledgerhead SET sequence = 4, hash = %s", ["0" * 63 + "1"]),
        ("UPDATE audit_ledgerhead SET hash = %s", ["entry 2"]),
        ("DELETE FROM audit_ledgerhead", []),
    ],
    ids=["set-back", "reset", "past-the-end", "other-hash", "delete"],
)
def test_the_database_refuses_to_set_the_head_back_or_away_from_the_ledger(statement, params):
    entries = append_many(3)
    params = [entries[1].hash if p == "entry 2" else p for p in params]
    with (
        pytest.raises(DatabaseError, match="ledger head"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, params)
    assert ledger_verify().ok
    # The head still moves forward as entries are appended.
    assert _append(1)[0].sequence == 4
    assert ledger_verify().ok


@postgresql_only
@pytest.mark.django_db
@pytest.mark.parametrize("table", ["audit_ledgerentry", "audit_ledgerhead"])
def test_postgresql_refuses_to_truncate_the_ledger(table):
    _append(2)
    with connection.cursor() as cursor:
        # The test's own inserts leave deferred foreign-key checks that block TRUNCATE.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with (
        pytest.raises(DatabaseError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(f"TRUNCATE {table} CASCADE")
    assert LedgerEntry.objects.count() == 2
