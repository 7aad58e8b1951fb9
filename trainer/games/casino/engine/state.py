"""The state of a hand (hands, table, taken piles, whose turn, which deal, last capturer), the
deal, and the end of the hand (the last take)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .cards import full_pack
from .table import PLAYERS, Item, Player, cards_of

DEALS = 6
HAND_SIZE = 4
FIRST_TABLE = 4


class DealError(ValueError):
    """A pack that is not the 52 cards, each once."""


def _empty_piles() -> dict[Player, tuple[str, ...]]:
    return {"non_dealer": (), "dealer": ()}


def _no_sweeps() -> dict[Player, int]:
    return {"non_dealer": 0, "dealer": 0}


@dataclass(frozen=True)
class State:
    """One moment of a hand. `stock` is the undealt cards, next card first; `deal` 1 to 6."""

    hands: Mapping[Player, tuple[str, ...]]
    table: tuple[Item, ...] = ()
    taken: Mapping[Player, tuple[str, ...]] = field(default_factory=_empty_piles)
    turn: Player = "non_dealer"
    deal: int = 1
    stock: tuple[str, ...] = ()
    last_capturer: Player | None = None
    sweeps: Mapping[Player, int] = field(default_factory=_no_sweeps)
    last_take: tuple[str, ...] = ()  # the cards the last take collected, once the hand is over
    finished: bool = False

    @property
    def last_announced(self) -> bool:
        """The sixth deal is "Last": the dealer announces it when dealing the last eight cards."""
        return self.deal == DEALS

    def table_cards(self) -> tuple[str, ...]:
        return tuple(card for item in self.table for card in cards_of(item))

    def all_cards(self) -> list[str]:
        """Every card the state holds: hands, table, taken piles and the stock."""
        out = list(self.stock) + list(self.table_cards())
        for player in PLAYERS:
            out += list(self.hands[player]) + list(self.taken[player])
        return out


def new_hand(pack: Sequence[str]) -> State:
    """The first deal from ``pack`` (52 canonical cards, first dealt first): two to the
    non-dealer, two to the table, two to the dealer, and the same again."""
    if len(pack) != len(full_pack()) or set(pack) != set(full_pack()):
        raise DealError("a hand is dealt from the 52 cards of one pack, each once")
    cards = list(pack)
    non_dealer = cards[0:2] + cards[6:8]
    table = cards[2:4] + cards[8:10]
    dealer = cards[4:6] + cards[10:12]
    return State(
        hands={"non_dealer": tuple(non_dealer), "dealer": tuple(dealer)},
        table=tuple(table),
        stock=tuple(cards[12:]),
    )


def next_deal(state: State) -> State:
    """Four more cards each, two and two, none to the table; non-dealer leads."""
    cards = state.stock
    non_dealer = cards[0:2] + cards[4:6]
    dealer = cards[2:4] + cards[6:8]
    return replace(
        state,
        hands={"non_dealer": non_dealer, "dealer": dealer},
        stock=cards[8:],
        deal=state.deal + 1,
        turn="non_dealer",
    )


def end_of_hand(state: State) -> State:
    """The last take: the last capturer takes every card left on the table (not a sweep).

    *Decided*: when nobody captured in the whole hand, the dealer takes them.
    """
    left = state.table_cards()
    taker: Player = state.last_capturer or "dealer"
    taken = dict(state.taken)
    taken[taker] = taken[taker] + left
    return replace(state, table=(), taken=taken, last_take=left, finished=True)
