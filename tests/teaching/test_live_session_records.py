"""A class session's answers are records like any attempt's: answered through the API's
answer path (the same 409s), sealed until the reveal, in the ledger, graded by a real
worker, and on My record and the pit's trainee page as "Class session"."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from audit.services.reports.lifecycle import compliance_report_request
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from teaching.services.live_questions import (
    live_session_close,
    live_session_end,
    live_session_next,
    live_session_question_open,
    live_session_reveal,
)
from teaching.services.live_sessions import live_session_join, live_session_open
from tests.graded import client_for, poll
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Attempt, Grade, GradingRunSummary, GradingStatus, Mode

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_class_session_is_answered_sealed_graded_and_recorded(
    celery_worker, pit, pit_boss, trainee, compliance_officer, settings, tmp_path
):
    media = settings.MEDIA_ROOT = tmp_path / "media"
    drill = DrillFactory(documents=[natural_document()])
    session = live_session_open(user=pit_boss, training_class=pit["mine"], drill=drill)
    attempt = live_session_join(user=trainee, code=session.code)
    api = APIClient()
    api.force_login(trainee)
    url = f"/api/attempts/{attempt.pk}"
    first = session.questions.get(number=1)
    key = session.rounds[0]["answer_key"][0]
    body = {"position": first.position, "question": first.n, "answer": key["expected"]}

    # Not yet open: the same 409 as any question not being asked.
    refused = api.post(f"{url}/answers", body, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_current"
    assert api.get(f"{url}/question").json()["question"] is None

    live_session_question_open(session=session, user=pit_boss)
    asked = api.get(f"{url}/question").json()["question"]
    assert (asked["position"], asked["n"]) == (first.position, first.n)
    assert "expected" not in str(asked)
    assert "rule" not in asked
    assert api.post(f"{url}/answers", body, format="json").status_code == 201
    # A reconnecting client sends it again: the same decision, never a second.
    assert api.post(f"{url}/answers", body, format="json").status_code in (200, 201)
    live_session_close(session=session, user=pit_boss)
    # After the close the same answer is still the one recorded; any other is refused.
    assert api.post(f"{url}/answers", body, format="json").status_code == 200
    other = {**body, "answer": {"action": "pay", "amount": "1.00"}}
    assert api.post(f"{url}/answers", other, format="json").status_code == 409
    live_session_reveal(session=session, user=pit_boss)
    if session.questions.count() > 1:
        live_session_next(session=session, user=pit_boss)
    live_session_end(session=session, user=pit_boss)

    poll(
        lambda: Attempt.objects.get(pk=attempt.pk).grading_status,
        lambda status: status == GradingStatus.GRADED,
    )
    graded = Attempt.objects.get(pk=attempt.pk)
    assert graded.mode == Mode.CLASS_SESSION
    grades = Grade.objects.filter(run__attempt=attempt, decision__isnull=False)
    assert [g.correct for g in grades] == [True]
    assert GradingRunSummary.objects.get(attempt=attempt).mode == Mode.CLASS_SESSION
    events = list(LedgerEntry.objects.values_list("event", flat=True))
    assert events.count(Event.DECISION_RECORDED) == 1
    for event in (
        Event.LIVE_SESSION_OPENED,
        Event.LIVE_SESSION_JOINED,
        Event.LIVE_QUESTION_OPENED,
        Event.LIVE_QUESTION_CLOSED,
        Event.LIVE_QUESTION_REVEALED,
        Event.LIVE_SESSION_ENDED,
        Event.ATTEMPT_SUBMITTED,
        Event.RUN_FINISHED,
    ):
        assert event in events, event
    assert ledger_verify().ok

    home = client_for(trainee).get(reverse("train:home")).content.decode()
    assert "Class session" in home
    assert "class_session" not in home
    record = client_for(trainee).get(reverse("record:mine"))
    assert record.status_code == 200
    pit_page = client_for(pit_boss).get(reverse("pit:trainee", args=[trainee.pk]))
    assert pit_page.status_code == 200
    assert "class_session" not in pit_page.content.decode()

    # The compliance report lists the decision under its mode in words.
    day = timezone.localdate()
    csv = compliance_report_request(start=day, end=day, fmt="csv", user=compliance_officer)
    csv_text = (Path(media) / csv.file.name).read_text()
    assert ",Class session," in csv_text
    assert "class_session" not in csv_text
