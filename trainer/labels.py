"""The marks' vocabularies as people read them: categories of mistake and skills, labelled
through the games that declare them (trainer.games.marking), and the shell's own categories
(trainer.models.ErrorCategory: late, unanswered).

A grade, a drill or a flag stores a code; every page, CSV and PDF reads its words here, so a
game adds a category or a skill without a migration and without the shell spelling it.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from typing import Any

from trainer.games import game_named, game_names, games_generation
from trainer.models import ErrorCategory, Mode

_SHELL_CATEGORIES: dict[str, str] = dict(ErrorCategory.choices)
# The modes of a run (practice, exam ...) in words, the reports' mode column.
MODE_WORDS: dict[str, str] = dict(Mode.choices)


def category_words() -> Mapping[str, str]:
    """Every category's words by its code: the shell's and every game's (the reports label
    stored codes with it, in Python and in SQL alike). Not to be changed: it is shared."""
    return _category_words(games_generation())


@cache
def _category_words(generation: int) -> Mapping[str, str]:
    """By the registry's generation: read again once a game is registered or removed."""
    found: dict[str, str] = {}
    for name in game_names():
        for code, category in game_named(name).categories.items():
            found.setdefault(code, category.words)
    return {**found, **_SHELL_CATEGORIES}


def category_label(category: str | None, *, game: str | None = None) -> str:
    """Why an answer was wrong, by its label ("Wrong outcome"); "" when it was not. Through
    ``game`` when known (a code is its game's), else the first game that declares it."""
    if not category:
        return ""
    code = str(category)
    if code in _SHELL_CATEGORIES:
        return _SHELL_CATEGORIES[code]
    names = [game] if game in game_names() else game_names()
    for name in names:
        declared = game_named(name).categories.get(code)
        if declared is not None:
            return declared.words
    return code.replace("_", " ").capitalize()


def unreviewed_categories() -> list[str]:
    """The categories of wrong answers no pit boss reviews: the shell's unanswered, and
    those a game declares not to review (``Category.review``)."""
    return sorted(
        {ErrorCategory.UNANSWERED.value}
        | {
            code
            for name in game_names()
            for code, category in game_named(name).categories.items()
            if not category.review
        }
    )


def form_categories() -> frozenset[str]:
    """The categories of a mistake of form only (the right cost in the wrong form:
    blackjack's right money in the wrong chips), in every game."""
    return frozenset(
        code
        for name in game_names()
        for code, category in game_named(name).categories.items()
        if category.form
    )


def skill_choices(game: str | None = None) -> list[tuple[str, str]]:
    """The skills (code, words) of ``game``, or of every game the house runs (the first
    game's words for a code two games share), in each game's order."""
    names = [game] if game else game_names()
    found: dict[str, str] = {}
    for name in names:
        for code, words in game_named(name).skills.items():
            found.setdefault(code, words)
    return list(found.items())


def points_text(points: Decimal | None) -> str:
    """Points as people read them: "1 point", "3 points", "2.50 points"; "" for none."""
    if points is None:
        return ""
    value = points.quantize(Decimal(1)) if points == points.to_integral_value() else points
    return f"{value} point{'' if value == 1 else 's'}"


def skill_choices_by_game() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every loaded game's skills under its name in words ("Blackjack"), for a form that
    offers them all (the service checks a choice against the drill's or table's game)."""
    return [(game_named(name).title, skill_choices(name)) for name in game_names()]


def form_skill_choices() -> list[tuple[str, Any]]:
    """A form's skill choices: one game's as they are, several games' grouped by game."""
    groups = skill_choices_by_game()
    if len(groups) == 1:
        return list(groups[0][1])
    return list(groups)


def skill_codes(game: str | None = None) -> list[str]:
    return [code for code, _ in skill_choices(game)]


def skill_words() -> dict[str, str]:
    return dict(skill_choices())


def skill_label(skill: str) -> str:
    return skill_words().get(str(skill), str(skill))


def skills_label(skills: object) -> str:
    """Skills by their labels, "Natural at 3:2, Rounding"."""
    if not isinstance(skills, list | tuple):
        return ""
    labels = skill_words()
    return ", ".join(labels.get(str(skill), str(skill)) for skill in skills)


def skill_kinds(skill: str) -> frozenset[str]:
    """The question kinds that may exercise ``skill``, in any game."""
    return frozenset(kind for name in game_names() for kind in game_named(name).skill_kinds(skill))


def skill_by_hand(skill: str) -> bool:
    """Whether a game's ``skill`` counts only the questions its key says exercise it."""
    return any(game_named(name).skill_by_hand(skill) for name in game_names())


def apart_kinds() -> frozenset[str]:
    """The question kinds every game's pit figures keep apart (blackjack's chip work)."""
    return frozenset(kind for name in game_names() for kind in game_named(name).apart_kinds)
