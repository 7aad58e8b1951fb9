"""The ledger vouches for each decision (a trainee's answer): its `decision.recorded` entry
holds the row's digest, so an answer, its times or its lateness changed, inserted or
deleted in the database behind the answer service is named by verify_audit_log (full, and
incremental when recorded since the checkpoint) and refused by a sign-off; the decisions
older than vouching are vouched for by migration 0031 from what their entries recorded.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, cast

import pytest
from django.apps import apps
from django.db import connection

from audit.models import Certification
from core.errors import ConflictError
from ledger.events import Event, Subject
from ledger.models import LedgerEntry
from ledger.services.anchors import ledger_checkpoint_write
from ledger.services.vouch import row_vouches
from tests.audit.factories import table_test
from tests.graded import RIGHT, make_attempt
from tests.ledger.test_vouched_rows import sign, verify
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import Decision, Drill, Mode, RuleProfile
from trainer.services.attempts import attempt_question_show, attempt_start, decision_record
from trainer.services.vouched import decision_vouch

pytestmark = pytest.mark.django_db

PAY = {"action": "pay", "amount": "37.50"}


def raw(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def answered(trainee, given: dict[str, Any] = PAY) -> Decision:
    """A practice sitting's first question, shown and answered through the services."""
    drill = cast(Drill, DrillFactory(documents=[natural_document(), simple_document()]))
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    question = attempt_question_show(attempt=attempt, user=trainee)
    assert question is not None
    decision, created = decision_record(
        attempt=attempt,
        user=trainee,
        position=question["position"],
        question=question["n"],
        answer=given,
    )
    assert created
    return decision


def recorded(decision: Decision) -> LedgerEntry:
    return LedgerEntry.objects.get(
        event=Event.DECISION_RECORDED, subject_type=Subject.DECISION, subject_id=str(decision.pk)
    )


def named(decision: Decision) -> str:
    return f"answer {decision.pk} (table trainer_decision, row {decision.pk})"


def test_the_decision_entry_vouches_for_the_row_as_the_database_holds_it(trainee):
    decision = answered(trainee)
    # Hashed from the values inserted, it is the digest of the row read back.
    assert recorded(decision).payload["vouches"] == row_vouches(Decision, [decision.pk])
    status, output = verify()
    assert status == 0, output


def test_the_digest_in_memory_is_the_digest_read_back_whatever_the_json_keys(trainee):
    first = answered(trainee)
    # A game's view keyed by number: text keys in the database, sorted as text there.
    decision = Decision.objects.create(
        item=first.item,
        question=first.question + 1,
        kind=first.kind,
        answer={"amount": "1.50", "action": "pay"},
        shown={10: "ten", 9: ["nine", 9.5]},
        shown_at=first.shown_at,
        answered_at=first.answered_at,
        response_ms=1,
    )
    key, digest = decision_vouch(decision)
    assert row_vouches(Decision, [decision.pk]) == {key: digest}


def test_an_answer_changed_in_raw_sql_is_named_by_the_full_verification(trainee):
    decision = answered(trainee)
    raw(
        "UPDATE trainer_decision SET answer = %s WHERE id = %s",
        ['{"action": "pay", "amount": "10.00"}', decision.pk],
    )
    status, output = verify()
    assert status == 1
    assert (
        f"{named(decision)}: it does not match what ledger entry {recorded(decision).sequence:,} "
        "recorded: it was changed outside the application"
    ) in output


def test_past_the_rows_listed_the_others_are_counted(trainee, monkeypatch):
    monkeypatch.setattr("ledger.services.vouch_check.MAX_LISTED", 2)
    decisions = [answered(trainee) for _ in range(5)]
    for decision in decisions:
        raw("UPDATE trainer_decision SET response_ms = 987654 WHERE id = %s", [decision.pk])
    status, output = verify()
    assert status == 1
    named_ones = [d for d in decisions if f"{named(d)}: it does not match" in output]
    assert len(named_ones) == 2
    assert "and 3 more rows that do not match the ledger" in output


