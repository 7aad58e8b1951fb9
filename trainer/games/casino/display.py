"""Scarne's Casino's table as a page draws it: a view model of a question's view (the table
items, the hand of the player to play, both players' piles, the deal and whose turn), in
words. The table's template (templates/games/casino/_table.html) draws it; this is the
plain first version, for the table's own view model to replace."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.games.casino import words


def felt_items(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table's items in order, each with its key, its words and its cards in words."""
    return [
        {
            "key": str(item.get("key")),
            "kind": item.get("kind"),
            "words": words.item_words(item),
            "cards": [words.card_words(str(card)) for card in item.get("cards") or []],
            "value": item.get("value"),
            "owner": words.player_words(item.get("owner")) if item.get("owner") else "",
        }
        for item in view.get("table") or []
    ]


def piles(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player, in playing order: the cards in hand (shown for the player to play), how
    many they hold, how many they have taken (and the cards, when the hand is scored)."""
    hands = view.get("hands") or {}
    held = view.get("held") or {}
    taken = view.get("taken") or {}
    taken_cards = view.get("taken_cards") or {}
    sweeps = view.get("sweeps") or {}
    out = []
    for who in words.PLAYERS:
        out.append(
            {
                "player": who,
                "name": words.player_words(who, title=True),
                "hand": [words.card_words(card) for card in hands.get(who) or []],
                "held": held.get(who, 0),
                "taken": taken.get(who, 0),
                "taken_cards": [words.card_words(card) for card in taken_cards.get(who) or []],
                "sweeps": sweeps.get(who) if view.get("sweeps_scored") else None,
                "to_play": view.get("turn") == who and "taken_cards" not in view,
            }
        )
    return out


def table_model(view: Mapping[str, Any], *, prompt: str = "") -> dict[str, Any]:
    """The view model the table's template draws."""
    deal = view.get("deal")
    last_capturer = view.get("last_capturer")
    over = "taken_cards" in view  # a hand to score: played out
    return {
        "deal": deal,
        "deal_words": "Deal 6 of 6: Last" if view.get("last") else f"Deal {deal} of 6",
        "over": over,
        "turn": "" if over else words.player_words(view.get("turn")),
        "items": felt_items(view),
        "players": piles(view),
        "last_capturer": words.player_words(last_capturer) if last_capturer else "",
        "asked": prompt,
        "work": None,
    }
