"""Blackjack's words (trainer.games.blackjack.words): questions and answers as a dealer reads
them, never the engine's names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from trainer import rules
from trainer.games.blackjack.display import table_view
from trainer.games.blackjack.words import (
    MONEY_NOTE,
    answer_label,
    answer_parts,
    key_text,
    question_text,
    seat_names,
)

LIBRARY = sorted((Path(__file__).parents[2] / "fixtures" / "scenarios").glob("*.jsonl"))
CARD_CODE = re.compile(r"\b[2-9TJQKA][shdc]\b")
# What an answer says: a question must not say it for the trainee.
ANSWER_WORDS = re.compile(r"\b(take half|surrender\w*|push\w*|hit|stand)\b", re.IGNORECASE)


def library_documents() -> list[dict]:
    """Blackjack's library entries (Casino's bare documents are read in tests/casino)."""
    return [
        json.loads(line)["scenario"]
        for path in LIBRARY
        for line in path.read_text().splitlines()
        if line.strip() and "scenario" in json.loads(line)
    ]


SHARED = {
    "format": "blackjack-scenario/1",
    "rules": "casino-shoe",
    "boxes": [
        {
            "box": 1,
            # The host is listed first: not the first by name.
            "stakes": [{"player": "zed", "amount": "25"}, {"player": "amy", "amount": "10"}],
            "insurance": {"zed": "10"},
            "actions": ["split", "double", "stand"],
        },
        {"box": 3, "stakes": [{"player": "b3p1", "amount": "50"}], "actions": ["surrender"]},
        {"box": 5, "stakes": [{"player": "p1", "amount": "15"}], "actions": []},
    ],
    "burn": ["Qh"],
    "shoe": ["8h", "Ts", "As", "Ac", "8d", "6h", "Kd", "7d", "3c", "Th", "Ks", "9s", "2c"],
    "cut_card_at": 10,
}


def test_seats_are_named_in_the_scenarios_order_whatever_the_views_key_order():
    seats = seat_names(SHARED)
    assert seats[(1, "zed")] == "Seat 1"
    assert seats[(1, "amy")] == "Seat 1, second player"
    assert seats[(3, "b3p1")] == "Seat 3"
    # PostgreSQL keeps a JSON object's keys in its own order: the view's order is not used.
    view = {"dealer": ["As"], "boxes": [{"box": 1, "hands": [
        {"cards": ["8h", "8d"], "stakes": {"amy": "10.00", "zed": "25.00"}}]}]}  # fmt: skip
    table = table_view(view, seats=seats)
    assert [stake[0] for stake in table["boxes"][0]["hands"][0]["stakes"]] == [
        "Seat 1",
        "Seat 1, second player",
    ]


def test_a_shared_boxs_settlement_names_each_player_by_seat_and_says_what_the_amount_is():
    texts = [key_text(q, SHARED) for q in rules.key_questions(SHARED)]
    settles = [t for t in texts if t.startswith("Settle the bet")]
    assert any(t.startswith("Settle the bet of Seat 1, second player: ") for t in settles)
    assert any("on hand 2, " in t for t in settles)
    assert any("Settle the insurance of Seat 1: 10.00." in t for t in texts)
    for text in texts:
        assert not re.search(r"\b(zed|amy|b3p1|p1)\b", text), text
        assert not CARD_CODE.search(text), text


def test_a_natural_is_blackjack_never_21():
    document = {
        "format": "blackjack-scenario/1",
        "rules": "casino-shoe",
        "boxes": [{"box": 3, "stakes": [{"player": "p1", "amount": "20"}], "actions": []}],
        "shoe": ["As", "9s", "Ks", "8s", "Qh"],
    }
    (settle,) = [q for q in rules.key_questions(document) if q.kind == rules.Kind.SETTLE_HAND]
    text = key_text(settle, document)
    assert text.startswith("Settle the bet of Seat 3: 20.00 on A♠ K♠ (Blackjack) against ")
    assert "21" not in text
    assert text.endswith(MONEY_NOTE)


@pytest.mark.parametrize("document", library_documents(), ids=lambda d: d.get("id", "?"))
def test_every_library_question_reads_in_the_pits_words(document):
    players = {s["player"] for box in document["boxes"] for s in box["stakes"]}
    for question in rules.key_questions(document):
        text = key_text(question, document)
        assert not CARD_CODE.search(text), text
        assert "natural" not in text.lower(), text
        for player in players:
            assert not re.search(rf"\b{re.escape(player)}\b", text), (player, text)
        # A question says what the table shows, never what the answer is.
        assert not ANSWER_WORDS.search(text.replace("Hit or stand?", "")), text
        if question.moves_money:
            assert text.endswith(MONEY_NOTE), text
        else:
            assert MONEY_NOTE not in text


def test_one_labeller_gives_the_pages_words_and_the_csvs_columns():
    cases = [
        ({"action": "pay", "amount": "37.50"}, "Pay 37.50", ("Pay", "37.50")),
        ({"action": "push", "amount": "0.00"}, "Push", ("Push", "0.00")),
        ({"action": "take_half", "amount": "5.00"}, "Take half 5.00", ("Take half", "5.00")),
        ({"answer": "peek", "dealer_blackjack": False}, "Peek: no natural",
         ("Peek: no natural", "")),
        ({"answer": "no_offer"}, "Don't offer", ("Don't offer", "")),
        (None, "—", ("", "")),
    ]  # fmt: skip
    for answer, label, parts in cases:
        assert answer_label(answer) == label
        assert answer_parts(answer) == parts


def test_a_question_without_a_document_names_players_in_the_views_order():
    question = rules.Question(
        n=1,
        kind=rules.Kind.SETTLE_INSURANCE,
        box=2,
        hand=None,
        player="b2p2",
        prompt="Box 2: settle b2p2's insurance of 5.00.",
        expected={"action": "take", "amount": "5.00"},
        rule="",
        view={"dealer": ["Ah", "9c"], "boxes": [{"box": 2, "hands": [
            {"cards": ["Td", "9s"], "stakes": {"b2p1": "10.00", "b2p2": "10.00"}}],
            "insurance": {"b2p2": "5.00"}}]},
    )  # fmt: skip
    assert question_text(question).startswith(
        "Settle the insurance of Seat 2, second player: 5.00."
    )