@pytest.mark.parametrize(
    "change",
    [
        {"late": True},
        {"response_ms": 987_654},
        {"time_limit_ms": None},
        {"kind": "dealer_action"},
        {"shown": {"forged": True}},
    ],
)
def test_times_lateness_and_kind_changed_are_named(trainee, change):
    decision = answered(trainee)
    Decision.objects.filter(pk=decision.pk).update(**change)
    status, output = verify()
    assert status == 1
    assert named(decision) in output


def test_the_incremental_verification_names_an_answer_recorded_since_the_checkpoint(trainee):
    before = answered(trainee)
    ledger_checkpoint_write()
    after = answered(trainee)
    Decision.objects.filter(pk__in=[before.pk, after.pk]).update(answer={"action": "take"})
    status, output = verify("--since-checkpoint")
    assert status == 1
    assert "rows checked: the rows vouched for since the checkpoint" in output
    assert named(after) in output
    # One recorded before the checkpoint is left to the full verification (decisions are
    # the biggest table: the incremental one compares only those vouched since).
    assert named(before) not in output
    assert named(before) in verify()[1]


def test_a_deleted_and_an_inserted_decision_are_named(trainee):
    kept = answered(trainee)
    gone = answered(trainee)
    raw("DELETE FROM trainer_decision WHERE id = %s", [gone.pk])
    raw(
        "INSERT INTO trainer_decision (item_id, question, kind, answer, shown, shown_at, "
        "answered_at, response_ms, time_limit_ms, late, created_at) SELECT item_id, "
        "question + 1, kind, answer, shown, shown_at, answered_at, response_ms, time_limit_ms, "
        "late, created_at FROM trainer_decision WHERE id = %s",
        [kept.pk],
    )
    inserted = Decision.objects.exclude(pk=kept.pk).get()
    status, output = verify()
    assert status == 1
    assert (
        f"{named(gone)}: ledger entry {recorded(gone).sequence:,} vouches for it but the "
        "database no longer has it: it was deleted outside the application"
    ) in output
    assert f"{named(inserted)}: no ledger entry vouches for it" in output
    assert named(kept) not in output


def test_an_answer_sent_again_returns_the_decision_and_verification_holds(trainee):
    decision = answered(trainee)
    again, created = decision_record(
        attempt=decision.item.attempt_id,
        user=trainee,
        position=decision.item.position,
        question=decision.question,
        answer=PAY,
    )
    assert (again.pk, created) == (decision.pk, False)
    assert LedgerEntry.objects.filter(event=Event.DECISION_RECORDED).count() == 1
    assert verify()[0] == 0


def test_a_sign_off_refuses_a_sitting_whose_answer_was_changed(pit, trainee, pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())
    decision = Decision.objects.filter(item__attempt=exam).order_by("pk").first()
    assert decision is not None
    Decision.objects.filter(pk=decision.pk).update(answer={"action": "pay", "amount": "99.00"})
    with pytest.raises(ConflictError) as caught:
        sign(trainee, exam, pit_boss, shoe)
    assert "changed outside the application" in str(caught.value)
    assert not Certification.objects.exists()


def test_a_sign_off_on_the_untouched_sitting_signs(pit, trainee, pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())
    assert sign(trainee, exam, pit_boss, shoe).pk is not None


# Decisions older than vouching: migration 0031 vouches for them from their entries.


