"""core.rows: the fixed SQL of the answering loop reads and writes rows as the ORM does."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import core.rows
from core.rows import (
    columns,
    fetch_one,
    insert,
    insert_many,
    instance,
    optional_instance,
    table,
    update,
)
from ledger.models import LedgerEntry
from tests.answered import make_attempt
from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    GradingRun,
    GradingStatus,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered(trainee):
    return make_attempt(trainee)


@pytest.mark.parametrize("model", [Decision, LedgerEntry, Attempt, AttemptItem, GradingRun])
def test_nothing_listens_to_the_saves_insert_skips(model):
    # insert(), insert_many() and update() run no save signal: a receiver added for these
    # rows would be skipped.
    for signal in (pre_save, post_save):
        assert not signal._live_receivers(model)[0], f"{signal} has a receiver for {model}"


def test_a_row_read_back_equals_the_orms(answered):
    decision = Decision.objects.filter(item__attempt=answered).first()
    row = fetch_one(
        f"SELECT {columns(Decision, 'x')} FROM {table(Decision)} x WHERE x.id = %s",  # noqa: S608
        [decision.pk],
    )
    read, end = instance(Decision, row)
    assert end == len(row)
    orm = Decision.objects.get(pk=decision.pk)
    for field in Decision._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(orm, field.attname), field.name
    # JSON is parsed and times are aware, on SQLite as on PostgreSQL.
    assert isinstance(read.answer, dict)
    assert timezone.is_aware(read.answered_at)
    assert read._state.adding is False


def test_a_left_join_that_found_nothing_is_none(answered):
    attempt = answered
    row = fetch_one(
        f"SELECT {columns(Attempt, 'a')}, {columns(Drill, 'd')}, {columns(Assignment, 's')} "  # noqa: S608
        f"FROM {table(Attempt)} a JOIN {table(Drill)} d ON d.id = a.drill_id "
        f"LEFT JOIN {table(Assignment)} s ON s.id = a.assignment_id WHERE a.id = %s",
        [attempt.pk],
    )
    read, at = instance(Attempt, row)
    drill, at = instance(Drill, row, at)
    assignment, at = optional_instance(Assignment, row, at)
    assert (read.pk, drill.pk) == (attempt.pk, attempt.drill_id)
    assert assignment is None
    assert attempt.assignment_id is None
    with pytest.raises(ValueError, match=r"no trainer\.Assignment row"):
        instance(Assignment, row, at - len(Assignment._meta.concrete_fields))


def test_insert_saves_what_save_would(answered):
    item = answered.items.first()
    now = timezone.now()
    made = insert(
        Decision(
            item=item,
            question=99,
            kind="settle_hand",
            answer={"action": "pay", "amount": "12.50"},
            shown={"dealer": ["A"]},
            shown_at=now - timedelta(seconds=3),
            answered_at=now,
            response_ms=3000,
        )
    )
    assert made.pk is not None
    assert made._state.adding is False
    stored = Decision.objects.get(pk=made.pk)
    assert stored.answer == {"action": "pay", "amount": "12.50"}
    assert stored.shown == {"dealer": ["A"]}
    assert stored.created_at is not None  # auto_now_add filled, as save() fills it
    assert stored.late is False
    assert stored.time_limit_ms is None


def _decision(item, question):
    now = timezone.now()
    return Decision(
        item=item,
        question=question,
        kind="settle_hand",
        answer={"action": "pay", "amount": "5.00"},
        shown={},
        shown_at=now,
        answered_at=now,
        response_ms=0,
    )


def test_insert_then_updates_in_the_same_statement_on_postgresql(answered):
    """`then` is written with the row, in one round trip on PostgreSQL. (That it runs once
    the row is in, as a trigger looking for the row needs, every ledger append shows: the
    head's trigger refuses a move to an entry it cannot find.)"""
    item = answered.items.first()
    then = (
        f"UPDATE {table(AttemptItem)} SET questions_shown = %s WHERE id = %s",  # noqa: S608
        ['{"seen": true}', item.pk],
    )
    with CaptureQueriesContext(connection) as queries:
        made = insert(_decision(item, 98), then=then)
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    assert Decision.objects.get(pk=made.pk).question == 98
    item.refresh_from_db()
    assert item.questions_shown == {"seen": True}


def test_insert_then_refuses_an_update_that_found_no_row(answered):
    item = answered.items.first()
    missing = (f"UPDATE {table(AttemptItem)} SET position = position WHERE id = %s", [-1])  # noqa: S608
    with pytest.raises(ValueError, match="found no row"), transaction.atomic():
        insert(_decision(item, 97), then=missing)
    assert not Decision.objects.filter(item=item, question=97).exists()


def test_update_writes_what_save_with_update_fields_would(trainee):
    answered, twin = make_attempt(trainee, submitted=False), make_attempt(trainee, submitted=False)
    assert answered.status == AttemptStatus.IN_PROGRESS
    before = Attempt.objects.get(pk=answered.pk)
    now = timezone.now()
    for attempt in (answered, twin):
        attempt.status = AttemptStatus.SUBMITTED
        attempt.submitted_at = now
        attempt.grading_status = GradingStatus.PENDING
        attempt.grading_error = 'a "quoted" reason'
        attempt.mode = "speed"  # changed on the instance, not written: not in the fields
    fields = ("status", "submitted_at", "grading_status", "grading_error")
    with CaptureQueriesContext(connection) as queries:
        update(answered, fields)
    assert len(queries) == 1
    twin.save(update_fields=fields)
    mine, theirs = Attempt.objects.get(pk=answered.pk), Attempt.objects.get(pk=twin.pk)
    for name in fields:
        assert getattr(mine, name) == getattr(theirs, name), name
    for field in Attempt._meta.concrete_fields:
        if field.attname not in fields:  # the rest of the row as it was
            assert getattr(mine, field.attname) == getattr(before, field.attname), field.name
    assert mine.status == AttemptStatus.SUBMITTED
    assert mine.grading_error == 'a "quoted" reason'
    assert mine.mode != "speed"
    with pytest.raises(ValueError, match="not a column"):
        update(answered, ("items",))


def _copies(attempt, count):
    """New rounds for ``attempt``, copied from its first (JSON documents with quotes in)."""
    first = attempt.items.order_by("position").first()
    return [
        AttemptItem(
            attempt=attempt,
            position=100 + n,
            scenario_id=first.scenario_id,
            profile_version_id=first.profile_version_id,
            document={**first.document, "note": f'a "quoted" note {n}, with \\ and {{ }}'},
            answer_key=first.answer_key,
            questions_shown={"1": "2026-11-27T10:00:00+00:00"},
        )
        for n in range(count)
    ]


def test_insert_many_saves_every_row_in_one_statement_as_bulk_create_would(answered):
    rows = _copies(answered, 7)
    with CaptureQueriesContext(connection) as queries:
        made = insert_many(rows)
    assert len(queries) == 1
    assert [row.position for row in made] == list(range(100, 107))
    for row in made:
        assert row._state.adding is False
        stored = AttemptItem.objects.get(pk=row.pk)  # each pk is its own row's
        assert stored.position == row.position
        assert stored.document == row.document
        assert stored.answer_key == row.answer_key
        assert stored.questions_shown == {"1": "2026-11-27T10:00:00+00:00"}
    assert insert_many([]) == []


def test_insert_many_splits_a_statement_past_the_parameter_limit(answered, monkeypatch):
    width = len(core.rows._inserted_fields(AttemptItem))
    monkeypatch.setattr(core.rows, "_MOST_PARAMETERS", 2 * width)  # two rows a statement
    rows = _copies(answered, 5)
    with CaptureQueriesContext(connection) as queries:
        insert_many(rows)
    if connection.features.can_return_rows_from_bulk_insert:
        assert len(queries) == 3
    got = AttemptItem.objects.filter(attempt=answered, position__gte=100)
    assert sorted(item.position for item in got) == list(range(100, 105))
    assert {item.pk for item in got} == {row.pk for row in rows}


def test_the_session_store_reads_a_live_session_and_refuses_an_expired_one():
    from config.session_store import SessionStore
    from core.models import Session

    live = SessionStore()
    live["who"] = "tina"
    live.create()
    assert SessionStore(live.session_key)["who"] == "tina"
    # Past its expiry date the row is there but is no session: empty, and its key dropped
    # (a new one is made on save), as Django's own database store does.
    Session.objects.filter(session_key=live.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(live.session_key)
    assert expired.load() == {}
    assert expired.session_key is None
    # A deleted row (signed out elsewhere) is no session either.
    gone = SessionStore()
    gone["who"] = "tina"
    gone.create()
    Session.objects.filter(session_key=gone.session_key).delete()
    assert "who" not in SessionStore(gone.session_key)
