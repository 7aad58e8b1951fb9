"""The typed result of a played round (what `play` returns).

Plain slotted dataclasses, not frozen ones: a frozen dataclass is built through
object.__setattr__, which measured five times slower, and a round builds dozens of them.
Treat them as read-only all the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from .chipwork import ChipPlan
from .profiles import Profile

Outcome = Literal["blackjack", "win", "push", "lose", "bust", "surrender"]
DealerDraw = Literal["none", "second_card", "full"]


@dataclass(slots=True)
class HandResult:
    """One hand at the end of the round; `results` is each player's signed main result."""

    cards: tuple[str, ...]
    total: int
    soft: bool
    outcome: Outcome
    stakes: Mapping[str, Decimal]
    doubled: bool
    split: bool
    natural: bool
    results: Mapping[str, Decimal]
    bonus: Mapping[str, Decimal]


@dataclass(slots=True)
class PlayerResult:
    """What one player on one box won or lost; net = main + insurance + bonus."""

    player: str
    stake: Decimal
    net: Decimal
    main: Decimal
    insurance: Decimal
    even_money: bool
    bonus: Decimal


@dataclass(slots=True)
class BoxResult:
    """One box: its original stakes and side bets, its hands, its players' results."""

    box: int
    stakes: tuple[tuple[str, Decimal], ...]
    insurance: Mapping[str, Decimal]
    even_money: tuple[str, ...]
    initial: tuple[str, str]
    hands: tuple[HandResult, ...]
    players: tuple[PlayerResult, ...]


@dataclass(slots=True)
class DealerResult:
    """The dealer's cards at the end of the round."""

    cards: tuple[str, ...]
    total: int
    soft: bool
    blackjack: bool
    bust: bool


@dataclass(slots=True)
class Round:
    """A played and settled round, with what the answer key needs to retell it."""

    doc: Mapping[str, Any]
    profile: Profile
    dealer: DealerResult
    boxes: tuple[BoxResult, ...]
    cards_used: int
    reshuffle: bool
    cut_card_at: int | None
    insurance_offered: bool
    even_money_offered: bool
    peeked: bool
    dealer_draw: DealerDraw
    # The stacks of an opted-in document's chip questions; None without a chips section.
    chips: ChipPlan | None = None
