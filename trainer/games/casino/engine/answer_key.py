"""A `casino-scenario/1` document's answer key: each question's expected answer.

| kind | expected |
| --- | --- |
| is_legal | {"legal": true} or {"legal": false, "reason": REASON} |
| may_take | {"takes": [[ITEM, ...], ...]}: the most the card may take (each legal capture |
|  | that no other legal capture contains) |
| legal_plays | {"plays": [PLAY, ...]}: every legal play of the card |
| score_hand | {"non_dealer": {LINE: points, "total"}, "dealer": {...}, "winner", "margin", |
|  | "last_take": {"to", "cards"}} |
| rule_on | the ruling: {"ruling": CODE, ...} |
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .legality import refusal
from .plays import legal_plays
from .rulings import rule_on
from .scenario import Question, Scenario, read
from .scoring import score_state
from .state import end_of_hand
from .table import sort_keys

ANSWERS_FORMAT = "casino-answers/1"


def answer_key(document: object) -> list[dict[str, Any]]:
    """Each question's expected answer, in order: {"n", "kind", "expected"}.
    CasinoScenarioError when the document is not valid."""
    scenario = read(document)
    return [
        {"n": n, "kind": question.kind, "expected": expected(scenario, question)}
        for n, question in enumerate(scenario.questions, start=1)
    ]


def answers(document: object) -> dict[str, Any]:
    """The document settled: its id and title, and the answer key."""
    key = answer_key(document)
    out: dict[str, Any] = {"format": ANSWERS_FORMAT}
    assert isinstance(document, dict)  # read() checked it
    for name in ("id", "title"):
        if name in document:
            out[name] = document[name]
    out["answers"] = key
    return out


def expected(scenario: Scenario, question: Question) -> dict[str, Any]:
    state = scenario.state
    if question.kind == "is_legal":
        assert question.play is not None
        reason = refusal(state, question.play)
        return {"legal": True} if reason is None else {"legal": False, "reason": reason}
    if question.kind == "may_take":
        assert question.card is not None
        return {"takes": most_taken(scenario, question.card)}
    if question.kind == "legal_plays":
        assert question.card is not None
        return {"plays": [play.to_dict() for play in legal_plays(state, question.card)]}
    if question.kind == "rule_on":
        assert question.situation is not None
        return rule_on(question.situation).to_dict()
    finished = end_of_hand(replace(state, stock=()))
    result = score_state(finished, scenario.profile)
    out = result.to_dict()
    out["last_take"] = {
        "to": finished.last_capturer if state.table else None,
        "cards": list(sort_keys(finished.last_take)),
    }
    return out


def most_taken(scenario: Scenario, card: str) -> list[list[str]]:
    """The largest captures of ``card``: every legal take that no other legal take contains."""
    takes = [frozenset(p.items) for p in legal_plays(scenario.state, card) if p.kind == "take"]
    largest = [t for t in takes if not any(t < other for other in takes)]
    return sorted(list(sort_keys(t)) for t in set(largest))
