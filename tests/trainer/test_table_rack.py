"""The chip rack at the table (issue 14): a chip question is answered with a stack of chips,
by clicking the rack (the browser posts one `chips` field a chip) or, without JavaScript,
by how many of each chip; the page never holds the key; the API takes the same stacks."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import profile_version
from tests.graded import client_for
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    change_document,
    chip_document,
)
from trainer.models import Decision, DrillKind, GradingRun, Mode
from trainer.selectors.attempts import attempt_current_question
from trainer.services.attempts import attempt_start, decision_record
from trainer.services.drills import drill_create
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt(trainee):
    drill = DrillFactory(title="Chips", documents=[chip_document(), change_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)


def table(client, attempt) -> str:
    response = client.get(reverse("train:table", args=[attempt.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post(client, attempt, position, question, data):
    """The answer as the table's form posts it, the question shown first (its clock)."""
    client.get(reverse("train:table", args=[attempt.pk]))
    url = reverse("train:answer", args=[attempt.pk])
    rack = {} if "answer" in data else {"rack": "chips"}
    return client.post(url, {"position": position, "question": question, **rack, **data})


def test_a_pay_in_chips_question_shows_the_rack_and_not_the_key(trainee, attempt):
    html = table(client_for(trainee), attempt)
    assert "Pay it in chips from the rack" in html
    # The table's chips, largest first, each a button with its key, and a count field each.
    rack = re.findall(r'data-rack-chip="([^"]+)"', html)
    assert rack == ["500", "100", "25", "5", "2.50", "1", "0.50"]
    assert "<kbd>3</kbd>" in html  # the 25, third largest
    assert 'name="count-25"' in html
    assert "How many 25s" in html
    assert "Undo" in html
    assert "Clear" in html
    # Still a payout: the action is chosen as on any money question.
    assert 'name="action" value="pay"' in html
    assert "A dealer pays this in 8 s" in html
    # The stake as its chips lie, in their colours (no generic chip that is no denomination).
    assert re.search(r"Stake in question: <strong>25.00</strong>.*?mini-chip chip-green", html)
    assert "Paid in the fewest chips" in html
    assert 'aria-live="polite"' in html
    # The key is nowhere: not the amount, not the stack.
    assert "37.5" not in html
    assert "25 + 5 + 5 + 2.50" not in html
    assert "settles" not in html


