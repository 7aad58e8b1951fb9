"""Hypothesis strategies for random legal rounds, built through fill_actions."""

import random
from decimal import Decimal
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from trainer.rules import PROFILES, DecisionPoint, ScenarioError, fill_actions, profile_from_rules
from trainer.rules.cards import RANKS, SUITS, VALUE

CARDS = [rank + suit for rank in RANKS for suit in SUITS]
# Rule overrides worth mixing in, with the values each may take.
OVERRIDES: dict[str, list[Any]] = {
    "dealer_hits_soft_17": [True, False],
    "hole_card": ["peek", "enhc"],
    "blackjack_pays": ["3:2", "6:5", "1:1"],
    "insurance": [True, False],
    "even_money": [True, False],
    "double_on": ["any", "9-11", "10-11"],
    "double_after_split": [True, False],
    "double_for_less": [True, False],
    "split_unlike_tens": [True, False],
    "max_split_hands": [None, 2, 3, 4],
    "resplit_aces": [True, False],
    "hit_split_aces": [True, False],
    "surrender": ["none", "late"],
    "bonus_777": [None, "1", "2"],
    "payout_unit": ["0.01", "0.50", "1.00", "5"],
}
STAKES = ["1", "2", "5", "7", "7.50", "10", "12.50", "25", "55", "100", "333"]


def with_overrides(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The same scenario under its profile with some parameters changed."""
    rules = doc["rules"]
    name, overrides = (
        (rules, {}) if isinstance(rules, str) else (rules["profile"], rules["overrides"])
    )
    return {**doc, "rules": {"profile": name, "overrides": {**overrides, **changes}}}


def _natural(first: str, second: str) -> bool:
    return {VALUE[first], VALUE[second]} == {1, 10}


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A random legal scenario: profile, overrides, stacked shoe, side bets, decisions."""
    name = draw(st.sampled_from(sorted(PROFILES)))
    keys = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=4, unique=True))
    overrides = {key: draw(st.sampled_from(OVERRIDES[key])) for key in keys}
    rules: Any = {"profile": name, "overrides": overrides} if overrides else name
    profile = profile_from_rules(rules)
    numbers = sorted(
        draw(st.lists(st.integers(1, profile.boxes), min_size=1, max_size=5, unique=True))
    )

    pack = CARDS * profile.decks
    random.Random(draw(st.integers(0, 2**32))).shuffle(pack)
    # Stack the start now and then, so pairs, naturals, sevens and aces up come often.
    for card in reversed(draw(st.lists(st.sampled_from(CARDS), max_size=10))):
        if card in pack:
            pack.remove(card)
            pack.insert(0, card)
    burn = pack[: profile.burn] if draw(st.booleans()) else []
    shoe = pack[len(burn) :] if burn else pack
    if profile.decks == 1:
        shoe = shoe[: len(shoe) - profile.burn]
    n = len(numbers)
    up = shoe[n]
    insurance_offered = VALUE[up] == 1 and profile.insurance
    even_money_offered = insurance_offered and profile.even_money

    boxes = []
    for i, number in enumerate(numbers):
        stakes: list[dict[str, str]] = []
        total = Decimal(0)
        for j in range(draw(st.integers(1, 3))):
            amount = Decimal(draw(st.sampled_from(STAKES)))
            if amount < profile.min_bet or total + amount > profile.max_bet:
                continue
            total += amount
            stakes.append({"player": f"b{number}p{j + 1}", "amount": str(amount)})
        if not stakes:
            stakes = [{"player": f"b{number}p1", "amount": str(profile.min_bet)}]
        item: dict[str, Any] = {"box": number, "stakes": stakes}
        natural = _natural(shoe[i], shoe[n + 1 + i])
        insurance: dict[str, str] = {}
        even_money: list[str] = []
        for stake in stakes:
            player = stake["player"]
            if even_money_offered and natural and draw(st.booleans()):
                even_money.append(player)
            elif insurance_offered and draw(st.booleans()):
                half = (Decimal(stake["amount"]) / 2).quantize(Decimal("0.01"), "ROUND_DOWN")
                insurance[player] = str(half)
        if insurance:
            item["insurance"] = insurance
        if even_money:
            item["even_money"] = even_money
        boxes.append(item)

    doc: dict[str, Any] = {
        "format": "blackjack-scenario/1",
        "id": f"h{draw(st.integers(0, 10**6))}",
        "rules": rules,
        "boxes": boxes,
        "shoe": shoe,
    }
    if burn:
        doc["burn"] = burn
    if draw(st.booleans()):
        doc["cut_card_at"] = draw(st.integers(0, 40))
    single = {item["box"] for item in boxes if len(item["stakes"]) == 1}

    def choose(point: DecisionPoint) -> str:
        action = draw(st.sampled_from(point.legal))
        less = action == "double" and profile.double_for_less and point.box in single
        if less and draw(st.booleans()):
            return "double:1"
        return str(action)

    try:
        return fill_actions(doc, choose)
    except ScenarioError as error:
        assume(error.reason != "shoe_exhausted")
        raise
