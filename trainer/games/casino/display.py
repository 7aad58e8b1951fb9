"""Scarne's Casino's table as a page draws it: the view model of a question's view, in a
dealer's words, drawn on the felt by templates/games/casino/_table.html.

- the table's items in order: loose cards as cards, builds stacked with their announced
  value and owner ("Building 9 — the dealer's"), a multiple build as its groups;
- each player's hand: face up where the question shows it, card backs with a count where
  it is hidden; the piles taken (a count, the cards when the hand is scored; sweeps where
  the rules score them);
- the deal ("Deal 3 of 6", "Last deal"), whose turn, and what the question is about (the
  card played, the items its play names) marked.

The same model serves the trainee's table, the pit's drill-down (the view as the trainee
saw it) and an author's preview; ``pickable`` (the trainee's page only) makes the items
buttons to pick."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainer.games.casino import words

DEALS = 6
RED = ("h", "d")


def card(code: str, *, asked: bool = False) -> dict[str, Any]:
    """A face-up card as the template draws it ("Td": rank "10", suit "♦", red)."""
    said = words.card_words(code)
    suit = code[1:2].lower()
    return {
        "code": code,
        "rank": said[:-1],
        "suit": words.SUITS.get(suit, ""),
        "red": suit in RED,
        "label": said,
        "hidden": False,
        "asked": asked,
    }


def _value(code: str) -> int:
    rank = code[0].upper()
    return {"A": 1, "T": 10}.get(rank, int(rank) if rank.isdigit() else 0)


def groups(cards: Sequence[str], value: int) -> list[list[str]]:
    """A multiple build's cards as its groups, each worth ``value`` (a card of that value
    alone); the cards as one group when they do not split so."""

    def split(rest: list[str]) -> list[list[str]] | None:
        if not rest:
            return []
        return grow([rest[0]], _value(rest[0]), rest[1:])

    def grow(group: list[str], total: int, others: list[str]) -> list[list[str]] | None:
        if total == value:
            done = split(others)
            return None if done is None else [group, *done]
        for i, other in enumerate(others):
            if total + _value(other) <= value:
                found = grow([*group, other], total + _value(other), others[:i] + others[i + 1 :])
                if found is not None:
                    return found
        return None

    found = split(list(cards)) if value else None
    return found if found else [list(cards)]


def _named(view: Mapping[str, Any]) -> set[str]:
    """The table items the question's play names (taken, built on or built with)."""
    play = view.get("play") or {}
    named = [*(play.get("take") or []), *(play.get("with") or [])]
    if play.get("on"):
        named.append(play["on"])
    return {str(key) for key in named}


def felt_items(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table's items in order, each with its key, words and cards (a build's groups)."""
    named = _named(view)
    out = []
    for item in view.get("table") or []:
        key = str(item.get("key"))
        cards = [str(code) for code in item.get("cards") or []]
        build = item.get("kind") != "card"
        value = item.get("value")
        owner = words.player_words(item.get("owner")) if item.get("owner") else ""
        title = ""
        if build:
            many = "s, a multiple build" if item.get("kind") == "multiple" else ""
            title = f"Building {value}{many} — {owner}'s"
        stacks = groups(cards, int(value or 0)) if item.get("kind") == "multiple" else [cards]
        out.append(
            {
                "key": key,
                "kind": item.get("kind"),
                "build": build,
                "multiple": item.get("kind") == "multiple",
                "words": words.item_words(item),
                "title": title,
                "groups": [[card(code) for code in group] for group in stacks],
                "cards": [words.card_words(code) for code in cards],
                # A build's cards in rank order, as a play on it says them (its key's order).
                "key_cards": words.cards_words(key.split("+")) if build else "",
                "value": value,
                "owner": owner,
                "named": key in named,
            }
        )
    return out


def _asked_card(view: Mapping[str, Any]) -> str:
    play = view.get("play") or {}
    return str(view.get("card") or play.get("card") or "")


def piles(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player, in playing order: the hand (face up where shown, else backs and a
    count), the cards taken (a count; the cards when the hand is scored), sweeps where
    scored, and whether it is their turn."""
    hands = view.get("hands") or {}
    held = view.get("held") or {}
    taken = view.get("taken") or {}
    taken_cards = view.get("taken_cards") or {}
    sweeps = view.get("sweeps") or {}
    asked = _asked_card(view)
    scoring = bool(taken_cards)
    out = []
    for who in words.PLAYERS:
        shown = [str(code) for code in hands.get(who) or []]
        count = int(held.get(who, len(shown)) or 0)
        name = words.player_words(who, title=True)
        out.append(
            {
                "seat": "first" if who == words.PLAYERS[0] else "second",
                "name": name,
                "hand": [card(code, asked=code == asked) for code in shown],
                "hidden": 0 if shown else count,
                "backs": [{"hidden": True}] * (0 if shown else count),
                "held": count,
                "held_words": _count(count, "card") + " in hand",
                "taken": int(taken.get(who, 0) or 0),
                "taken_words": _count(int(taken.get(who, 0) or 0), "card") + " taken",
                "taken_cards": [card(str(code)) for code in taken_cards.get(who) or []],
                "sweeps": sweeps.get(who) if view.get("sweeps_scored") else None,
                "sweeps_words": _count(int(sweeps.get(who, 0) or 0), "sweep"),
                "to_play": view.get("turn") == who and not scoring,
            }
        )
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def deal_words(view: Mapping[str, Any]) -> str:
    deal = view.get("deal")
    if view.get("last") or deal == DEALS:
        return f"Last deal ({DEALS} of {DEALS})"
    return f"Deal {deal} of {DEALS}"


def table_model(
    view: Mapping[str, Any], *, prompt: str = "", pickable: bool = False
) -> dict[str, Any]:
    """The view model the table's template draws."""
    last_capturer = view.get("last_capturer")
    asked = _asked_card(view)
    play = view.get("play") or {}
    scoring = bool(view.get("taken_cards"))
    return {
        "deal": view.get("deal"),
        "deal_words": deal_words(view),
        "turn": words.player_words(view.get("turn")),
        "turn_words": "The hand is over"
        if scoring
        else f"{words.player_words(view.get('turn'), title=True)} to play",
        "items": felt_items(view),
        "players": piles(view),
        "last_capturer": words.player_words(last_capturer) if last_capturer else "",
        "asked": prompt,
        "asked_card": card(asked, asked=True) if asked else None,
        "asked_words": ("Card played" if play else "Card in question") if asked else "",
        "pickable": pickable,
        "work": None,
    }
