"""A chip answer as the table posts it: parsed into what the grader compares, or refused
with the field at fault."""

from decimal import Decimal

import pytest

from core.errors import ProductError
from trainer import rules
from trainer.games.blackjack import parse_answer

KEY = {
    "kind": "pay_in_chips",
    "expected": {
        "action": "pay",
        "amount": "37.50",
        "chips": ["25", "5", "5", "2.50"],
        "settles": "settle_hand",
    },
}


def test_a_stack_is_parsed_largest_first_with_its_worth_and_graded():
    parsed = parse_answer("pay_in_chips", {"action": "pay", "chips": ["2.50", "5", "25", "5.00"]})
    assert parsed == {"action": "pay", "amount": "37.50", "chips": ["25", "5", "5", "2.50"]}
    assert rules.compare(KEY, parsed).right
    reds = parse_answer("pay_in_chips", {"action": "pay", "chips": ["5"] * 7 + ["2.50"]})
    verdict = rules.compare(KEY, reds)
    assert (verdict.right, verdict.category, verdict.money_diff) == (
        False,
        rules.Category.WRONG_CHIPS,
        Decimal(0),
    )


def test_a_payout_question_answered_by_taking_is_a_money_answer():
    parsed = parse_answer("pay_in_chips", {"action": "take", "amount": "25"})
    assert parsed == {"action": "take", "amount": "25.00"}
    assert rules.compare(KEY, parsed).category is rules.Category.WRONG_OUTCOME


def test_a_payout_in_figures_alone_is_right_money_wrong_chips():
    parsed = parse_answer("pay_in_chips", {"action": "pay", "amount": "37.50"})
    assert parsed == {"action": "pay", "amount": "37.50"}
    verdict = rules.compare(KEY, parsed)
    assert (verdict.right, verdict.category) == (False, rules.Category.WRONG_CHIPS)


def test_colour_up_and_change_take_chips_alone():
    assert parse_answer("colour_up", {"chips": ["25", "1"]}) == {
        "amount": "26.00",
        "chips": ["25", "1"],
    }
    assert parse_answer("change", {"chips": ["25"] * 4})["amount"] == "100.00"


@pytest.mark.parametrize(
    ("kind", "answer", "says"),
    [
        ("colour_up", {}, "chips must be a list"),
        ("colour_up", {"chips": []}, "chips must be a list"),
        ("change", {"chips": [25]}, "not a number"),
        ("change", {"chips": ["-5"]}, "a chip's"),
        ("pay_in_chips", {"action": "pay", "chips": "25"}, "chips must be a list"),
        ("colour_up", {"chips": ["1"] * 201}, "at most 200"),
    ],
)
def test_a_bad_chip_answer_names_the_chips(kind, answer, says):
    with pytest.raises(ProductError) as caught:
        parse_answer(kind, answer)
    assert caught.value.field == "chips"
    assert says in str(caught.value)
