"""PostgreSQL: an answer being recorded and the instructor's close take turns on the
question's row, so the room's count at the close holds every answer recorded, and no
answer is recorded after the count."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from teaching.services.live_questions import live_session_close, live_session_question_open
from teaching.services.live_sessions import live_session_join, live_session_open
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Decision
from trainer.services import attempts as attempt_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]


def test_the_close_waits_for_the_answer_being_recorded(pit, pit_boss, trainee, monkeypatch):
    drill = DrillFactory(documents=[natural_document()])
    session = live_session_open(user=pit_boss, training_class=pit["mine"], drill=drill)
    attempt = live_session_join(user=trainee, session=session)
    live_session_question_open(session=session, user=pit_boss)
    key = session.rounds[0]["answer_key"][0]
    holding, release = threading.Event(), threading.Event()
    appended = attempt_services.ledger_append

    def slow_append(**entry):
        holding.set()  # the decision is written, its transaction still open
        assert release.wait(10)
        return appended(**entry)

    monkeypatch.setattr(attempt_services, "ledger_append", slow_append)
    errors: list[BaseException] = []

    def run(work):
        try:
            work()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    answering = threading.Thread(
        target=run,
        args=(
            lambda: attempt_services.decision_record(
                attempt=attempt, user=trainee, position=1, question=1, answer=key["expected"]
            ),
        ),
    )
    answering.start()
    assert holding.wait(10)
    closing = threading.Thread(
        target=run, args=(lambda: live_session_close(session=session, user=pit_boss),)
    )
    closing.start()
    closing.join(0.7)
    assert closing.is_alive(), "the close did not wait for the answer being recorded"
    release.set()
    answering.join(10)
    closing.join(10)
    assert not errors, errors
    assert Decision.objects.count() == 1
    assert session.questions.get(number=1).tally["answered"] == 1
