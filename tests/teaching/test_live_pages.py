"""The live session's pages: the instructor's, the trainee's seat, the polled statuses
(their query counts pinned) and the summary's page and CSV."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from teaching.services.live_questions import (
    live_session_close,
    live_session_question_open,
    live_session_reveal,
)
from teaching.services.live_sessions import live_session_join, live_session_open
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import Decision, LiveSession

pytestmark = pytest.mark.django_db


@pytest.fixture
def drill():
    return DrillFactory(title="Naturals", documents=[natural_document(), simple_document()])


@pytest.fixture
def session(pit, pit_boss, drill):
    return live_session_open(user=pit_boss, training_class=pit["mine"], drill=drill)


def test_the_instructor_opens_a_session_from_the_form(pit, pit_boss, drill):
    page = client_for(pit_boss)
    form = page.get(reverse("teach:live-index"))
    assert form.status_code == 200
    assert "Naturals" in form.content.decode()
    opened = page.post(
        reverse("teach:live-index"), {"training_class": pit["mine"].pk, "drill": drill.pk}
    )
    session = LiveSession.objects.get()
    assert opened["Location"] == reverse("teach:live", args=[session.pk])
    html = page.get(opened["Location"]).content.decode()
    assert session.code in html
    assert "Open the question" in html
    # Not another class: its choice is not offered, and a forged post is refused.
    forged = page.post(
        reverse("teach:live-index"), {"training_class": pit["theirs"].pk, "drill": drill.pk}
    )
    assert forged.status_code == 400


def test_another_class_instructor_and_trainees_are_told_it_does_not_exist(
    session, other_boss, trainee
):
    other = client_for(other_boss)
    assert other.get(reverse("teach:live", args=[session.pk])).status_code == 404
    assert other.get(reverse("teach:live-status", args=[session.pk])).status_code == 404
    act = reverse("teach:live-act", args=[session.pk, "open"])
    assert other.post(act).status_code == 404
    assert client_for(trainee).get(reverse("teach:live", args=[session.pk])).status_code == 403


def test_the_room_plays_a_question_through_the_pages(session, pit_boss, trainee):
    trainee.last_name = "Tinsdale-Quorn"
    trainee.save(update_fields=["last_name"])
    boss = client_for(pit_boss)
    tina = client_for(trainee)
    joined = tina.post(reverse("live:join"), {"code": session.code.lower()})
    attempt = session.attempts.get()
    seat = reverse("live:seat", args=[attempt.pk])
    assert joined["Location"] == seat
    assert "Wait for the question" in tina.get(seat).content.decode()
    boss.post(reverse("teach:live-act", args=[session.pk, "open"]))
    html = tina.get(seat).content.decode()
    assert 'id="answer-form"' in html
    key = session.rounds[0]["answer_key"][0]
    assert "37.50" not in html  # sealed: the expected payout is nowhere on the page
    posted = tina.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": "1", "question": "1", "action": "pay", "amount": "37.50"},
    )
    assert posted["Location"] == seat
    assert Decision.objects.get().answer == key["expected"]
    html = tina.get(seat).content.decode()
    assert 'id="answer-form"' not in html
    counts = boss.get(reverse("teach:live-status", args=[session.pk])).json()
    assert (counts["answered"], counts["joined"]) == (1, 1)
    boss.post(reverse("teach:live-act", args=[session.pk, "close"]))
    # An answer after the close: the same 409 as any question not being asked, said on
    # the seat page.
    late = tina.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": "1", "question": "2", "action": "pay", "amount": "1"},
    )
    assert late["Location"] == seat
    instructor = boss.get(reverse("teach:live", args=[session.pk])).content.decode()
    assert "Right: <strong>1</strong> of 1" in instructor
    # Names hidden: the trainee's nowhere above the joined list. By a surname no made-up
    # instructor has (the header names the instructor, whose random first name can be the
    # trainee's: "Erin" and "Erin").
    assert "Tinsdale-Quorn" not in instructor.split("Joined")[0]
    boss.post(reverse("teach:live-act", args=[session.pk, "reveal"]))
    html = tina.get(seat).content.decode()
    assert "The right answer" in html
    assert "you were right" in html
    boss.post(reverse("teach:live-act", args=[session.pk, "end"]))
    summary = boss.get(reverse("teach:live-summary", args=[session.pk])).content.decode()
    assert "Pay 37.50" in summary
    csv = boss.get(reverse("teach:live-summary-csv", args=[session.pk])).content.decode()
    assert "Pay 37.50" in csv
    assert "class_session" not in csv


def test_a_refused_button_is_said_on_the_page(session, pit_boss):
    boss = client_for(pit_boss)
    refused = boss.post(reverse("teach:live-act", args=[session.pk, "reveal"]), follow=True)
    assert "close the question before its answer is shown" in refused.content.decode()


def test_my_training_offers_the_class_session(session, trainee, other_trainee):
    assert (
        "Join the class session" in client_for(trainee).get(reverse("train:home")).content.decode()
    )
    other = client_for(other_trainee).get(reverse("train:home")).content.decode()
    assert "Your class is in session" not in other


def _queries(client, url: str) -> int:
    client.get(url)  # the session's first read warms what every later poll reuses
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return len(seen)


def test_the_statuses_polled_every_second_are_cheap(session, pit, pit_boss, trainee):
    attempt = live_session_join(user=trainee, session=session)
    live_session_question_open(session=session, user=pit_boss)
    seat = _queries(client_for(trainee), reverse("live:status", args=[attempt.pk]))
    driver = _queries(client_for(pit_boss), reverse("teach:live-status", args=[session.pk]))
    assert seat <= 4, seat
    assert driver <= 7, driver
    live_session_close(session=session, user=pit_boss)
    live_session_reveal(session=session, user=pit_boss)
    assert _queries(client_for(pit_boss), reverse("teach:live-status", args=[session.pk])) == driver


def test_names_show_only_when_the_instructor_chooses(session, pit_boss, trainee):
    attempt = live_session_join(user=trainee, session=session)
    live_session_question_open(session=session, user=pit_boss)
    key = session.rounds[0]["answer_key"][0]
    from trainer.services.attempts import decision_record

    decision_record(attempt=attempt, user=trainee, position=1, question=1, answer=key["expected"])
    live_session_close(session=session, user=pit_boss)
    boss = client_for(pit_boss)
    page = reverse("teach:live", args=[session.pk])
    assert "Who answered what" not in boss.get(page).content.decode()
    boss.post(reverse("teach:live-act", args=[session.pk, "names"]), {"shown": "yes"})
    shown = boss.get(page).content.decode()
    assert "Who answered what" in shown
    name = f"{trainee.first_name} {trainee.last_name}"
    assert f"{name}: Pay 37.50" in shown
    boss.post(reverse("teach:live-act", args=[session.pk, "names"]), {"shown": "no"})
    assert "Who answered what" not in boss.get(page).content.decode()
