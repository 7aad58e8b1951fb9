"""The exam's briefing (issue #24, found point 2): a sitting starts from its briefing's own
button, never on one click from My training, and My training says when the next sitting
opens instead of offering a start that is refused."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.errors import ConflictError
from tests.factories import UserFactory, profile_version
from tests.trainer.factories import AssignmentFactory, DrillFactory, simple_document
from trainer.models import Attempt, AttemptStatus, Mode
from trainer.selectors.sittings import duration_text
from trainer.services.attempts import attempt_start, attempt_submit
from trainer.services.drills import table_test_create

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def exam(trainee):
    drill = DrillFactory(title="Exam: naturals", documents=[simple_document()])
    return AssignmentFactory(
        drill=drill, mode=Mode.EXAM, trainee=trainee, max_sittings=3, cooldown_hours=24
    )


def _start(client, assignment, **extra):
    return client.post(
        reverse("train:start"),
        {"drill": assignment.drill_id, "assignment": assignment.pk, "mode": "exam", **extra},
    )


def test_my_training_leads_to_the_briefing_and_reading_it_starts_nothing(trainee, exam):
    client = client_for(trainee)
    home = client.get(reverse("train:home")).content.decode()
    briefing_url = reverse("train:briefing", args=[exam.pk])
    assert f'action="{briefing_url}"' in home
    assert 'method="get"' in home
    page = client.get(briefing_url)
    assert page.status_code == 200
    text = page.content.decode()
    for fact in (
        "Rounds",
        "Time for each question",
        "1 minute",
        "Time box",
        "0 of 3 used, 3 left",
        "24 hours after a sitting ends",
        "What a pass counts for",
        "Start the exam now",
    ):
        assert fact in text, fact
    assert not Attempt.objects.exists()


def test_a_start_that_did_not_come_through_the_briefing_is_sent_to_it(trainee, exam):
    response = _start(client_for(trainee), exam)
    assert response.status_code == 302
    assert response["Location"] == reverse("train:briefing", args=[exam.pk])
    assert not Attempt.objects.exists()


def test_the_briefings_button_starts_the_sitting(trainee, exam):
    response = _start(client_for(trainee), exam, briefed="yes")
    started = Attempt.objects.get()
    assert response["Location"] == reverse("train:table", args=[started.pk])
    assert started.sitting == 1


def test_during_the_cool_down_my_training_says_when_the_next_sitting_opens(trainee, exam):
    first = attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    attempt_submit(attempt=first, user=trainee)
    home = client_for(trainee).get(reverse("train:home")).content.decode()
    row = re.search(rf'<tr data-assignment="{exam.pk}">.*?</tr>', home, re.S).group(0)
    assert "Next sitting opens" in row
    assert "1 of 3 used, 2 left" in row
    # No button that would only lead to a refusal.
    assert "<button" not in row
    opens = timezone.localtime(Attempt.objects.get().submitted_at + timedelta(hours=24))
    assert opens.strftime("%H:%M") in row
    # The briefing says the same and offers no start; a start posted anyway is refused on
    # the briefing, next to what it is about, never a dead end.
    briefing = client_for(trainee).get(reverse("train:briefing", args=[exam.pk])).content.decode()
    assert "Start the exam now" not in briefing
    assert "the next sitting opens" in briefing
    refused = _start(client_for(trainee), exam, briefed="yes")
    assert refused.status_code == 409
    text = refused.content.decode()
    assert "That could not be done" not in text
    assert "24 h after the last one ended" in text
    assert "Back to My training" in text


def test_the_api_gives_the_same_refusal_words(trainee, exam, api):
    first = attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    attempt_submit(attempt=first, user=trainee)
    with pytest.raises(ConflictError) as caught:
        attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    refused = api.post(
        "/api/attempts/",
        {"drill": exam.drill_id, "assignment": exam.pk, "mode": "exam"},
        format="json",
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "cooling_down"
    assert refused.json()["error"] == caught.value.message
    page = _start(client_for(trainee), exam, briefed="yes").content.decode()
    assert caught.value.message.split(" (")[0] in page.replace("The next", "the next")


def test_no_sittings_left_shows_no_start(trainee, exam):
    exam.max_sittings = 1
    exam.save()
    first = attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    attempt_submit(attempt=first, user=trainee)
    home = client_for(trainee).get(reverse("train:home")).content.decode()
    row = re.search(rf'<tr data-assignment="{exam.pk}">.*?</tr>', home, re.S).group(0)
    assert "No sittings left" in row
    assert "<button" not in row


def test_an_exam_in_progress_is_continued_from_the_briefing(trainee, exam):
    attempt = attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    page = client_for(trainee).get(reverse("train:briefing", args=[exam.pk])).content.decode()
    assert reverse("train:table", args=[attempt.pk]) in page
    assert "Start the exam now" not in page
    assert attempt.status == AttemptStatus.IN_PROGRESS


def test_a_table_tests_briefing_says_what_a_pass_counts_for(trainee, pit_boss):
    drill = table_test_create(profile_version=profile_version("casino-shoe"), user=pit_boss)
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    page = client_for(trainee).get(reverse("train:briefing", args=[assignment.pk]))
    text = page.content.decode()
    title = drill.certifies.title
    assert f"A pass here is the table test for blackjack on the {title} table" in text
    assert "personnel file" in text
    assert "table test" in text
    assert duration_text(drill.time_box_seconds) == "1 hour 40 minutes"
    assert "1 hour 40 minutes for the whole sitting" in text


def test_another_trainees_briefing_does_not_exist(other_trainee, exam):
    assert (
        client_for(other_trainee).get(reverse("train:briefing", args=[exam.pk])).status_code == 404
    )
    pit_boss = UserFactory(username="pb", roles=["pit_boss"])
    assert client_for(pit_boss).get(reverse("train:briefing", args=[exam.pk])).status_code == 403


def test_the_api_lists_the_sittings_as_my_training_does(trainee, exam, api):
    fresh = api.get("/api/assignments/").json()["results"][0]["sittings"]
    assert fresh == {
        "used": 0,
        "allowed": 3,
        "left": 3,
        "cooldown_hours": 24,
        "next_at": None,
        "refused": None,
        "message": None,
    }
    first = attempt_start(trainee=trainee, drill=exam.drill, mode=Mode.EXAM, assignment=exam)
    attempt_submit(attempt=first, user=trainee)
    cooling = api.get("/api/assignments/").json()["results"][0]["sittings"]
    assert (cooling["used"], cooling["left"], cooling["refused"]) == (1, 2, "cooling_down")
    assert cooling["next_at"] is not None
    refused = api.post(
        "/api/attempts/",
        {"drill": exam.drill_id, "assignment": exam.pk, "mode": "exam"},
        format="json",
    )
    assert refused.json()["error"] == cooling["message"]
