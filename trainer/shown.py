"""Which questions of a round were shown to the trainee, whatever the game: the skill
figures count no other (a round not reached, an exam abandoned counts for no skill), and a
regrade matches a new key's questions to those asked by what they ask.

Plain Python over the answer key's JSON: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def identities(key: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """What each question asks about: kind, box, hand, player (those of them a game's
    questions carry) and which turn among those (how a regrade's new key is matched to the
    questions the trainee was asked)."""
    seen: dict[tuple[Any, ...], int] = {}
    out: list[tuple[Any, ...]] = []
    for item in key:
        base = (item["kind"], item.get("box"), item.get("hand"), item.get("player"))
        seen[base] = seen.get(base, 0) + 1
        out.append((*base, seen[base]))
    return out


def shown_questions(
    *,
    key: Sequence[Mapping[str, Any]],
    asked: Sequence[Mapping[str, Any]],
    questions_shown: Mapping[str, Any] | None,
) -> frozenset[int]:
    """The numbers of ``key``'s questions that were shown to the trainee.

    ``questions_shown`` is the round's record of the questions put to the trainee, by the
    number they had in ``asked`` (the key dealt); ``key`` is the key the round was graded
    against (the same, unless a regrade changed it: then a question was shown when the
    question it is matched to, by what it asks, was)."""
    shown = questions_shown or {}
    if not shown:
        return frozenset()
    if key is asked:
        return frozenset(int(q["n"]) for q in key if str(q["n"]) in shown)
    asked_shown = {
        ident
        for question, ident in zip(asked, identities(asked), strict=True)
        if str(question["n"]) in shown
    }
    return frozenset(
        int(question["n"])
        for question, ident in zip(key, identities(key), strict=True)
        if ident in asked_shown
    )
