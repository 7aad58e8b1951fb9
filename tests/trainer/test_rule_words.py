"""A round's rule change and a shoe without a cut card, as a trainee reads the rule a
question rests on (issue #24): in a dealer's words, never the engine's parameters."""

from __future__ import annotations

from trainer import rules
from trainer.games.blackjack.rule_words import rule_text

CHANGED = {
    "format": "blackjack-scenario/1",
    "id": "six-to-five",
    "rules": {
        "profile": "casino-shoe",
        "overrides": {"blackjack_pays": "6:5", "dealer_hits_soft_17": True},
    },
    "boxes": [
        {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": []},
        {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "actions": ["stand"]},
    ],
    "shoe": ["As", "Th", "6d", "Kc", "9h", "5s", "Td"],
}


def test_a_rule_change_is_said_in_words():
    said = [rule_text(item["rule"]) for item in rules.answer_key(CHANGED)]
    natural = next(text for text in said if text.startswith("Blackjack pays 6 to 5"))
    assert natural.endswith(
        "(rule change: this table pays 6 to 5 on blackjack; the dealer hits soft 17)"
    )
    for text in said:
        assert "casino-shoe" not in text
        assert "_" not in text
        assert "=" not in text


def test_a_shoe_without_a_cut_card_is_said_plainly():
    (reshuffle,) = [i for i in rules.answer_key(CHANGED) if i["kind"] == "reshuffle"]
    assert rule_text(reshuffle["rule"]) == "This shoe has no cut card: keep dealing"


def test_the_rule_of_an_unchanged_table_keeps_its_words_without_the_engine_s():
    assert rule_text("A natural pays 3 to 2 (blackjack_pays: 3:2, casino-shoe)") == (
        "A natural pays 3 to 2"
    )
