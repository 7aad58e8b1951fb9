"""The engine's words as a dealer reads them. The engine writes cards as codes ("Ts 9c"),
for programs and the answer key; people see rank and suit ("10♠ 9♣")."""

from __future__ import annotations

import re

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANKS = {"T": "10"}
_CARD = re.compile(r"\b([2-9TJQKA])([shdc])\b")


def card_text(code: str) -> str:
    """One card code as a dealer writes it: "Ts" → "10♠"."""
    rank, suit = code[:-1], code[-1:]
    return f"{RANKS.get(rank, rank)}{SUIT_SYMBOLS.get(suit, suit)}"


def dealer_words(text: str) -> str:
    """A prompt or rule with every card code written as rank and suit."""
    return _CARD.sub(lambda m: card_text(m.group(0)), text or "")
