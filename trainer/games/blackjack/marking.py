"""Marking blackjack's answers: the engine compares an answer with its key; a mistake's cost
is money (what the player got too much, or too little), its categories the engine's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from trainer import rules
from trainer.games.blackjack import skills as skill_table
from trainer.games.marking import MONEY, UNANSWERED, Category, Mark, Words


class BlackjackCategory(Words):
    """Why a blackjack answer is wrong (the engine's rules.Category), with its words; and
    the shell's unanswered, which the engine's unanswered verdict carries."""

    WRONG_OUTCOME = rules.Category.WRONG_OUTCOME.value, "Wrong outcome"
    UNDERPAY = rules.Category.UNDERPAY.value, "Underpay"
    OVERPAY = rules.Category.OVERPAY.value, "Overpay"
    INSURANCE = rules.Category.INSURANCE_ERROR.value, "Insurance error"
    EVEN_MONEY = rules.Category.EVEN_MONEY_ERROR.value, "Even-money error"
    PRIZE = rules.Category.PRIZE_ERROR.value, "Prize error"
    PROCEDURE = rules.Category.PROCEDURE_ERROR.value, "Procedure error"
    WRONG_CHIPS = rules.Category.WRONG_CHIPS.value, "Right money, wrong chips"
    UNANSWERED = UNANSWERED, "Not answered"


CATEGORIES: dict[str, Category] = {
    c.value: Category(c.words, form=c is BlackjackCategory.WRONG_CHIPS)
    for c in BlackjackCategory
    if c is not BlackjackCategory.UNANSWERED
}
SKILLS: dict[str, str] = dict(skill_table.Skill.choices)
# The chip work (pay in chips, colour up, change): the pit sees it apart from the money,
# pay in chips first (the chip work a dealer does most).
APART_KINDS = (rules.Kind.PAY_IN_CHIPS.value, rules.Kind.COLOUR_UP.value, rules.Kind.CHANGE.value)
assert set(APART_KINDS) == {kind.value for kind in rules.CHIP_KINDS}


def _mark(verdict: rules.Verdict) -> Mark:
    category = None if verdict.category is None else str(verdict.category)
    if not verdict.right and category is None:
        # The engine names every mistake; a procedure answer it does not know is one.
        category = BlackjackCategory.PROCEDURE.value
    return Mark(verdict.right, verdict.money_diff, category)


class BlackjackMarking:
    cost_unit = MONEY
    point_words = ""
    categories: Mapping[str, Category] = CATEGORIES
    skills: Mapping[str, str] = SKILLS
    apart_kinds = APART_KINDS

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
        return _mark(rules.compare(question, answer))

    def unanswered(self) -> Mark:
        return _mark(rules.unanswered())

    def question_skills(
        self, round_skills: Iterable[str], question: Mapping[str, Any]
    ) -> tuple[str, ...]:
        return skill_table.question_skills(round_skills, question)

    def skill_kinds(self, skill: str) -> frozenset[str]:
        return skill_table.skill_kinds(skill)

    def skill_by_hand(self, skill: str) -> bool:
        exercise = skill_table.SKILL_QUESTIONS.get(skill)
        return exercise is not None and exercise.hand is not None
