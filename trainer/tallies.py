"""Tallies of graded questions: the arithmetic shared by the run summaries the grading
service writes and the dashboard selectors that add them up."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from trainer.models import ErrorCategory, GradingRunSummary

ZERO = Decimal("0.00")
NO_SKILL = "(none)"
BUCKET_MS = GradingRunSummary.HISTOGRAM_MS
LAST_BUCKET = GradingRunSummary.HISTOGRAM_LAST
UNANSWERED = ErrorCategory.UNANSWERED.value


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
    """What a summary needs of one grade: its verdict and its round's profile and skills."""

    correct: bool
    response_ms: int | None
    money_diff: Decimal
    category: str
    profile: str
    skills: tuple[str, ...]


def merge_counts(into: dict[str, int], counts: Mapping[str, int]) -> None:
    """Add counts by key into another such mapping."""
    for key, n in counts.items():
        into[key] = into.get(key, 0) + n


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

    def add_grade(self, grade: GradeFacts) -> None:
        self.questions += 1
        if grade.correct:
            self.correct += 1
        else:
            self.categories[grade.category] = self.categories.get(grade.category, 0) + 1
            if grade.category == UNANSWERED:
                # Counted against the score, but no skill was shown to be missing.
                return
            for skill in grade.skills or (NO_SKILL,):
                self.skills[skill] = self.skills.get(skill, 0) + 1
        if grade.response_ms is not None:
            self.answered += 1
            self.response_ms_sum += grade.response_ms
            bucket = str(bucket_of(grade.response_ms))
            self.histogram[bucket] = self.histogram.get(bucket, 0) + 1
        if grade.money_diff > 0:
            self.overpaid += grade.money_diff
        elif grade.money_diff < 0:
            self.underpaid -= grade.money_diff

    def add(self, other: Tally, *, counts: bool = True) -> None:
        """Add another tally's figures (``counts=False``: not its categories and skills)."""
        self.questions += other.questions
        self.correct += other.correct
        self.answered += other.answered
        self.response_ms_sum += other.response_ms_sum
        self.overpaid += other.overpaid
        self.underpaid += other.underpaid
        merge_counts(self.histogram, other.histogram)
        if counts:
            merge_counts(self.categories, other.categories)
            merge_counts(self.skills, other.skills)

    def as_json(self) -> dict[str, Any]:
        """The facet form stored in a summary's JSON (short keys: there are many)."""
        return {
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
        )


def summarize(grades: Iterable[GradeFacts]) -> tuple[Tally, dict[str, Tally], list[str]]:
    """The totals, the facets by key, and the profiles met, of one run's grades."""
    # Grades of the same profile and skills fall in the same facets: tally each such group
    # once, then add the group's tally to its facets (tallies of disjoint sets sum).
    groups: dict[tuple[str, tuple[str, ...]], Tally] = {}
    for grade in grades:
        key = (grade.profile, grade.skills)
        group = groups.get(key)
        if group is None:
            group = groups[key] = Tally()
        group.add_grade(grade)
    total = Tally()
    facets: dict[str, Tally] = defaultdict(Tally)
    profiles: set[str] = set()
    for (profile, skills), group in groups.items():
        total.add(group)
        profiles.add(profile)
        by_profile = profile_key(profile)
        facets[by_profile].add(group)
        for skill in set(skills):
            facets[skill_key(skill)].add(group)
            facets[f"{by_profile}|{skill_key(skill)}"].add(group)
    return total, dict(facets), sorted(profiles)
