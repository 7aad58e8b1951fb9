"""The table's words and buttons come from the engine's vocabulary; one labeller serves the
trainee's pages and the pit's drill-down."""

import json

import pytest

from trainer.games.blackjack.display import (
    SETTLEMENT_CHOICES,
    VOCABULARY_JSON,
    answer_label,
    button_answer,
    card,
    procedure_buttons,
    table_view,
)
from trainer.rules import PROCEDURE_ANSWERS, Kind, MoneyAction, ProcedureAnswer


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ({"action": "pay", "amount": "37.50"}, "Pay 37.50"),
        ({"action": "take_half", "amount": "5.00"}, "Take half 5.00"),
        ({"action": "push", "amount": "0.00"}, "Push"),
        ({"answer": "no_offer"}, "Don't offer"),
        ({"answer": "peek", "dealer_blackjack": False}, "Peek: no natural"),
        ({"answer": "hit", "total": 11, "soft": False}, "Hit"),
        (None, "—"),
        (
            {"action": "pay", "amount": "37.50", "chips": ["25", "5", "5", "2.50"]},
            "Pay 37.50 in 25 + 5 + 5 + 2.50",
        ),
        ({"amount": "28.00", "chips": ["25", "2.50", "0.50"]}, "28.00 in 25 + 2.50 + 0.50"),
    ],
)
def test_an_answer_in_words(answer, label):
    assert answer_label(answer) == label


def test_the_pit_asks_for_the_stated_total_and_names_a_missing_answer():
    assert answer_label({"answer": "hit", "total": 17, "soft": True}, details=True) == (
        "Hit (total 17, soft)"
    )
    assert answer_label(None, details=True, missing="no answer") == "no answer"


def test_every_procedure_kind_has_buttons_and_each_posts_an_accepted_answer():
    for kind, words in PROCEDURE_ANSWERS.items():
        buttons = procedure_buttons({"kind": kind.value})
        assert buttons, kind
        posted = {button_answer(b.value)["answer"] for b in buttons}
        assert posted == {w.value for w in words}
        keys = [b.key for b in buttons]
        assert len(keys) == len(set(keys)), kind
    assert procedure_buttons({"kind": Kind.SETTLE_HAND.value}) == ()
    assert button_answer("peek:natural") == {"answer": "peek", "dealer_blackjack": True}
    assert button_answer("stand") == {"answer": ProcedureAnswer.STAND}


def test_the_settlement_choices_and_the_scripts_vocabulary_follow_the_enums():
    assert [b.value for b in SETTLEMENT_CHOICES] == [a.value for a in MoneyAction]
    vocabulary = json.loads(VOCABULARY_JSON)
    assert vocabulary["money_actions"] == ["pay", "take", "push", "take_half"]
    assert vocabulary["moves_no_money"] == ["push"]
    assert vocabulary["procedure_answers"]["peek"] == ["peek", "no_peek"]


def test_one_table_view_marks_the_question_or_nothing():
    view = {
        "dealer": ["Ah", None],
        "boxes": [
            {"box": 1, "hands": [{"cards": ["Td", "9s"], "stakes": {"p1": "10.00"}}]},
            {"box": 3, "hands": [{"cards": ["8c", "8d"], "stakes": {"p2": "5.00"}}],
             "insurance": {"p2": "2.50"}},
        ],
    }  # fmt: skip
    pit = table_view(view)
    assert [c.label for c in pit["dealer"]] == ["ace of hearts", "face-down card"]
    assert not any(box["current"] for box in pit["boxes"])
    assert pit["boxes"][1]["insurance"] == [("Seat 3", "2.50")]
    trainee = table_view(view, box=3, hand=None)
    assert [box["current"] for box in trainee["boxes"]] == [False, True]
    assert card("Td").rank == "10"


def test_question_kinds_categories_and_rules_read_as_a_dealer_says_them():
    from trainer.games.blackjack.display import kind_label
    from trainer.games.blackjack.rule_words import rule_text
    from trainer.labels import category_label

    assert kind_label("settle_hand") == "Settle a hand"
    assert kind_label("dealer_play") == "Dealer's draw"
    assert category_label("wrong_outcome") == "Wrong outcome"
    assert category_label("insurance_error") == "Insurance error"
    assert category_label("") == ""
    assert (
        rule_text("Late surrender gives back half the stake (surrender: late, casino-shoe)")
        == "Late surrender gives back half the stake"
    )
    assert rule_text("Dealer peeks under an ace (hole_card: peek, casino-shoe)") == (
        "Dealer peeks under an ace"
    )
    assert rule_text("Insurance loses: it is settled at the peek (casino-shoe)") == (
        "Insurance loses: it is settled at the peek"
    )
    # A rule without the engine's parenthesis is left as it is.
    assert (
        rule_text("Blackjack pays 3 to 2 (on a natural)") == "Blackjack pays 3 to 2 (on a natural)"
    )


def test_cards_read_as_rank_and_suit_not_the_engines_codes():
    from trainer.games.blackjack.words import dealer_words

    assert dealer_words("Box 1, hand 1 (Ts 9c, 19) against the dealer's 7d") == (
        "Box 1, hand 1 (10♠ 9♣, 19) against the dealer's 7♦"
    )
    assert dealer_words("The dealer holds Ah 6d (soft 17). Hit or stand?") == (
        "The dealer holds A♥ 6♦ (soft 17). Hit or stand?"
    )
    assert dealer_words("no cards here: 25.00 to p1") == "no cards here: 25.00 to p1"
