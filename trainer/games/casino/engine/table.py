"""What lies on the table (loose cards and builds), how an item is named, and a play.

An item is named by its **key**: a loose card by the card ("7h"), a build by its cards in
canonical order joined with "+" ("3h+6s"). A card is in one place only, so keys are unique.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .cards import order, sort_cards

Player = Literal["dealer", "non_dealer"]
PLAYERS: tuple[Player, Player] = ("non_dealer", "dealer")  # in playing order


def other(player: Player) -> Player:
    return "dealer" if player == "non_dealer" else "non_dealer"


@dataclass(frozen=True, slots=True)
class Build:
    """A build: its cards, its announced value, single or multiple, and its owner."""

    cards: tuple[str, ...]
    value: int
    multiple: bool
    owner: Player

    @property
    def key(self) -> str:
        return build_key(self.cards)


Item = str | Build  # a loose card, or a build


def build_key(cards: Iterable[str]) -> str:
    return "+".join(sort_cards(cards))


def key_of(item: Item) -> str:
    return item if isinstance(item, str) else item.key


def cards_of(item: Item) -> tuple[str, ...]:
    return (item,) if isinstance(item, str) else item.cards


def sort_keys(keys: Iterable[str]) -> tuple[str, ...]:
    """Keys in canonical order: by their first card (a build's lowest card)."""
    return tuple(sorted(keys, key=lambda key: [order(card) for card in key.split("+")]))


PlayKind = Literal["take", "build", "trail"]


@dataclass(frozen=True, slots=True)
class Play:
    """One turn: the card played and what it does.

    - ``take``: ``items`` are the keys of the table items taken.
    - ``build``: ``value`` is the value announced; ``target`` the key of the build the card
      goes on (None for a new build); ``items`` the loose cards joined with it.
    - ``trail``: the card is laid on the table.

    Build with ``items`` as given; `canonical` puts them in order so equal plays compare equal.
    """

    card: str
    kind: PlayKind
    items: tuple[str, ...] = ()
    target: str | None = None
    value: int | None = None

    def canonical(self) -> Play:
        """The same play with its keys canonical (a build's cards in order) and sorted."""
        items = sort_keys(build_key(key.split("+")) for key in self.items)
        target = build_key(self.target.split("+")) if self.target is not None else None
        return Play(self.card, self.kind, items, target, self.value)

    def to_dict(self) -> dict[str, object]:
        """The play as the format writes it."""
        if self.kind == "trail":
            return {"card": self.card, "trail": True}
        if self.kind == "take":
            return {"card": self.card, "take": list(sort_keys(self.items))}
        out: dict[str, object] = {"card": self.card, "build": self.value}
        if self.target is not None:
            out["on"] = self.target
        out["with"] = list(sort_keys(self.items))
        return out


def take(card: str, *items: str) -> Play:
    return Play(card, "take", sort_keys(items))


def build(card: str, value: int, *items: str, on: str | None = None) -> Play:
    return Play(card, "build", sort_keys(items), on, value)


def trail(card: str) -> Play:
    return Play(card, "trail")
