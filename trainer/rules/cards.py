"""Card spellings, values and hand totals.

A card is kept as its canonical two-character string ("Ah", "Tc"): cheap to hash, compare
and print, so no card objects are built while a round is played.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "shdc"

# Every accepted spelling ("Ah", "aH", "10h", "th" ...) to its canonical card, built once.
CANONICAL: dict[str, str] = {}
# Canonical card to its blackjack value, ace counting 1.
VALUE: dict[str, int] = {}

for _rank in RANKS:
    for _suit in SUITS:
        _card = _rank + _suit
        VALUE[_card] = 1 if _rank == "A" else 10 if _rank in "TJQK" else int(_rank)
        _spellings = [_rank, "10"] if _rank == "T" else [_rank]
        for _r in _spellings:
            for _rs in {_r.upper(), _r.lower()}:
                for _ss in {_suit.upper(), _suit.lower()}:
                    CANONICAL[_rs + _ss] = _card


ACES = frozenset(card for card, value in VALUE.items() if value == 1)
_value = VALUE.__getitem__


def total_of(cards: list[str] | tuple[str, ...]) -> tuple[int, bool]:
    """The best total of some cards and whether it is soft (an ace counted as 11)."""
    hard = sum(map(_value, cards))
    if hard <= 11 and not ACES.isdisjoint(cards):
        return hard + 10, True
    return hard, False
