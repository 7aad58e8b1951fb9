"""Cards and the pack: two-character cards ("Ts", "Ah"), their number values, the court cards.

A card is written rank then suit: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for
the ten), suit ``s h d c``, case-insensitive; the engine writes it canonically (upper-case
rank, ``T`` for ten, lower-case suit). Ace counts 1, two to ten at face value; jack, queen
and king (court cards) have no number value.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "shdc"
COURT = frozenset("JQK")
BIG_CASINO = "Td"
LITTLE_CASINO = "2s"


class CardError(ValueError):
    """A text that is not a card."""


def parse_card(text: object) -> str:
    """The canonical card for ``text``; CardError when it is not a card."""
    if not isinstance(text, str):
        raise CardError("a card is a string such as 'Ts' or 'Ah'")
    raw = "T" + text[2:] if text.startswith("10") else text
    if len(raw) != 2:
        raise CardError(f"{text[:10]!r} is not a card (rank then suit, such as 'Ts' or 'Ah')")
    rank, suit = raw[0].upper(), raw[1].lower()
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"{text[:10]!r} is not a card (rank then suit, such as 'Ts' or 'Ah')")
    return rank + suit


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def is_court(card: str) -> bool:
    return card[0] in COURT


def value_of(card: str) -> int | None:
    """The number value (ace 1 ... ten 10); None for a court card."""
    if is_court(card):
        return None
    return RANKS.index(card[0]) + 1


def order(card: str) -> tuple[int, int]:
    """The canonical sort order: by rank, then suit."""
    return (RANKS.index(card[0]), SUITS.index(card[1]))


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=order))


def full_pack() -> tuple[str, ...]:
    """The 52 cards in canonical order."""
    return tuple(rank + suit for rank in RANKS for suit in SUITS)
