"""The demo trainee's Casino answers, in the API's JSON (what `reading.parse_answer` reads):
the expected answer as a dealer gives it, or a plausible slip."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from trainer.games.casino import grammar
from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.rulings import RULINGS
from trainer.games.casino.engine.scoring import LINES
from trainer.games.casino.reading import line_field
from trainer.games.casino.words import PLAYERS


def given(question: Mapping[str, Any]) -> dict[str, Any]:
    """The expected answer of an answer-key question, as the API takes it."""
    kind = question.get("kind")
    expected = question.get("expected") or {}
    view = question.get("view") or {}
    if kind == "is_legal":
        return dict(expected)
    if kind == "may_take":
        options = expected.get("takes") or []
        return {"takes": list(options[0]) if options else []}
    if kind == "legal_plays":
        return {"plays": [grammar.play_text(play) for play in expected.get("plays") or []]}
    if kind == "score_hand":
        out: dict[str, Any] = {}
        for who in PLAYERS:
            for line in LINES:
                if line == "sweeps" and not view.get("sweeps_scored"):
                    continue
                out[line_field(who, line)] = int((expected.get(who) or {}).get(line, 0))
        out["winner"] = expected.get("winner") or "tie"
        return out
    return {"ruling": expected.get("ruling")}


def slip(question: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plausible mistake: the wrong call (or the right call for another reason), an item
    left, a play missed, a line miscounted, another ruling. What a card takes from an empty
    table has no mistake to make: it is answered right."""
    kind = question.get("kind")
    answer = given(question)
    if kind == "is_legal":
        if answer.get("legal"):
            return {"legal": False, "reason": rng.choice(REASONS)}
        others = [reason for reason in REASONS if reason != answer.get("reason")]
        if rng.random() < 0.5:
            return {"legal": False, "reason": rng.choice(others)}
        return {"legal": True}
    if kind == "may_take":
        takes = answer["takes"]
        if takes:
            return {"takes": takes[:-1]}
        first = _first_item(question)
        # Nothing on the table: "it takes nothing" is the only answer there is to give.
        return {"takes": [first] if first is not None else []}
    if kind == "legal_plays":
        plays = answer["plays"]
        return {"plays": plays[:-1]} if plays else {"plays": ["trail"]}
    if kind == "score_hand":
        fields = [name for name in answer if name != "winner"]
        name = rng.choice(fields)
        answer[name] = answer[name] + 1
        return answer
    others = [code for code in RULINGS if code != answer["ruling"]]
    return {"ruling": rng.choice(others)}


def _first_item(question: Mapping[str, Any]) -> str | None:
    items = (question.get("view") or {}).get("table") or []
    return str(items[0]["key"]) if items else None
