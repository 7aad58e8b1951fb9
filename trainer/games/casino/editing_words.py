"""The words of Casino's staging form (editing) that are not fields: each penalty fact's
question, and the engine's refusal of a staged document at its path, said at the form field
it concerns in plain words (never a path, a card code or an internal name)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from trainer.games.casino import words

BUILD_ROWS = range(1, 5)
QUESTION_ROWS = range(1, 4)
_YES_NO = (("", "(say which)"), ("yes", "Yes"), ("no", "No"))
# Each fact of a penalty or misdeal (engine.rulings.SITUATIONS): its question, the field's
# kind and choices, and the situations that ask it. "who" stands for offender and receiver.
FACTS: Mapping[str, tuple[str, str, tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "who": (
        "Who did it (cards face up in the pack: who was dealt them)",
        "choice",
        (("non_dealer", "The non-dealer"), ("dealer", "The dealer")),
        (
            "faulty_build",
            "trail_owning_build",
            "looked_at_taken",
            "card_exposed",
            "face_up_in_pack",
            "wrong_number",
        ),
    ),
    "trick_played": (
        "A trick was played from the last eight cards",
        "choice",
        _YES_NO,
        ("last_not_announced",),
    ),
    "last_trick_only": (
        "They looked at the last trick only",
        "choice",
        _YES_NO,
        ("looked_at_taken",),
    ),
    "opponent_played": (
        "The opponent had played since that trick",
        "choice",
        _YES_NO,
        ("looked_at_taken",),
    ),
    "belongs_to": (
        "Whose card was turned up",
        "choice",
        (("", "(say whose)"), ("opponent", "The opponent's"), ("self", "Their own")),
        ("card_exposed",),
    ),
    "within_first_12": (
        "It was among the first 12 cards dealt",
        "choice",
        _YES_NO,
        ("card_exposed",),
    ),
    "count": ("How many cards were found face up", "number", (), ("face_up_in_pack",)),
    "before_first_trick": (
        "Found before the first trick was completed",
        "choice",
        _YES_NO,
        ("wrong_number",),
    ),
}

_INDEX = re.compile(r"^(\w+)\[(\d+)\](?:\.(\w+))?(?:\.(\w+))?")
_CARD = re.compile(r"\b([A2-9TJQK][shdc])\b")
# A refusal whose engine sentence names the format's own words: said plainly instead.
PLAIN = {
    "bad_situation": "say what happened and answer each question about it",
    "bad_question": "choose the question asked and what it needs",
    "bad_play": "say what the card does: takes, builds or trails",
    "bad_item": "name the cards, and the builds, the play takes or builds with",
    "bad_player": "choose the dealer or the non-dealer",
    "bad_rules": "this table's rules cannot stage this situation",
    "bad_value": "a build announces a value from 1 to 10",
    "unknown_field": "this situation cannot be staged from these fields",
    "bad_type": "this situation cannot be staged from these fields",
    "missing": "this is needed",
}
_PLAY_PARTS = {"card": "card", "take": "loose", "with": "loose", "on": "on", "build": "value"}


def plain(message: str, reason: str) -> str:
    """The engine's sentence in a dealer's words: cards as "10♦", the players by name."""
    if reason == "missing" and "last capturer" in message:
        return "cards are left on the table: say who took last"
    if reason in PLAIN:
        return PLAIN[reason]
    said = _CARD.sub(lambda found: words.card_words(found.group(1)), message)
    said = said.replace("non_dealer", "the non-dealer")
    return re.sub(r"\b(\w+)_(\w+)\b", r"\1 \2", said)


def _rows(values: Mapping[str, Any], prefix: str, rows: range, part: str) -> list[int]:
    """The rows of a kind (builds, questions) that made an entry of the document, in order."""
    return [n for n in rows if str(values.get(f"{prefix}{n}{part}") or "").strip()]


def field_at(path: str, values: Mapping[str, Any]) -> str | None:
    """The form field an engine path names, given the fields posted (the table lists the
    builds filled, in row order, then the loose cards; the questions asked, in order)."""
    found = _INDEX.match(path)
    if found and found.group(1) == "table":
        builds = _rows(values, "build_", BUILD_ROWS, "_cards")
        index = int(found.group(2))
        if index >= len(builds):
            return "loose"
        part = {"value": "value", "kind": "kind", "owner": "owner"}.get(
            found.group(3) or "", "cards"
        )
        return f"build_{builds[index]}_{part}"
    if found and found.group(1) == "questions":
        asked = _rows(values, "q", QUESTION_ROWS, "_kind")
        index = int(found.group(2))
        if index >= len(asked):
            return None
        return f"q{asked[index]}_{_question_part(found.group(3), found.group(4))}"
    head, _, rest = path.partition(".")
    player = rest.split("[", 1)[0]
    if head in ("hands", "taken", "sweeps"):
        who = player if player in words.PLAYERS else ("dealer" if head == "hands" else "non_dealer")
        return f"{'hand' if head == 'hands' else head}_{who}"
    simple = {"deal": "deal", "turn": "turn", "table": "loose", "last_capturer": "last_capturer"}
    simple |= {"title": "title", "skills": "skills"}
    if head == "rules":
        return "match_rule" if "match_goal" in path else "sweeps_rule"
    return simple.get(head.split("[", 1)[0])


def _question_part(part: str | None, inner: str | None) -> str:
    if part == "card":
        return "card"
    if part == "play":
        return _PLAY_PARTS.get(inner or "", "does")
    if part == "situation":
        if inner in ("offender", "receiver"):
            return "who"
        return inner if inner is not None and inner in FACTS else "situation"
    return "kind"
