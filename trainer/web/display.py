"""How the table draws a question: cards, stakes as chips, answer buttons and labels."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SUITS = {"s": ("♠", False), "h": ("♥", True), "d": ("♦", True), "c": ("♣", False)}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
# Chip values a dealer clicks to build an amount, in dollars.
CHIPS = ("0.50", "1", "5", "25", "100", "500")


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str
    red: bool
    label: str
    hidden: bool = False


HIDDEN = Card(rank="", suit="", red=False, label="face-down card", hidden=True)


def card(code: str | None) -> Card:
    """A card code such as 'Th' as the table draws it; None is the face-down hole card."""
    if not code:
        return HIDDEN
    rank, suit = code[:-1].upper(), code[-1].lower()
    rank = "10" if rank in ("T", "10") else rank
    symbol, red = SUITS[suit]
    name = RANK_NAMES.get(rank, rank)
    return Card(rank=rank, suit=symbol, red=red, label=f"{name} of {SUIT_NAMES[suit]}")


def table_view(question: Mapping[str, Any]) -> dict[str, Any]:
    """The dealer's cards and each box's hands and stakes, marking what the question is about."""
    view = question["view"]
    boxes = []
    for box in view.get("boxes", []):
        hands = [
            {
                "index": index,
                "cards": [card(c) for c in hand["cards"]],
                "stakes": sorted(hand["stakes"].items()),
                "current": box["box"] == question["box"] and (question["hand"] in (None, index)),
            }
            for index, hand in enumerate(box["hands"], start=1)
        ]
        boxes.append(
            {
                "box": box["box"],
                "hands": hands,
                "insurance": sorted(box.get("insurance", {}).items()),
                "current": box["box"] == question["box"],
            }
        )
    return {"dealer": [card(c) for c in view.get("dealer", [])], "boxes": boxes}


@dataclass(frozen=True)
class Button:
    value: str
    label: str
    key: str


_BUTTONS: dict[str, tuple[Button, ...]] = {
    "offer_insurance": (Button("offer", "Offer", "O"), Button("no_offer", "Don't offer", "N")),
    "offer_even_money": (Button("offer", "Offer", "O"), Button("no_offer", "Don't offer", "N")),
    "peek": (
        Button("peek:clear", "Peek: no natural", "K"),
        Button("peek:natural", "Peek: dealer natural", "B"),
        Button("no_peek", "Don't peek", "N"),
    ),
    "dealer_play": (Button("hit", "Hit", "H"), Button("stand", "Stand", "S")),
    "reshuffle": (Button("reshuffle", "Reshuffle", "R"), Button("continue", "Continue", "C")),
}
SETTLEMENT_CHOICES = (
    Button("pay", "Pay", "P"),
    Button("take", "Take", "T"),
    Button("push", "Push", "U"),
    Button("take_half", "Take half", "H"),
)


def procedure_buttons(question: Mapping[str, Any]) -> tuple[Button, ...]:
    """The answer buttons of a procedure question (none for a settlement)."""
    return _BUTTONS.get(question["kind"], ())


_WORDS = {
    "offer": "Offer",
    "no_offer": "Don't offer",
    "peek": "Peek",
    "no_peek": "Don't peek",
    "hit": "Hit",
    "stand": "Stand",
    "reshuffle": "Reshuffle",
    "continue": "Continue",
}
_ACTIONS = {"pay": "Pay", "take": "Take", "push": "Push", "take_half": "Take half"}


def answer_label(answer: Mapping[str, Any] | None) -> str:
    """An answer in words: 'Pay 37.50', 'Peek: no natural', '—' when there is none."""
    if not answer:
        return "—"
    if "action" in answer:
        action = _ACTIONS.get(str(answer["action"]), str(answer["action"]))
        return action if answer["action"] == "push" else f"{action} {answer.get('amount', '')}"
    word = _WORDS.get(str(answer.get("answer")), str(answer.get("answer")))
    if "dealer_blackjack" in answer:
        word += ": dealer natural" if answer["dealer_blackjack"] else ": no natural"
    return word
