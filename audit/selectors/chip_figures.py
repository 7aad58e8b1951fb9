"""The chip work of a set of grades, kind by kind, as the pit reads it.

The kinds are those a game keeps apart (its ``apart_kinds``: blackjack's pay in chips,
colour up and change). A chip question answered with the right money in the wrong chips
is a mistake of its own (a category of form only, as the game declares it: "right money,
wrong chips"), apart from a wrong amount; and a chip question is timed
against the target a dealer on the floor is held to (trainer.timing). On the pit's pages
the figures come from the tallies the dashboards already add up (trainer.tallies,
CHIP_FIELDS by kind), at no query of their own; the compliance report counts its period's
grades in one query.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q, Sum

from audit.selectors.grades import only_shown
from audit.selectors.report_attempts import graded_questions
from trainer.games import Game, game_named, game_names
from trainer.labels import form_categories
from trainer.models import ErrorCategory
from trainer.tallies import CHIP_FIELDS, Tally, accuracy_percent
from trainer.timing import chip_target_seconds


def _apart() -> dict[str, Game]:
    """The kinds kept apart, in each game's order, with the game that declares them."""
    found: dict[str, Game] = {}
    for name in game_names():
        game = game_named(name)
        for kind in game.apart_kinds:
            found.setdefault(kind, game)
    return found


@dataclass(frozen=True)
class ChipFigures:
    """One kind of chip question: how often asked, how it went, and how fast."""

    kind: str
    title: str
    questions: int
    correct: int
    wrong_chips: int
    wrong_money: int
    unanswered: int
    late: int
    mean_seconds: Decimal | None
    target_seconds: Decimal | None

    @property
    def accuracy(self) -> Decimal | None:
        return accuracy_percent(self.correct, self.questions)

    @property
    def over_target(self) -> bool:
        """Slower on average than a dealer on the floor should be."""
        if self.mean_seconds is None or self.target_seconds is None:
            return False
        return self.mean_seconds > self.target_seconds


def chip_figures(*, tally: Tally) -> list[ChipFigures]:
    """The chip questions among a tally's grades, kind by kind (only the kinds asked)."""
    return chip_figures_of(chips=tally.chips)


def report_chip_figures(*, start: dt.date, end: dt.date) -> list[ChipFigures]:
    """The chip work of a report's period, kind by kind, counted from its graded questions
    (the current run of each attempt) shown to the trainee, as the pit's tallies count
    them (a chip question of a round not reached was never asked), in the database: one
    query."""
    counts = {
        row["kind"]: [
            row["n"],
            row["n_right"],
            row["n_answered"],
            row["ms"] or 0,
            row["n_wrong_chips"],
            row["n_unanswered"],
            row["n_late"],
        ]
        for row in only_shown(graded_questions(start=start, end=end))
        .filter(kind__in=list(_apart()))
        .values("kind")
        .annotate(
            n=Count("id"),
            n_right=Count("id", filter=Q(correct=True)),
            n_answered=Count("response_ms"),
            ms=Sum("response_ms"),
            n_wrong_chips=Count("id", filter=Q(category__in=sorted(form_categories()))),
            n_unanswered=Count("id", filter=Q(category=ErrorCategory.UNANSWERED)),
            n_late=Count("id", filter=Q(category=ErrorCategory.LATE)),
        )
        .order_by()
    }
    return chip_figures_of(chips=counts)


def chip_figures_of(*, chips: Mapping[str, list[int]]) -> list[ChipFigures]:
    """As chip_figures, from chip figures by kind (a tally's or a summary's ``chips``)."""
    rows = []
    for kind, game in _apart().items():
        found = chips.get(kind)
        if not found:
            continue
        figures = dict(zip(CHIP_FIELDS, found, strict=True))
        questions, answered = figures["questions"], figures["answered"]
        wrong = questions - figures["correct"] - figures["unanswered"] - figures["late"]
        mean = (
            (Decimal(figures["response_ms_sum"]) / answered / 1000).quantize(Decimal("0.1"))
            if answered
            else None
        )
        rows.append(
            ChipFigures(
                kind=kind,
                title=game.kind_words(kind),
                questions=questions,
                correct=figures["correct"],
                wrong_chips=figures["wrong_chips"],
                wrong_money=wrong - figures["wrong_chips"],
                unanswered=figures["unanswered"],
                late=figures["late"],
                mean_seconds=mean,
                target_seconds=chip_target_seconds(kind, game=game.name),
            )
        )
    return rows
