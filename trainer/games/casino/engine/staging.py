"""A moment of a hand written as a `casino-scenario/1` document (the reverse of `scenario.read`),
for the generator and the tests: the engine's state, the rules and the questions asked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .scenario import FORMAT
from .state import State
from .table import PLAYERS, Build, Item


def _item(item: Item) -> object:
    if isinstance(item, str):
        return item
    kind = "multiple" if item.multiple else "single"
    return {"build": list(item.cards), "value": item.value, "kind": kind, "owner": item.owner}


def document_of(
    state: State,
    questions: Sequence[dict[str, Any]],
    *,
    rules: object = "scarne-casino",
    doc_id: str | None = None,
    title: str | None = None,
    skills: Sequence[str] = (),
) -> dict[str, Any]:
    """The document staging ``state`` with ``questions`` (checked when it is read back)."""
    out: dict[str, Any] = {"format": FORMAT}
    if doc_id is not None:
        out["id"] = doc_id
    if title is not None:
        out["title"] = title
    if skills:
        out["skills"] = list(skills)
    out |= {
        "rules": rules,
        "deal": state.deal,
        "turn": state.turn,
        "table": [_item(item) for item in state.table],
        "hands": {who: list(state.hands[who]) for who in PLAYERS},
        "taken": {who: list(state.taken[who]) for who in PLAYERS},
        "sweeps": {who: state.sweeps[who] for who in PLAYERS},
        "last_capturer": state.last_capturer,
        "questions": list(questions),
    }
    return out


def same_build(first: Build, second: Build) -> bool:
    return (sorted(first.cards), first.value, first.multiple, first.owner) == (
        sorted(second.cards),
        second.value,
        second.multiple,
        second.owner,
    )
