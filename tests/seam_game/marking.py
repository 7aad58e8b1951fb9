"""Dealer draws' marks: its own categories of mistake (drew on a pat hand, stood on a
stiff), a cost in points (one a wrong call), and its own skills."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from trainer.games.marking import POINTS, UNANSWERED, Category, Mark

# The kind of question the game deals (tests/seam_game/keying.py).
DRAW_KIND = "draw_or_stand"
DREW_ON_PAT = "drew_on_pat"
STOOD_ON_STIFF = "stood_on_stiff"
CATEGORIES: dict[str, Category] = {
    DREW_ON_PAT: Category("Drew on a pat hand"),
    STOOD_ON_STIFF: Category("Stood on a stiff"),
}
STIFF = "stiff-hands"
PAT = "pat-hands"
SKILLS: dict[str, str] = {STIFF: "Drawing to a stiff", PAT: "Standing on a pat hand"}
# A wrong call costs a point.
POINT = Decimal("1")


def _total(question: Mapping[str, Any]) -> int | None:
    view = question.get("view")
    total = view.get("total") if isinstance(view, Mapping) else None
    return total if isinstance(total, int) else None


class DealerDrawsMarking:
    cost_unit = POINTS
    point_words = ""
    categories: Mapping[str, Category] = CATEGORIES
    skills: Mapping[str, str] = SKILLS
    apart_kinds: tuple[str, ...] = ()

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
        expected = question["expected"]
        if answer == expected:
            return Mark(True, Decimal(0), None)
        drew = answer.get("answer") == "hit"
        return Mark(False, POINT, DREW_ON_PAT if drew else STOOD_ON_STIFF)

    def unanswered(self) -> Mark:
        return Mark(False, Decimal(0), UNANSWERED)

    def question_skills(
        self, round_skills: Iterable[str], question: Mapping[str, Any]
    ) -> tuple[str, ...]:
        total = _total(question)
        if question.get("kind") != DRAW_KIND or total is None:
            return ()
        exercised = STIFF if total < 17 else PAT
        return tuple(skill for skill in dict.fromkeys(round_skills) if skill == exercised)

    def skill_kinds(self, skill: str) -> frozenset[str]:
        return frozenset({DRAW_KIND}) if skill in SKILLS else frozenset()

    def skill_by_hand(self, skill: str) -> bool:
        # A stiff or a pat hand: the key's total says which a question is about.
        return skill in SKILLS