def test_colour_up_shows_the_pile_and_asks_for_the_stack_alone(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    post(client, attempt, 1, 1, {"action": "pay", "chips": ["25", "5", "5", "2.50"]})
    html = table(client, attempt)
    assert "Colour up" in html
    assert "6 × 5, 6 × 1" in html
    assert html.count('class="stack-chip chip-red"') >= 6  # the pile drawn
    assert 'name="action"' not in html
    assert "A dealer colours this up in 10 s" in html
    assert "25, 5, 5, 1" not in html


def test_change_shows_the_cash_on_the_layout(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    post(client, attempt, 1, 1, {"action": "pay", "chips": ["25", "5", "5", "2.50"]})
    post(client, attempt, 1, 2, {"chips": ["25", "5", "5", "1"]})
    post(client, attempt, 1, 3, {"answer": "continue"})
    html = table(client, attempt)
    assert "Cash 80.00" in html
    assert "A dealer changes this in 6 s" in html


def test_the_stack_posted_chip_by_chip_is_recorded_and_right(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    response = post(client, attempt, 1, 1, {"action": "pay", "chips": ["25", "5", "5", "2.50"]})
    assert response.status_code == 302
    decision = Decision.objects.get()
    assert decision.answer == {
        "action": "pay",
        "amount": "37.50",
        "chips": ["25", "5", "5", "2.50"],
    }


def test_counts_without_javascript_make_the_stack(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    counts = {"count-25": "1", "count-5": "2", "count-2.50": "1", "count-100": "", "count-1": "0"}
    response = post(client, attempt, 1, 1, {"action": "pay", **counts})
    assert response.status_code == 302
    assert Decision.objects.get().answer["chips"] == ["25", "5", "5", "2.50"]
    response = post(client, attempt, 1, 2, {"count-25": "1", "count-5": "2", "count-1": "1"})
    assert response.status_code == 302
    assert Decision.objects.get(question=2).answer == {
        "amount": "36.00",
        "chips": ["25", "5", "5", "1"],
    }


def test_right_money_in_the_wrong_chips_is_said_so_in_the_feedback(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    post(client, attempt, 1, 1, {"action": "pay", "count-5": "7", "count-2.50": "1"})
    post(client, attempt, 1, 2, {"chips": ["25", "5", "5", "1"]})
    response = post(client, attempt, 1, 3, {"answer": "continue"})
    assert response["Location"] == reverse("train:feedback", args=[attempt.pk, 1])
    html = client.get(response["Location"]).content.decode()
    assert "Right money, wrong chips" in html
    assert "wrong_chips" not in html
    # Both stacks, in words and drawn.
    assert "Pay 37.50 in 5 + 5 + 5 + 5 + 5 + 5 + 5 + 2.50" in html
    assert "Pay 37.50 in 25 + 5 + 5 + 2.50" in html
    assert "The fewest chips" in html or "fewest chips" in html
    assert 'class="mini-chip chip-green">25<' in html


def test_a_non_pay_answer_sends_no_chips(trainee, attempt):
    client = client_for(trainee)
    table(client, attempt)
    response = post(client, attempt, 1, 1, {"action": "push", "count-25": "1"})
    assert response.status_code == 302
    assert Decision.objects.get().answer == {"action": "push", "amount": "0.00"}


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({"count-25": "-1"}, "count-25", "cannot be negative"),
        ({"count-25": "two"}, "count-25", "whole number"),
        ({"count-25": "1.5"}, "count-25", "whole number"),
        ({"count-5": "150", "count-1": "51"}, "chips", "at most 200 chips"),
        ({"count-7": "1"}, "count-7", "not one of this table"),
        ({}, "chips", "the stack is empty"),
        ({"chips": ["25", "abc"]}, "chips", "chip"),
    ],
)
def test_bad_counts_are_refused_naming_the_field_and_record_nothing(
    trainee, attempt, data, field, says
):
    client = client_for(trainee)
    table(client, attempt)
    response = post(client, attempt, 1, 1, {"action": "pay", **data})
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html
    if field == "count-25":
        assert re.search(rf'name="{re.escape(field)}"[^>]*aria-invalid="true"', html)
    assert not Decision.objects.exists()


# The API.


@pytest.fixture
def shown(api, attempt):
    response = api.get(f"/api/attempts/{attempt.pk}/question")
    assert response.status_code == 200
    return response.json()["question"]


def test_the_api_question_names_the_rack_and_never_the_key(api, attempt, shown):
    assert shown["kind"] == "pay_in_chips"
    assert shown["rack"] == ["500", "100", "25", "5", "2.50", "1", "0.50"]
    assert shown["target_seconds"] == 8
    assert "chips" not in shown
    assert "37.5" not in str(shown)


def test_the_api_takes_an_answer_in_chips_and_then_shows_the_pile(api, attempt, shown):
    url = f"/api/attempts/{attempt.pk}/answers"
    body = {
        "position": 1,
        "question": 1,
        "answer": {"action": "pay", "chips": ["25", "5", "5", "2.50"]},
    }
    response = api.post(url, body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["decision"]["answer"]["chips"] == ["25", "5", "5", "2.50"]
    question = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    assert question["kind"] == "colour_up"
    assert question["pile"] == ["5"] * 6 + ["1"] * 6
    body = {"position": 1, "question": 2, "answer": {"chips": ["25", "5", "5", "1"]}}
    assert api.post(url, body, format="json").status_code == 201


def test_the_api_refuses_chips_as_json_numbers(api, attempt, shown):
    url = f"/api/attempts/{attempt.pk}/answers"
    body = {"position": 1, "question": 1, "answer": {"action": "pay", "chips": [25, 5, 5, 2.5]}}
    response = api.post(url, body, format="json")
    assert response.status_code == 400
    assert "chips" in str(response.json())
    assert not Decision.objects.exists()


@pytest.mark.parametrize(
    ("profile", "paid"),
    [
        ("casino-shoe", "Paid in the fewest chips, the larger chips first"),
        (
            "casino-single-deck-6to5",
            "Paid in the bet's colours for each whole bet, then the fewest",
        ),
    ],
)
def test_the_house_rules_state_the_tables_chips_and_its_chip_rule(profile, paid):
    said = profile_version(profile).house_rules
    assert paid in " | ".join(said)
    assert any(line.startswith("Chips: ") and "2.50, 5, 25" in line for line in said)
    assert "Cash is changed into chips no larger than 25" in said


@pytest.mark.parametrize(
    "data",
    [{"count-25": "1"}, {"amount": "25.00"}],  # without the script; with it (the stack's worth)
)
def test_a_payout_taken_is_a_money_answer_of_the_stacks_worth(trainee, attempt, data):
    client = client_for(trainee)
    response = post(client, attempt, 1, 1, {"action": "take", **data})
    assert response.status_code == 302
    assert Decision.objects.get().answer == {"action": "take", "amount": "25.00"}


def test_a_refused_stack_comes_back_on_the_rack(trainee, attempt):
    client = client_for(trainee)
    response = post(client, attempt, 1, 1, {"action": "pay", "chips": ["25", "5", "5", "-2.50"]})
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'name="count-25"[^>]*value="1"', html)
    assert re.search(r'name="count-5"[^>]*value="2"', html)
    assert re.search(r'value="pay" data-key="P" required checked', html)


@pytest.mark.parametrize("skill", ["pay-in-chips", "colour-up", "change"])
def test_a_generated_chip_drill_deals_its_rounds_to_the_rack(trainee, pit_boss, skill):
    drill = drill_create(
        title=f"Generated {skill}",
        kind=DrillKind.GENERATED,
        user=pit_boss,
        profile_version=profile_version("european-enhc-6deck"),
        skills=[skill],
        count=1,
    )
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    client = client_for(trainee)
    for _ in range(40):
        html = table(client, attempt)
        if "data-rack-form" in html:
            # This table's rack, largest first: its 1000 chip too.
            assert re.findall(r'data-rack-chip="([^"]+)"', html)[0] == "1000"
            return
        # Not the chip question yet: answer what is asked, right, and go on.
        current = attempt_current_question(attempt=attempt)
        assert current is not None
        decision_record(
            attempt=attempt,
            user=trainee,
            position=current.item.position,
            question=current.n,
            answer=current.key["expected"],
        )
    pytest.fail("no chip question in the round")


def test_the_graded_results_draw_both_stacks_with_the_chip_mistake(trainee, attempt):
    client = client_for(trainee)
    post(client, attempt, 1, 1, {"action": "pay", "count-5": "7", "count-2.50": "1"})
    post(client, attempt, 1, 2, {"chips": ["25", "5", "5", "1"]})
    post(client, attempt, 1, 3, {"answer": "continue"})
    before = client.get(reverse("train:results", args=[attempt.pk]))
    assert before.status_code == 302  # still in progress: back to the table
    client.post(reverse("train:submit", args=[attempt.pk]), {"confirm": "yes"})
    waiting = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    # Before grading, practice shows the engine's verdicts already, the chip mistake named.
    assert "Right money, wrong chips" in waiting
    grading_run_execute(run_id=GradingRun.objects.get(attempt=attempt).pk)
    html = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Right money, wrong chips" in html
    assert "Pay 37.50 in 25 + 5 + 5 + 2.50" in html
    assert html.count('class="mini-chip chip-red"') >= 7 + 2 + 2  # given, expected, colour up