def test_the_backfill_vouches_from_what_each_entry_recorded(trainee, monkeypatch):
    # Recorded as before vouching: the entry holds the answer and times, no digest.
    monkeypatch.setattr("trainer.services.attempts.VOUCHES", "not vouched yet")
    kept = answered(trainee)
    changed = answered(trainee)
    monkeypatch.undo()
    # Changed before the migration ran: the backfill must not take it on trust.
    Decision.objects.filter(pk=changed.pk).update(answer={"action": "pay", "amount": "1.00"})
    status, output = verify()
    assert status == 1
    assert f"{named(kept)}: no ledger entry vouches for it" in output

    migration = import_module("trainer.migrations.0031_vouch_existing_decisions")
    migration.vouch_existing(apps, None)

    entries = LedgerEntry.objects.filter(event=Event.VOUCHED_BACKFILLED)
    # One entry per sitting, about the sitting.
    assert sorted(entries.values_list("subject_type", "subject_id")) == sorted(
        [("attempt", str(kept.item.attempt_id)), ("attempt", str(changed.item.attempt_id))]
    )
    status, output = verify()
    assert status == 1
    assert named(kept) not in output
    backfilled = entries.get(subject_id=str(changed.item.attempt_id))
    assert (
        f"{named(changed)}: it does not match what ledger entry {backfilled.sequence:,} recorded"
    ) in output
    # The answer put back as recorded, verification holds.
    Decision.objects.filter(pk=changed.pk).update(answer=PAY)
    assert verify()[0] == 0
    # And the sign-off's lookup finds the backfill's vouches (by the sitting).
    from ledger.services.vouch_check import vouch_problems

    assert vouch_problems(Decision, [kept.pk, changed.pk]) == []
    Decision.objects.filter(pk=kept.pk).update(late=True)
    assert [named(kept) in p for p in vouch_problems(Decision, [kept.pk, changed.pk])] == [True]


def test_the_backfill_leaves_a_decision_no_entry_recorded_unvouched(trainee):
    from trainer.services.decision_backfill import decisions_vouch_backfill

    decision = answered(trainee)
    raw(
        "INSERT INTO trainer_decision (item_id, question, kind, answer, shown, shown_at, "
        "answered_at, response_ms, time_limit_ms, late, created_at) SELECT item_id, "
        "question + 1, kind, answer, shown, shown_at, answered_at, response_ms, time_limit_ms, "
        "late, created_at FROM trainer_decision WHERE id = %s",
        [decision.pk],
    )
    inserted = Decision.objects.exclude(pk=decision.pk).get()
    done = decisions_vouch_backfill()
    # The one recorded with its voucher is left as it is; the inserted one stays unvouched.
    assert (done.entries, done.vouched, done.unrecorded) == (0, 0, [inserted.pk])
    assert f"{named(inserted)}: no ledger entry vouches for it" in verify()[1]


def test_the_backfill_writes_one_entry_per_sitting_across_its_batches(trainee, monkeypatch):
    from trainer.services import decision_backfill

    monkeypatch.setattr("trainer.services.attempts.VOUCHES", "not vouched yet")
    sittings = []
    for _ in range(3):
        drill = cast(Drill, DrillFactory(documents=[natural_document(), simple_document()]))
        attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
        while (question := attempt_question_show(attempt=attempt, user=trainee)) is not None:
            key = attempt.items.get(position=question["position"]).answer_key
            given = next(q["expected"] for q in key if q["n"] == question["n"])
            decision_record(
                attempt=attempt,
                user=trainee,
                position=question["position"],
                question=question["n"],
                answer=given,
            )
        sittings.append(attempt.pk)
    monkeypatch.undo()
    assert Decision.objects.count() > 3
    # Two decisions read at a time, one entry appended at a time: a sitting's decisions
    # straddle the batches and still make one entry.
    monkeypatch.setattr(decision_backfill, "BATCH", 2)
    monkeypatch.setattr(decision_backfill, "BACKFILL_CHUNK", 1)
    done = decision_backfill.decisions_vouch_backfill()
    assert (done.entries, done.vouched) == (3, Decision.objects.count())
    assert done.differing == done.unrecorded == []
    assert sorted(
        LedgerEntry.objects.filter(event=Event.VOUCHED_BACKFILLED).values_list(
            "subject_id", flat=True
        )
    ) == sorted(str(pk) for pk in sittings)
    status, output = verify()
    assert status == 0, output
