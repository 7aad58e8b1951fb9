"""Observing: the practical test's evaluation sheet a game gives for a table, and the pass
rule a sheet is judged by.

An evaluator watches the trainee deal the game live and fills the sheet: the procedure
items (ticked when done right), the timed items (seconds on a stopwatch, each against its
target), the rubric lines (each scored 1 to 10, weighted), and comments. A sheet passes when
every critical item is met and the weighted score reaches the sheet's pass mark.

A game says its sheet through ``practical_sheet(parameters)`` (the table's rule parameters:
a table without insurance has no insurance item); ``ObservingDefaults`` gives a game that
says nothing a sheet of the rubric alone. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Protocol

RUBRIC_LOW, RUBRIC_HIGH = 1, 10


@dataclass(frozen=True)
class ProcedureItem:
    """A step of the game's procedure the evaluator ticks when the trainee does it right."""

    code: str
    words: str
    critical: bool = False


@dataclass(frozen=True)
class TimedItem:
    """A task timed on the stopwatch, met when done in under ``target_seconds``."""

    code: str
    words: str
    target_seconds: int
    critical: bool = False


@dataclass(frozen=True)
class RubricLine:
    """A quality scored 1 to 10, counted ``weight`` times in the weighted score."""

    code: str
    words: str
    weight: int = 1


# The European Dealer Championship's weights: hospitality 3, technical 2, control 2.
DEFAULT_RUBRIC: tuple[RubricLine, ...] = (
    RubricLine("hospitality", "Hospitality: greets, explains, keeps the players at ease", 3),
    RubricLine("technical", "Technical: card and chip handling, clean and sure", 2),
    RubricLine("control", "Control of the game: pace, watching the layout and the players", 2),
)


@dataclass(frozen=True)
class SheetTemplate:
    """The evaluation sheet of one table: what is ticked, timed and scored, and how it
    passes. ``practical_required``: a certification at this table needs a passed sheet."""

    procedures: tuple[ProcedureItem, ...] = ()
    timed: tuple[TimedItem, ...] = ()
    rubric: tuple[RubricLine, ...] = DEFAULT_RUBRIC
    pass_percent: Decimal = Decimal("70")
    practical_required: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "procedures": [
                {"code": p.code, "words": p.words, "critical": p.critical} for p in self.procedures
            ],
            "timed": [
                {
                    "code": t.code,
                    "words": t.words,
                    "target_seconds": t.target_seconds,
                    "critical": t.critical,
                }
                for t in self.timed
            ],
            "rubric": [{"code": r.code, "words": r.words, "weight": r.weight} for r in self.rubric],
            "pass_percent": str(self.pass_percent),
            "practical_required": self.practical_required,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SheetTemplate:
        return cls(
            procedures=tuple(ProcedureItem(**p) for p in data["procedures"]),
            timed=tuple(TimedItem(**t) for t in data["timed"]),
            rubric=tuple(RubricLine(**r) for r in data["rubric"]),
            pass_percent=Decimal(data["pass_percent"]),
            practical_required=bool(data["practical_required"]),
        )


@dataclass(frozen=True)
class Marks:
    """What the evaluator recorded: procedure code → done right, timed code → seconds
    (None: not timed), rubric code → score 1-10."""

    procedures: Mapping[str, bool] = field(default_factory=dict)
    timed: Mapping[str, Decimal | None] = field(default_factory=dict)
    rubric: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    passed: bool
    score: Decimal  # the weighted rubric score, percent of the most it can be
    shortfalls: tuple[str, ...]


def _weighted(template: SheetTemplate, marks: Marks) -> Decimal:
    most = sum(line.weight * RUBRIC_HIGH for line in template.rubric)
    if not most:
        return Decimal("100")
    got = sum(line.weight * marks.rubric.get(line.code, 0) for line in template.rubric)
    return (Decimal(got) * 100 / most).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def timed_met(item: TimedItem, seconds: Decimal | None) -> bool:
    return seconds is not None and seconds < item.target_seconds


def sheet_outcome(template: SheetTemplate, marks: Marks) -> Outcome:
    """The pass rule: every critical procedure done, every critical timed item under its
    target, and the weighted rubric score at least the pass mark."""
    found = [
        f"a critical step was not done right: {item.words}"
        for item in template.procedures
        if item.critical and not marks.procedures.get(item.code, False)
    ]
    for item in template.timed:
        if item.critical and not timed_met(item, marks.timed.get(item.code)):
            seconds = marks.timed.get(item.code)
            took = "not timed" if seconds is None else f"took {seconds} s"
            found.append(f"{item.words}: {took}, the target is under {item.target_seconds} s")
    score = _weighted(template, marks)
    if score < template.pass_percent:
        found.append(
            f"the weighted score {score} % is under the pass mark {template.pass_percent} %"
        )
    return Outcome(passed=not found, score=score, shortfalls=tuple(found))


class Observing(Protocol):
    def practical_sheet(self, parameters: Mapping[str, Any]) -> SheetTemplate:
        """The evaluation sheet of a table of this game with these rule parameters."""
        ...


class ObservingDefaults:
    """A game that says nothing of its practical test: a sheet of the rubric alone."""

    def practical_sheet(self, parameters: Mapping[str, Any]) -> SheetTemplate:
        return SheetTemplate()
