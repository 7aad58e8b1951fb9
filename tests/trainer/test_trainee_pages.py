"""The trainee's pages under /train/: who may see them, the table, answers, results."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    insurance_document,
    natural_document,
    simple_document,
)
from trainer.models import Attempt, AttemptStatus, Decision, GradingRun, Mode
from trainer.services.attempts import attempt_start
from trainer.services.grading.execute import grading_run_execute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("session_activity_unwritten")]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def attempt(trainee):
    drill = DrillFactory(title="Naturals", documents=[natural_document(), simple_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)


def post_answer(client, attempt, position, question, **fields):
    url = reverse("train:answer", args=[attempt.pk])
    return client.post(url, {"position": position, "question": question, **fields})


def test_home_lists_assignments_and_past_attempts(trainee, attempt):
    AssignmentFactory(drill=DrillFactory(title="Speed run"), mode=Mode.SPEED, trainee=trainee)
    response = client_for(trainee).get(reverse("train:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Naturals" in html
    assert "Speed run" in html
    assert "Continue" in html
    assert reverse("train:table", args=[attempt.pk]) in html


def test_the_site_home_links_trainees_to_their_training(trainee):
    response = client_for(trainee).get("/")
    assert 'href="/train/"' in response.content.decode()


@pytest.mark.parametrize("who", ["pit_boss", "compliance_officer"])
def test_other_roles_cannot_use_trainee_pages(request, who, attempt):
    client = client_for(request.getfixturevalue(who))
    assert client.get(reverse("train:home")).status_code == 403
    assert client.get(reverse("train:table", args=[attempt.pk])).status_code == 403
    response = post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    assert response.status_code == 403
    assert not Decision.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(attempt):
    response = Client().get(reverse("train:table", args=[attempt.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_another_trainees_attempt_is_not_found_and_nothing_is_stored(other_trainee, attempt):
    client = client_for(other_trainee)
    assert client.get(reverse("train:table", args=[attempt.pk])).status_code == 404
    assert client.get(reverse("train:results", args=[attempt.pk])).status_code == 404
    assert post_answer(client, attempt, 1, 1, action="pay", amount="37.50").status_code == 404
    assert client.post(reverse("train:submit", args=[attempt.pk])).status_code == 404
    assert not Decision.objects.exists()
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.IN_PROGRESS
    assert attempt.items.get(position=1).questions_shown == {}


def test_the_table_shows_cards_stakes_placard_and_question(trainee, attempt):
    html = client_for(trainee).get(reverse("train:table", args=[attempt.pk])).content.decode()
    assert "Blackjack pays 3 to 2" in html
    assert 'aria-label="ace of spades"' in html
    assert "♠" in html
    assert "25.00" in html
    # The question in the pit's words: the seat, never the scenario's name for the player;
    # a natural as Blackjack; and what the amount means.
    assert (
        "Settle the bet of Seat 1: 25.00 on A♠ K♦ (Blackjack) against the dealer&#x27;s 17" in html
    )
    # Not the scenario's name for the player: a word "p1" (a CSRF token may hold the letters).
    assert not re.search(r"\bp1\b", html.replace("q-prompt", ""))
    assert "winnings paid beside the bet" in html
    assert 'name="csrfmiddlewaretoken"' in html
    for key in ("<kbd>P</kbd>", "<kbd>T</kbd>", "<kbd>U</kbd>", "<kbd>H</kbd>"):
        assert key in html


def test_expected_answers_are_absent_from_every_page_before_answering(trainee, attempt):
    client = client_for(trainee)
    pages = [
        client.get(reverse("train:home")),
        client.get(reverse("train:table", args=[attempt.pk])),
        client.get(reverse("train:feedback", args=[attempt.pk, 1])),
    ]
    assert [r.status_code for r in pages] == [200, 200, 409]
    for response in pages:
        html = response.content.decode()
        assert "37.5" not in html, html[max(0, html.find("37.5") - 300) : html.find("37.5") + 100]
        assert "rounded down to the 0.50 unit" not in html


def test_an_exams_table_hides_the_procedure_answer_and_its_rule(trainee):
    drill = DrillFactory(documents=[insurance_document()])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    exam = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    html = client_for(trainee).get(reverse("train:table", args=[exam.pk])).content.decode()
    assert "Does the dealer offer insurance?" in html
    assert "Insurance is offered on an ace up card" not in html
    assert "(insurance: true" not in html


def test_a_right_answer_is_recorded_and_the_next_question_shown(trainee, attempt):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    response = post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    assert response.status_code == 302
    assert response["Location"] == reverse("train:table", args=[attempt.pk])
    decision = Decision.objects.get()
    assert decision.answer == {"action": "pay", "amount": "37.50"}
    html = client.get(response["Location"]).content.decode()
    assert "Reshuffle or continue?" in html
    assert "Pay 37.50" in html


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("abc", "not a number of dollars and cents"),
        ("-5", "cannot be negative"),
        ("1.234", "paid to the cent, two places at most"),
        ("99999999", "over the 1,000,000 limit"),
    ],
)
def test_a_bad_amount_gets_a_clear_message_and_stores_nothing(trainee, attempt, amount, says):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    response = post_answer(client, attempt, 1, 1, action="pay", amount=amount)
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html
    assert 'aria-invalid="true"' in html
    assert not Decision.objects.exists()


def test_an_answer_to_a_question_not_asked_is_refused(trainee, attempt):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    response = post_answer(client, attempt, 2, 1, answer="stand")
    assert response.status_code == 409
    assert "not the question being asked" in response.content.decode()
    assert not Decision.objects.exists()


def test_a_repeated_identical_answer_makes_one_decision(trainee, attempt):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    again = post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    assert again.status_code == 302
    assert Decision.objects.count() == 1


def test_practice_shows_feedback_after_the_round(trainee, attempt):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    post_answer(client, attempt, 1, 1, action="pay", amount="30")
    client.get(reverse("train:table", args=[attempt.pk]))
    response = post_answer(client, attempt, 1, 2, answer="continue")
    feedback_url = reverse("train:feedback", args=[attempt.pk, 1])
    assert response["Location"] == feedback_url
    html = client.get(feedback_url).content.decode()
    assert "1 of 2 right" in html
    assert "Pay 37.50" in html
    assert "Pay 30.00" in html
    assert "Blackjack pays 3 to 2, rounded down" in html
    assert "Next round" in html


def test_an_exam_submits_and_shows_grading_then_results(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    exam = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    client = client_for(trainee)
    client.get(reverse("train:table", args=[exam.pk]))
    post_answer(client, exam, 1, 1, action="pay", amount="37.50")
    assert client.get(reverse("train:feedback", args=[exam.pk, 1])).status_code == 409
    asked = client.post(reverse("train:submit", args=[exam.pk]))
    assert asked.status_code == 200
    assert "End the exam now?" in asked.content.decode()
    assert Attempt.objects.get(pk=exam.pk).status == "in_progress"
    response = client.post(reverse("train:submit", args=[exam.pk]), {"confirm": "yes"})
    assert response["Location"] == reverse("train:results", args=[exam.pk])
    waiting = client.get(response["Location"]).content.decode()
    assert "Submitted — grading…" in waiting
    assert "37.50" not in waiting
    grading_run_execute(run_id=GradingRun.objects.get(attempt=exam).pk)
    graded = client.get(response["Location"]).content.decode()
    assert "Score <strong>50.00%</strong>" in graded
    assert "not passed" in graded
    assert "Pay 37.50" in graded


def test_starting_from_the_home_page_opens_the_table(trainee):
    drill = DrillFactory(documents=[simple_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    response = client_for(trainee).post(
        reverse("train:start"),
        # The briefing's Start button (an exam starts from its briefing: test_briefing.py).
        {"drill": drill.pk, "assignment": assignment.pk, "mode": "exam", "briefed": "yes"},
    )
    started = Attempt.objects.get()
    assert response["Location"] == reverse("train:table", args=[started.pk])
    assert started.mode == Mode.EXAM


def test_starting_someone_elses_assignment_is_not_found(trainee, other_trainee):
    drill = DrillFactory(documents=[simple_document()])
    theirs = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=other_trainee)
    response = client_for(trainee).post(
        reverse("train:start"), {"drill": drill.pk, "assignment": theirs.pk, "mode": "exam"}
    )
    assert response.status_code == 404
    assert not Attempt.objects.exists()


def test_pages_refuse_a_request_without_the_csrf_token(trainee, attempt):
    client = Client(enforce_csrf_checks=True)
    client.force_login(trainee)
    response = post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    assert response.status_code == 403
    assert not Decision.objects.exists()


def test_the_table_past_the_speed_time_box_submits_and_shows_the_results(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    speed = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED)
    Attempt.objects.filter(pk=speed.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    response = client_for(trainee).get(reverse("train:table", args=[speed.pk]))
    assert response["Location"] == reverse("train:results", args=[speed.pk])
    speed.refresh_from_db()
    assert speed.status == AttemptStatus.SUBMITTED
    assert GradingRun.objects.filter(attempt=speed).count() == 1


def test_the_table_page_does_not_query_per_answer_given(
    trainee, django_assert_num_queries, django_assert_max_num_queries
):
    drill = DrillFactory(documents=[insurance_document()])
    practice = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    client = client_for(trainee)
    url = reverse("train:table", args=[practice.pk])
    client.get(url)
    with django_assert_max_num_queries(100) as first:
        client.get(url)
    # Read now: the captured list is a window on a log the next request clears.
    before_any_answer = len(first.captured_queries)
    post_answer(client, practice, 1, 1, answer="offer")
    client.get(url)
    post_answer(client, practice, 1, 2, answer="peek:clear")
    client.get(url)
    post_answer(client, practice, 1, 3, action="take", amount="5")
    client.get(url)
    with django_assert_num_queries(before_any_answer):
        client.get(url)


def test_practice_results_show_every_rounds_verdict_while_grading_waits(trainee, attempt):
    client = client_for(trainee)
    client.get(reverse("train:table", args=[attempt.pk]))
    post_answer(client, attempt, 1, 1, action="pay", amount="37.50")
    client.post(reverse("train:submit", args=[attempt.pk]), {"confirm": "yes"})
    html = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Submitted — grading…" in html
    assert "Round 1" in html
    # Only what was put to the trainee: round 2 was never dealt to the table.
    assert "Round 2" not in html
    assert html.count("✔ right") == 1
    assert html.count("✘ wrong") == 0


def test_starting_a_retired_drill_is_not_found(trainee):
    drill = DrillFactory(documents=[simple_document()], is_active=False)
    response = client_for(trainee).post(reverse("train:start"), {"drill": drill.pk})
    assert response.status_code == 404
    assert not Attempt.objects.exists()


def test_starting_with_a_malformed_drill_id_says_so(trainee):
    response = client_for(trainee).post(reverse("train:start"), {"drill": "abc"})
    assert response.status_code == 400
    assert "drill must be a number" in response.content.decode()


def test_home_marks_what_is_overdue_and_what_is_due_soon(trainee):
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    late = AssignmentFactory(
        drill=DrillFactory(title="Late drill"), trainee=trainee, due_at=now - timedelta(hours=1)
    )
    soon = AssignmentFactory(
        drill=DrillFactory(title="Soon drill"), trainee=trainee, due_at=now + timedelta(hours=5)
    )
    later = AssignmentFactory(
        drill=DrillFactory(title="Later drill"), trainee=trainee, due_at=now + timedelta(days=9)
    )
    html = client_for(trainee).get(reverse("train:home")).content.decode()

    def row(assignment):
        return html.split(f'data-assignment="{assignment.pk}"', 1)[1].split("</tr>", 1)[0]

    assert "overdue" in row(late)
    assert "due soon" in row(soon)
    assert "overdue" not in row(later)
    assert "due soon" not in row(later)
