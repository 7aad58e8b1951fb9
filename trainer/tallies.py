"""Tallies of graded questions: the arithmetic shared by the run summaries the grading
service writes and the dashboard selectors that add them up."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from trainer.games import game_named, game_names, games_generation
from trainer.models import ErrorCategory, GradingRunSummary

ZERO = Decimal("0.00")
NO_SKILL = "(none)"
BUCKET_MS = GradingRunSummary.HISTOGRAM_MS
LAST_BUCKET = GradingRunSummary.HISTOGRAM_LAST
UNANSWERED = ErrorCategory.UNANSWERED.value
LATE = ErrorCategory.LATE.value
# A chip kind's figures, in the order ChipCounts keeps them.
CHIP_FIELDS = (
    "questions",
    "correct",
    "answered",
    "response_ms_sum",
    "wrong_chips",
    "unanswered",
    "late",
)


class _Declared:
    """What the games declare that a tally reads, gathered again when the games change:
    the question kinds whose figures are kept apart (blackjack's chip work: ``chips``) and
    the categories of a mistake of form only (blackjack's right money in the wrong chips)."""

    generation = -1
    apart: frozenset[str] = frozenset()
    form: frozenset[str] = frozenset()

    @classmethod
    def read(cls) -> type[_Declared]:
        generation = games_generation()
        if generation != cls.generation:
            games = [game_named(name) for name in game_names()]
            cls.apart = frozenset(kind for game in games for kind in game.apart_kinds)
            cls.form = frozenset(
                code for game in games for code, c in game.categories.items() if c.form
            )
            cls.generation = generation
        return cls


def accuracy_percent(correct: int, questions: int) -> Decimal | None:
    """Percent of questions answered right, to one decimal (halves up, as every page
    rounds); None before any grade."""
    if not questions:
        return None
    return (Decimal(100) * correct / questions).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def bucket_of(response_ms: int) -> int:
    """The histogram bucket of a response time (the last one gathers every slower one)."""
    return min(response_ms // BUCKET_MS, LAST_BUCKET)


def profile_key(profile: str) -> str:
    return f"p:{profile}"


def skill_key(skill: str) -> str:
    return f"s:{skill}"


def facet_key(*, profile: str | None, skill: str | None) -> str | None:
    """The key of the facet holding the figures for this profile and/or skill filter."""
    if profile and skill:
        return f"{profile_key(profile)}|{skill_key(skill)}"
    if profile:
        return profile_key(profile)
    if skill:
        return skill_key(skill)
    return None


@dataclass(frozen=True)
class GradeFacts:
    """What a summary needs of one grade: its verdict, its round's profile, the skills the
    question exercises (its game's question_skills) and whether it was shown."""

    correct: bool
    response_ms: int | None
    money_diff: Decimal
    category: str
    profile: str
    skills: tuple[str, ...]
    # The question's kind: the chip questions' figures are also kept apart by kind.
    kind: str = ""
    # Put to the trainee. A question never shown (a round not reached, an exam abandoned)
    # counts in the score and the totals, for no skill, and apart as not reached.
    shown: bool = True
    # A game counting points (trainer.games.marking.POINTS): the grade's points; None in a
    # game counting money.
    points_diff: Decimal | None = None


def merge_counts(into: dict[str, int], counts: Mapping[str, int]) -> None:
    """Add counts by key into another such mapping."""
    for key, n in counts.items():
        into[key] = into.get(key, 0) + n


def merge_chip_counts(into: dict[str, list[int]], counts: Mapping[str, list[int]]) -> None:
    """Add chip figures by kind (lists of CHIP_FIELDS) into another such mapping."""
    for kind, figures in counts.items():
        own = into.get(kind)
        if own is None:
            into[kind] = list(figures)
        else:
            into[kind] = [a + b for a, b in zip(own, figures, strict=True)]


@dataclass
class Tally:
    """Figures of a set of grades that add up: two tallies of disjoint sets sum.

    The histogram counts answers by bucket index, kept as text as in the stored JSON.
    A tally read from a summary shares the summary's dicts: add to a fresh Tally.
    """

    questions: int = 0
    correct: int = 0
    answered: int = 0
    response_ms_sum: int = 0
    overpaid: Decimal = ZERO
    underpaid: Decimal = ZERO
    histogram: dict[str, int] = field(default_factory=dict)
    categories: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    # Pay in chips, colour up and change, each on its own (by kind: CHIP_FIELDS), so the
    # pit sees chip mistakes apart from money mistakes and the time a chip question takes.
    chips: dict[str, list[int]] = field(default_factory=dict)
    # Questions never shown to the trainee (rounds not reached): in `questions`, and in no
    # skill's figures.
    not_reached: int = 0
    # Points lost to mistakes in games counting points (each grade's points, either way),
    # beside the money and never added to it; None when no grade counted points.
    points: Decimal | None = None

    def _add_points(self, points: Decimal | None) -> None:
        if points is not None:
            self.points = (self.points or ZERO) + points

    def add_grade(self, grade: GradeFacts) -> None:
        declared = _Declared.read()
        if grade.kind in declared.apart and grade.shown:
            # Chip work asked: a chip question never shown is not reached, not asked.
            self._add_chip_grade(grade, declared.form)
        self.questions += 1
        if not grade.shown:
            self.not_reached += 1
        if grade.correct:
            self.correct += 1
        else:
            self.categories[grade.category] = self.categories.get(grade.category, 0) + 1
            if grade.category == UNANSWERED:
                # Counted against the score, but no skill was shown to be missing.
                return
            # A mistake under each skill the question exercises (NO_SKILL: none of them);
            # a question never shown is no skill's mistake.
            for skill in (grade.skills or (NO_SKILL,)) if grade.shown else ():
                self.skills[skill] = self.skills.get(skill, 0) + 1
        if grade.response_ms is not None:
            self.answered += 1
            self.response_ms_sum += grade.response_ms
            bucket = str(bucket_of(grade.response_ms))
            self.histogram[bucket] = self.histogram.get(bucket, 0) + 1
        if grade.points_diff is not None:
            self._add_points(abs(grade.points_diff))
        if grade.money_diff > 0:
            self.overpaid += grade.money_diff
        elif grade.money_diff < 0:
            self.underpaid -= grade.money_diff

    def _add_chip_grade(self, grade: GradeFacts, form: frozenset[str]) -> None:
        answered = grade.response_ms is not None
        merge_chip_counts(
            self.chips,
            {
                grade.kind: [
                    1,
                    int(grade.correct),
                    int(answered),
                    grade.response_ms or 0,
                    int(grade.category in form),
                    int(grade.category == UNANSWERED),
                    int(grade.category == LATE),
                ]
            },
        )

    def add(self, other: Tally, *, counts: bool = True) -> None:
        """Add another tally's figures (``counts=False``: not its categories and skills)."""
        self.questions += other.questions
        self.correct += other.correct
        self.not_reached += other.not_reached
        self.answered += other.answered
        self.response_ms_sum += other.response_ms_sum
        self.overpaid += other.overpaid
        self.underpaid += other.underpaid
        self._add_points(other.points)
        merge_counts(self.histogram, other.histogram)
        merge_chip_counts(self.chips, other.chips)
        if counts:
            merge_counts(self.categories, other.categories)
            merge_counts(self.skills, other.skills)

    def as_json(self) -> dict[str, Any]:
        """The facet form stored in a summary's JSON (short keys: there are many)."""
        out: dict[str, Any] = {
            "q": self.questions,
            "c": self.correct,
            "a": self.answered,
            "ms": self.response_ms_sum,
            "over": str(self.overpaid),
            "under": str(self.underpaid),
            "h": dict(sorted(self.histogram.items(), key=lambda kv: int(kv[0]))),
            "cat": dict(self.categories),
            "sk": dict(self.skills),
        }
        # Only where a question was not reached, or chip questions were graded: most
        # facets have neither.
        if self.not_reached:
            out["nr"] = self.not_reached
        if self.points is not None:
            out["pt"] = str(self.points)
        if self.chips:
            out["ch"] = {kind: list(figures) for kind, figures in sorted(self.chips.items())}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        return cls(
            questions=data["q"],
            correct=data["c"],
            answered=data["a"],
            response_ms_sum=data["ms"],
            overpaid=Decimal(data["over"]),
            underpaid=Decimal(data["under"]),
            histogram=data["h"],
            categories=data["cat"],
            skills=data["sk"],
            chips=data.get("ch", {}),
            not_reached=data.get("nr", 0),
            points=Decimal(data["pt"]) if "pt" in data else None,
        )


def summarize(grades: Iterable[GradeFacts]) -> tuple[Tally, dict[str, Tally], list[str]]:
    """The totals, the facets by key, and the profiles met, of one run's grades.

    Every grade is in the totals and its profile's facet; a grade is in a skill's facets
    (``s:<skill>``, ``p:<profile>|s:<skill>``) only when its question was shown and
    exercises that skill (``GradeFacts.skills``): once in each such skill, in none else.
    """
    # Grades of the same profile, skills and showing fall in the same facets: tally each
    # such group once, then add the group's tally to its facets (tallies of disjoint sets
    # sum).
    groups: dict[tuple[str, tuple[str, ...], bool], Tally] = {}
    for grade in grades:
        key = (grade.profile, grade.skills, grade.shown)
        group = groups.get(key)
        if group is None:
            group = groups[key] = Tally()
        group.add_grade(grade)
    total = Tally()
    facets: dict[str, Tally] = defaultdict(Tally)
    profiles: set[str] = set()
    for (profile, skills, shown), group in groups.items():
        total.add(group)
        profiles.add(profile)
        by_profile = profile_key(profile)
        facets[by_profile].add(group)
        if not shown:
            continue
        for skill in set(skills):
            facets[skill_key(skill)].add(group)
            facets[f"{by_profile}|{skill_key(skill)}"].add(group)
    return total, dict(facets), sorted(profiles)


def skill_tallies(facets: Mapping[str, Any] | None) -> dict[str, Tally]:
    """Each skill's figures held in a summary's facets (its own ``s:<skill>`` facets, not
    those combined with a profile): the one reading of the skill figures, for an
    attempt's results, My record, the refresher's weakest skills and the pit alike."""
    prefix = skill_key("")
    return {
        key[len(prefix) :]: Tally.from_json(data)
        for key, data in (facets or {}).items()
        if key.startswith(prefix)
    }
