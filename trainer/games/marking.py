"""Marking: an answer compared with the key, the mark of a question left unanswered, and
the vocabularies a mark is read through: the game's categories of mistake, the unit its
cost is counted in, and the skills it teaches (which questions exercise which skill).

The shell stores a mark as strings and a signed figure: the category's code and the cost.
It never spells a game's categories or skills; it labels them through the game
(``categories``, ``skills``). It keeps two categories of its own, the same for every game:
``LATE`` (answered after the time limit, whatever the answer) and ``UNANSWERED`` (a
question left unanswered: a game's ``unanswered()`` carries it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import EnumType, StrEnum
from typing import Any, Protocol

# The units a cost is counted in. A money cost is what the grades' money figures add up
# (overpaid, underpaid); a cost in points is a game's own count (points miscounted).
MONEY = "money"
POINTS = "points"
COST_UNITS = (MONEY, POINTS)

# The shell's own categories (trainer.models.ErrorCategory), in every game.
LATE = "late"
UNANSWERED = "unanswered"
SHELL_CATEGORIES = (LATE, UNANSWERED)


class Verdict(Protocol):
    """How an answer compares with the key: right or not, its cost (signed, in the game's
    ``cost_unit``: positive when the player got too much) and, when wrong, the category of
    the mistake (a code the game declares in ``categories``, or ``UNANSWERED``)."""

    @property
    def right(self) -> bool: ...

    @property
    def cost(self) -> Decimal: ...

    @property
    def category(self) -> str | None: ...


@dataclass(frozen=True)
class Mark:
    """A verdict as plain values (what a game may return from ``compare``)."""

    right: bool
    cost: Decimal
    category: str | None


@dataclass(frozen=True)
class Category:
    """A category of mistake as a game declares it: its words, whether a mistake of it is
    one to review (a pit boss's queue), and whether it is a mistake of form only (the
    right cost in the wrong form: blackjack's right money in the wrong chips)."""

    words: str
    review: bool = True
    form: bool = False


class Marking(Protocol):
    """What the shell asks of a game to mark answers and to read the marks."""

    @property
    def cost_unit(self) -> str:
        """``MONEY`` or ``POINTS``: what a verdict's cost counts."""
        ...

    @property
    def point_words(self) -> str:
        """A points game's note on what a point of its cost is, in its words, shown beside
        its answers and points; "" when there is nothing to say (and for a money game, whose
        amounts the shell explains itself)."""
        ...

    @property
    def categories(self) -> Mapping[str, Category]:
        """Every category the game's verdicts may carry (bar the shell's), by code."""
        ...

    @property
    def skills(self) -> Mapping[str, str]:
        """The skills the game teaches: code -> words, in the order lists show them."""
        ...

    @property
    def apart_kinds(self) -> tuple[str, ...]:
        """The question kinds whose figures the pit sees apart, each on its own, in the
        order it lists them (blackjack: the chip work); none in most games."""
        ...

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
        """Mark an answer (as ``parse_answer`` gave it) against one question of the key."""
        ...

    def unanswered(self) -> Verdict:
        """The mark of a question left unanswered: wrong, no cost, ``UNANSWERED``."""
        ...

    def question_skills(
        self, round_skills: Iterable[str], question: Mapping[str, Any]
    ) -> tuple[str, ...]:
        """The skills among ``round_skills`` (those a round was dealt for) that ``question``
        (an answer-key item) exercises, in the round's order."""
        ...

    def skill_kinds(self, skill: str) -> frozenset[str]:
        """The question kinds that may exercise ``skill``; empty for one the game lacks."""
        ...

    def skill_by_hand(self, skill: str) -> bool:
        """Whether ``skill`` is about one hand (or box) of the table, so that a question of
        one of its kinds exercises it only when the key says so (``question_skills``)."""
        ...


CENT = Decimal("0.01")
NO_MONEY = Decimal("0.00")


def money_figure(marking: Marking, cost: Decimal) -> Decimal:
    """A verdict's cost as the money figures read it (a grade's, practice feedback's): the
    cost to the cent where the game counts money; nothing where it counts points."""
    return cost.quantize(CENT) if marking.cost_unit == MONEY else NO_MONEY


def points_figure(marking: Marking, cost: Decimal) -> Decimal | None:
    """A verdict's cost as a grade's points: to the hundredth where the game counts points;
    None where it counts money."""
    return cost.quantize(CENT) if marking.cost_unit == POINTS else None


class _WordsType(EnumType):
    @property
    def values(cls) -> list[str]:
        members: list[Any] = list(cls)
        return [member.value for member in members]

    @property
    def choices(cls) -> list[tuple[str, str]]:
        members: list[Any] = list(cls)
        return [(member.value, member.words) for member in members]


class Words(StrEnum, metaclass=_WordsType):
    """A game's codes with their words (``NAME = "code", "Words"``): a member is the very
    string the database stores; ``values`` and ``choices`` as Django's choices have them."""

    words: str

    def __new__(cls, value: str, words: str = "") -> Words:
        member = str.__new__(cls, value)
        member._value_ = value
        member.words = words
        return member
