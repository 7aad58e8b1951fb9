"""Answers are strict (issue #23, finding 8): a field the question does not take is refused
naming it, never ignored; a chip must be on the table's rack (the question's `rack`); a
refused answer records nothing — by the API, the table's form and the service alike."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import ProductError
from ledger.models import LedgerEntry
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, chip_document, natural_document, simple_document
from trainer.games.blackjack import answer_fields, parse_answer
from trainer.models import Decision, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db

# The chip round's table (casino-shoe) racks 500, 100, 25, 5, 2.50, 1 and 0.50.
PAY = {"action": "pay", "chips": ["25", "5", "5", "2.50"]}


@pytest.fixture
def api(trainee) -> APIClient:
    client = APIClient()
    client.force_login(trainee)
    return client


def started(trainee, *documents):
    drill = DrillFactory(documents=list(documents))
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def answer(api, attempt, body: dict, position: int = 1, question: int = 1):
    assert api.get(f"/api/attempts/{attempt.pk}/question").status_code == 200
    payload = {"position": position, "question": question, "answer": body}
    return api.post(f"/api/attempts/{attempt.pk}/answers", payload, format="json")


class Nothing:
    """Nothing recorded between two points: no decision, no ledger entry."""

    def __init__(self) -> None:
        self.decisions = Decision.objects.count()
        self.ledger = LedgerEntry.objects.count()

    def recorded(self) -> bool:
        return (
            Decision.objects.count() == self.decisions
            and LedgerEntry.objects.count() == self.ledger
        )


# Unknown fields.


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "pay", "amount": "37.50", "note": "x"}, "answer.note"),
        ({"action": "pay", "amount": "37.50", "Amount": "1"}, "answer.Amount"),
        ({"action": "pay", "amount": "37.50", "q" * 5000: 1}, "answer." + "q" * 30 + "…"),
    ],
)
def test_a_field_no_answer_takes_is_refused_naming_it(api, trainee, body, field):
    attempt = started(trainee, natural_document())
    before = Nothing()
    response = answer(api, attempt, body)
    assert response.status_code == 400
    error = response.json()
    assert error["field"] == field
    assert error["code"] == "unknown_field"
    assert len(response.content) < 600
    assert before.recorded()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # The first question settles a natural: a money question takes action and amount.
        ({"action": "pay", "amount": "37.50", "answer": "stand"}, "answer.answer"),
        (
            {"action": "pay", "amount": "37.50", "dealer_blackjack": False},
            "answer.dealer_blackjack",
        ),
        ({"action": "pay", "amount": "37.50", "chips": ["25"]}, "answer.chips"),
        ({"action": "pay", "amount": "37.50", "total": 21}, "answer.total"),
    ],
)
def test_a_field_this_question_does_not_take_is_refused(api, trainee, body, field):
    attempt = started(trainee, natural_document())
    before = Nothing()
    response = answer(api, attempt, body)
    assert response.status_code == 400
    error = response.json()
    assert error["field"] == field
    assert "takes action, amount" in error["error"]
    assert before.recorded()


def test_the_right_answer_alone_is_still_recorded(api, trainee):
    attempt = started(trainee, natural_document())
    response = answer(api, attempt, {"action": "pay", "amount": "37.50"})
    assert response.status_code == 201


def test_a_stated_dealer_total_is_recorded_and_checked(trainee):
    key = {
        "kind": "dealer_play",
        "expected": {"answer": "stand", "total": 17, "soft": False},
    }
    from trainer import rules

    parsed = parse_answer("dealer_play", {"answer": "stand", "total": 18, "soft": False})
    assert parsed == {"answer": "stand", "total": 18, "soft": False}
    assert not rules.compare(key, parsed).right
    for bad, field in (({"total": "17"}, "total"), ({"total": 99}, "total"), ({"soft": 1}, "soft")):
        with pytest.raises(ProductError) as refused:
            parse_answer("dealer_play", {"answer": "stand", **bad})
        assert refused.value.field == field


def test_a_peek_s_finding_goes_with_a_peek_only():
    assert parse_answer("peek", {"answer": "peek", "dealer_blackjack": False}) == {
        "answer": "peek",
        "dealer_blackjack": False,
    }
    with pytest.raises(ProductError) as refused:
        parse_answer("peek", {"answer": "no_peek", "dealer_blackjack": True})
    assert refused.value.field == "dealer_blackjack"


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("settle_hand", ("action", "amount")),
        ("pay_in_chips", ("action", "amount", "chips")),
        ("colour_up", ("chips", "amount")),
        ("peek", ("answer", "dealer_blackjack")),
        ("dealer_play", ("answer", "total", "soft")),
        ("reshuffle", ("answer",)),
    ],
)
def test_each_kind_names_the_fields_it_takes(kind, fields):
    assert answer_fields(kind) == fields


# The rack.


@pytest.mark.parametrize(
    "chips",
    [["25", "5", "5", "2.50", "1000"], ["20", "10", "5", "2.50"], ["37.50"], ["0.25"] * 150],
)
def test_a_chip_not_on_the_table_s_rack_is_refused_by_the_api(api, trainee, chips):
    attempt = started(trainee, chip_document())
    before = Nothing()
    response = answer(api, attempt, {"action": "pay", "chips": chips})
    assert response.status_code == 400
    error = response.json()
    assert error["field"] == "chips"
    assert error["code"] == "not_on_rack"
    assert "is not a chip of this table's rack (500, 100, 25, 5, 2.50, 1, 0.50)" in error["error"]
    assert before.recorded()


def test_a_chip_on_the_rack_in_another_spelling_is_taken(api, trainee):
    attempt = started(trainee, chip_document())
    response = answer(api, attempt, {"action": "pay", "chips": ["25.00", "5", "5.0", "2.5"]})
    assert response.status_code == 201
    assert response.json()["decision"]["answer"]["chips"] == ["25", "5", "5", "2.50"]


def test_an_amount_beside_the_chips_must_be_their_worth(api, trainee):
    attempt = started(trainee, chip_document())
    before = Nothing()
    wrong = answer(api, attempt, {**PAY, "amount": "40.00"})
    assert wrong.status_code == 400
    assert wrong.json()["field"] == "amount"
    assert "worth 37.50" in wrong.json()["error"]
    assert before.recorded()
    right = answer(api, attempt, {**PAY, "amount": "37.50"})
    assert right.status_code == 201


def test_chips_go_with_a_payment_only(api, trainee):
    attempt = started(trainee, chip_document())
    before = Nothing()
    response = answer(api, attempt, {"action": "take", "chips": ["25"]})
    assert response.status_code == 400
    assert response.json()["field"] == "chips"
    assert before.recorded()


def test_a_colour_up_takes_chips_from_the_rack_only(api, trainee):
    attempt = started(trainee, chip_document())
    assert answer(api, attempt, PAY).status_code == 201
    before = Nothing()
    response = answer(api, attempt, {"chips": ["20", "10", "5", "1"]}, question=2)
    assert response.status_code == 400
    assert response.json()["code"] == "not_on_rack"
    assert "'20' is not a chip" in response.json()["error"]
    assert before.recorded()
    assert answer(api, attempt, {"chips": ["25", "5", "5", "1"]}, question=2).status_code == 201


def _post_form(client, attempt, data):
    client.get(reverse("train:table", args=[attempt.pk]))
    url = reverse("train:answer", args=[attempt.pk])
    return client.post(url, {"position": 1, "question": 1, "rack": "chips", **data})


@pytest.mark.parametrize(
    "data",
    [
        {"action": "pay", "count-1000": "1", "count-25": "1"},
        {"action": "pay", "chips": ["25", "10", "2.50"]},
    ],
)
def test_the_table_s_form_refuses_a_chip_not_on_the_rack(trainee, data):
    attempt = started(trainee, chip_document())
    client = client_for(trainee)
    before = Nothing()
    response = _post_form(client, attempt, data)
    assert response.status_code == 400
    assert "is not a chip of this table&#x27;s rack" in response.content.decode()
    assert before.recorded()


def test_the_table_s_form_still_takes_a_stack_from_the_rack(trainee):
    attempt = started(trainee, chip_document(), simple_document())
    client = client_for(trainee)
    response = _post_form(
        client, attempt, {"action": "pay", "count-25": "1", "count-5": "2", "count-2.50": "1"}
    )
    assert response.status_code == 302
    assert Decision.objects.get().answer["chips"] == ["25", "5", "5", "2.50"]
