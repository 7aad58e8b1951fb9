"""What the table shows beside the cards and stakes, for the answer key's views.

A dealer settles what lies on the layout: a hand given up, a doubled stake beside the
sideways card, a bust, a natural paid at even money, the cut card out of the shoe. The
answer key's `view` carries these facts so the table drawn for a question shows all the
question needs. Only what a dealer could see at that moment goes in, never an answer.

Each hand fact is present (true) only when it holds, so a view stays as small as before for
a plain hand, and views stored before these facts existed read the same as a plain hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .money import fmt
from .results import BoxResult, HandResult, Round


def played_hand_facts(hand: HandResult, original: Mapping[str, Decimal]) -> dict[str, Any]:
    """A finished hand's facts: how it was played and how it stands (not how it settles)."""
    facts: dict[str, Any] = {}
    if hand.split:
        facts["split"] = True
    if hand.natural:
        facts["blackjack"] = True
    if hand.doubled:
        facts["doubled"] = True
        # The stake before the double, so the double is drawn as its own stack beside it.
        facts["before_double"] = {p: fmt(original[p]) for p in hand.stakes}
    if hand.outcome == "surrender":
        facts["surrendered"] = True
    elif hand.total > 21:
        facts["bust"] = True
    if len(hand.cards) == 3 and all(c[0] == "7" for c in hand.cards):
        facts["three_sevens"] = True
    return facts


def dealt_hand_facts(box: BoxResult) -> dict[str, Any]:
    """A box's first two cards, just dealt: only a natural shows yet."""
    return {"blackjack": True} if box.hands[0].natural else {}


def shoe_facts(result: Round, dealt: int) -> dict[str, Any]:
    """The shoe when `dealt` cards of this round have left it: the burn, where the cut card
    lies (before the shoe card with index `cut_card_at`, null when none is placed) and
    whether it has come out (a card at or past it was dealt)."""
    cut = result.cut_card_at
    return {
        "burned": result.profile.burn,
        "cut_card_at": cut,
        "dealt": dealt,
        "cut_card_out": cut is not None and dealt > cut,
    }


def even_money_taken(box: BoxResult, players: tuple[str, ...]) -> dict[str, str]:
    """The stakes of those of `players` on the box who took even money."""
    return {p: fmt(s) for p, s in box.stakes if p in players}
