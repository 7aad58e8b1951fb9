"""Dashboard figures over graded work: the pit's dashboard and a trainee's page.

Only the grades of each attempt's *current* run count (the newest graded run,
trainer.selectors.runs): a regrade replaces the figures of the run it corrects, as it
replaces the attempt's score.

The figures are sums over the current runs' summaries (trainer.models.GradingRunSummary,
written with each run's grades), not over the grades themselves: a dashboard over a
million grades reads a few thousand run rows. Each trainee's sums are cached under the
version of that trainee's graded work (audit.selectors.graded_cache). The 90th percentile
of response times comes from the summed histogram and is approximate (within one histogram
bucket).

The selectors own the filtering: each takes the trainees and a `StatsFilter`
(`grades_list(trainees=..., filters=...)`); `grade_figures` reads the figures once for the
functions that show them.

Over 400 lines on purpose: every figure here reads the same cached per-trainee
tallies (`_compute`), so the dashboard's, a class page's and a trainee's figures cannot
drift apart.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import F, IntegerField, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast

from audit.selectors.graded_cache import (
    FIGURES_KEY,
    cache_get,
    cache_set,
    graded_generation,
    graded_versions,
    per_trainee,
    taking_turns,
)
from audit.selectors.grades import StatsFilter, Trainees, trainees_scope
from core.dates import days_bounds
from core.postgres import fetch_rows
from trainer.labels import category_words, skill_words
from trainer.models import ErrorCategory, GradingRunSummary, TrainingClass
from trainer.selectors.runs import current_summaries
from trainer.selectors.visibility import classes_visible_to
from trainer.tallies import BUCKET_MS, NO_SKILL, Tally, accuracy_percent, facet_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

ZERO = Decimal("0.00")
# The speed histogram's last bucket gathers every answer slower than this.
SPEED_BUCKETS_SECONDS = 20
TREND_ATTEMPTS = 30


@dataclass
class Figures:
    """The headline figures of a set of grades."""

    attempts: int = 0
    questions: int = 0
    correct: int = 0
    mean_ms: float | None = None
    p90_ms: float | None = None
    overpaid: Decimal = ZERO
    underpaid: Decimal = ZERO
    # Questions left unanswered: against the score, but no mistake to review.
    unanswered: int = 0
    # Points lost in games counting points, beside the money; None when none counted points.
    points: Decimal | None = None

    @property
    def accuracy(self) -> Decimal | None:
        return accuracy_percent(self.correct, self.questions)

    @property
    def mistakes(self) -> int:
        """Questions answered wrongly (or late): the ones a pit boss reviews."""
        return self.questions - self.correct - self.unanswered


@dataclass(frozen=True)
class TrendPoint:
    attempt_id: int
    when: datetime | None
    mode: str
    accuracy: Decimal


@dataclass
class ClassFigures:
    training_class: TrainingClass
    rows: list[tuple[User, Figures]] = field(default_factory=list)


@dataclass(frozen=True)
class _TraineeFigures:
    """One trainee's figures within a grade set: the tally, the attempts, and the figures
    shown from them (None when none of the trainee's grades is in the set)."""

    tally: Tally
    attempts: int
    figures: Figures | None


_NO_FIGURES = _TraineeFigures(Tally(), 0, None)


@dataclass(frozen=True)
class GradeFigures:
    """The figures of the current grades of some trainees under a filter, as grade_figures
    reads them: each trainee's, and all of them added up."""

    filters: StatsFilter
    by_trainee: dict[int, _TraineeFigures]
    total: Tally
    attempts: int


# The summaries the figures are read from.


def _summaries(*, trainees: Trainees, filters: StatsFilter) -> QuerySet[GradingRunSummary]:
    """The current runs' summaries of these trainees in the filter's dates (not narrowed to
    the profile and skill, whose figures are in each summary's facets)."""
    summaries = current_summaries().filter(trainee_id__in=trainees_scope(trainees))
    start, end = days_bounds(start=filters.date_from, end=filters.date_to)
    if start is not None:
        summaries = summaries.filter(submitted_at__gte=start)
    if end is not None:
        summaries = summaries.filter(submitted_at__lt=end)
    if filters.trainee_id:
        summaries = summaries.filter(trainee_id=filters.trainee_id)
    return summaries


def grade_figures(*, trainees: Trainees, filters: StatsFilter | None = None) -> GradeFigures:
    """Each trainee's figures over their current grades under the filter, and the total:
    two queries, and none for a trainee whose figures the cache holds (until one of the
    trainee's runs is graded)."""
    filters = filters or StatsFilter()
    ids = _ids(trainees)
    if filters.trainee_id:
        ids &= {filters.trainee_id}
    by_trainee = per_trainee(
        "grade-set",
        graded_versions(sorted(ids)),
        replace(filters, trainee_id=None),
        lambda trainee_ids: _compute(filters, trainee_ids),
        _NO_FIGURES,
    )
    total = Tally()
    for trainee in by_trainee.values():
        total.add(trainee.tally)
    attempts = sum(trainee.attempts for trainee in by_trainee.values())
    return GradeFigures(filters=filters, by_trainee=by_trainee, total=total, attempts=attempts)


def grade_totals(*, trainees: Trainees, filters: StatsFilter | None = None) -> GradeFigures:
    """grade_figures' total only (its by_trainee left empty): two queries, and one cache
    read when nobody's work was graded since it was last added up.

    Adding up two thousand trainees' cached figures costs more than the page, and so does
    asking for the graded version of each: the sum is kept under the graded generation
    (one count over the summaries' key) and the trainees in view, so any grading makes it
    add up again (from the per-trainee figures, themselves cached), once however many of
    this process's threads ask at the same time."""
    filters = filters or StatsFilter()
    # Read before the figures: what is kept under it is then never older than it says.
    generation = graded_generation()
    ids = _ids(trainees)
    if filters.trainee_id:
        ids &= {filters.trainee_id}
    key = (
        f"{FIGURES_KEY}:grade-total:"
        + hashlib.sha256(
            repr((generation, sorted(ids), replace(filters, trainee_id=None))).encode()
        ).hexdigest()
    )
    kept = cache_get(key)
    if not _kept_total(kept):
        with taking_turns(key):
            kept = cache_get(key)
            if not _kept_total(kept):
                figures = grade_figures(trainees=ids, filters=filters)
                cache_set(key, (figures.total, figures.attempts))
                return replace(figures, by_trainee={})
    assert isinstance(kept, tuple)
    return GradeFigures(filters=filters, by_trainee={}, total=kept[0], attempts=kept[1])


def _kept_total(kept: object) -> bool:
    return isinstance(kept, tuple) and len(kept) == 2


def _compute(filters: StatsFilter, trainee_ids: list[int]) -> dict[int, _TraineeFigures]:
    # Read through a plain cursor: converting thousands of rows' JSON through the ORM
    # costs more than the query.
    summaries = _summaries(trainees=trainee_ids, filters=filters).order_by()
    key = facet_key(profile=filters.profile, skill=filters.skill)
    if key is None:
        rows = fetch_rows(summaries.values_list("trainee_id", *_TOTALS))
        tallies = ((row[0], _tally(row[1:7], *row[7:12], points=row[12])) for row in rows)
    else:
        # Only the facet: reading each row's facets once (not has_key as well) is what
        # keeps a filtered page's query short.
        rows = fetch_rows(
            summaries.annotate(facet=KeyTransform(key, "facets")).values_list("trainee_id", "facet")
        )
        tallies = ((row[0], Tally.from_json(_json(row[1]))) for row in rows if row[1] is not None)
    sums: dict[int, tuple[Tally, int]] = {}
    for trainee_id, tally in tallies:
        own, attempts = sums.get(trainee_id) or (Tally(), 0)
        own.add(tally)
        sums[trainee_id] = (own, attempts + 1)
    return {
        trainee_id: _TraineeFigures(
            tally, attempts, _figures(tally, attempts) if tally.questions else None
        )
        for trainee_id, (tally, attempts) in sums.items()
    }


_TOTALS = (
    "questions",
    "correct",
    "answered",
    "response_ms_sum",
    "overpaid",
    "underpaid",
    "histogram",
    "categories",
    "skills",
    "chips",
    "not_reached",
    "points",
)


def _ids(trainees: Trainees) -> set[int]:
    if isinstance(trainees, QuerySet):
        return set(trainees.values_list("pk", flat=True))
    return set(trainees)


def _money(value: Any) -> Decimal:
    # PostgreSQL gives Decimal; SQLite keeps two-place decimals as floats, which print back
    # exactly (str of a float is its shortest round-trip form).
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _tally(
    scalars: Sequence[Any],
    histogram: Any,
    categories: Any,
    skills: Any,
    chips: Any,
    not_reached: int = 0,
    *,
    points: Any = None,
) -> Tally:
    questions, correct, answered, response_ms_sum, overpaid, underpaid = scalars
    return Tally(
        questions=questions,
        correct=correct,
        answered=answered,
        response_ms_sum=response_ms_sum,
        overpaid=_money(overpaid),
        underpaid=_money(underpaid),
        histogram=dict(_json(histogram)),
        categories=dict(_json(categories)),
        skills=dict(_json(skills)),
        chips=dict(_json(chips)),
        not_reached=not_reached,
        points=None if points is None else _money(points),
    )


def _json(value: Any) -> Mapping[str, Any]:
    # JSON comes back from a plain cursor as text (or decoded, by some drivers).
    decoded: Mapping[str, Any] = json.loads(value) if isinstance(value, str) else value
    return decoded


# Figures.


def histogram_percentile(histogram: Mapping[str, int], fraction: float) -> float | None:
    """The percentile of response times known only by bucket counts: each bucket's answers
    are taken as spread evenly across it, then interpolated as percentile_cont does."""
    total = sum(histogram.values())
    if not total:
        return None
    position = fraction * (total - 1)
    wanted = sorted({math.floor(position), math.ceil(position)})
    values: dict[int, float] = {}
    seen = 0
    for bucket, count in sorted((int(k), n) for k, n in histogram.items()):
        for rank in wanted:
            if seen <= rank < seen + count and rank not in values:
                values[rank] = BUCKET_MS * (bucket + (rank - seen + 0.5) / count)
        seen += count
    low, high = values[wanted[0]], values[wanted[-1]]
    return low + (high - low) * (position - math.floor(position))


def _figures(tally: Tally, attempts: int) -> Figures:
    if not tally.questions:
        return Figures()
    return Figures(
        attempts=attempts,
        questions=tally.questions,
        correct=tally.correct,
        mean_ms=tally.response_ms_sum / tally.answered if tally.answered else None,
        p90_ms=histogram_percentile(tally.histogram, 0.9),
        overpaid=tally.overpaid.quantize(ZERO),
        underpaid=tally.underpaid.quantize(ZERO),
        unanswered=tally.categories.get(ErrorCategory.UNANSWERED, 0),
        points=None if tally.points is None else tally.points.quantize(ZERO),
    )


def figures_by_trainee(*, figures: GradeFigures) -> dict[int, Figures]:
    """Each trainee's figures (those with a grade among them)."""
    return {
        trainee_id: trainee.figures
        for trainee_id, trainee in figures.by_trainee.items()
        if trainee.figures is not None
    }


def figures_total(*, figures: GradeFigures) -> Figures:
    """The figures of all the grades together."""
    return _figures(figures.total, figures.attempts)


CLASSES_PER_PAGE = 10


@dataclass(frozen=True)
class ClassPage:
    """One page of the classes the viewer may see, with their trainees' figures."""

    blocks: list[ClassFigures]
    number: int
    pages: int
    classes: int
    per_page: int = CLASSES_PER_PAGE

    @property
    def first(self) -> int:
        return (self.number - 1) * self.per_page + 1

    @property
    def last(self) -> int:
        return min(self.number * self.per_page, self.classes)


def dashboard_class_page(
    *,
    user: AbstractBaseUser | AnonymousUser,
    filters: StatsFilter,
    page: int = 1,
    per_page: int = CLASSES_PER_PAGE,
) -> ClassPage:
    """A page of the classes the viewer may see: each with its trainees (narrowed by the
    trainee filter) and their figures over the filtered grades. The figures are read for
    that page's trainees only, so a compliance officer over a hundred classes waits for
    ten of them. A page past the last is the last. A constant number of queries."""
    classes = classes_visible_to(user=user).order_by("name", "pk")
    count = classes.count()
    pages = max(1, math.ceil(count / per_page))
    number = min(max(1, page), pages)
    chosen = list(classes[(number - 1) * per_page : number * per_page].prefetch_related("trainees"))
    # A class the viewer may see is one whose trainees they may see.
    on_page = {trainee.pk for c in chosen for trainee in c.trainees.all()}
    figures = grade_figures(trainees=on_page, filters=filters)
    return ClassPage(_blocks(chosen, filters, figures), number, pages, count, per_page)


def _blocks(
    classes: Iterable[TrainingClass], filters: StatsFilter, figures: GradeFigures
) -> list[ClassFigures]:
    by_trainee = figures_by_trainee(figures=figures)
    result = []
    for training_class in classes:
        block = ClassFigures(training_class)
        for trainee in sorted(training_class.trainees.all(), key=lambda u: u.get_full_name()):
            if filters.trainee_id and trainee.pk != filters.trainee_id:
                continue
            block.rows.append((trainee, by_trainee.get(trainee.pk, Figures())))
        result.append(block)
    return result


def errors_by_category(*, figures: GradeFigures) -> list[tuple[str, int]]:
    """How many mistakes of each category, most frequent first (unanswered questions are
    not mistakes: figures show them on their own)."""
    labels = category_words()
    counts = figures.total.categories
    return [
        (labels.get(name, name or "Missed"), n)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n and name != ErrorCategory.UNANSWERED
    ]


# The mistakes on questions that exercise no skill of their round (the game's question_skills).
NO_SKILL_LABEL = "Other questions"


def errors_by_skill(*, figures: GradeFigures) -> list[tuple[str, int]]:
    """How many mistakes on questions exercising each skill (the game's question_skills: a question
    may exercise several, or none of its round's skills: "Other questions")."""
    labels = {**skill_words(), NO_SKILL: NO_SKILL_LABEL}
    counts = figures.total.skills
    return [
        (labels.get(name, name), n)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n
    ]


def accuracy_trend(*, trainees: Trainees, filters: StatsFilter | None = None) -> list[TrendPoint]:
    """Accuracy per graded attempt, oldest first (the latest few): one short query."""
    filters = filters or StatsFilter()
    newest = _summaries(trainees=trainees, filters=filters).order_by(
        F("submitted_at").desc(nulls_last=True), "-attempt_id"
    )
    key = facet_key(profile=filters.profile, skill=filters.skill)
    if key is None:
        rows = newest.filter(questions__gt=0).values_list(
            "attempt_id", "submitted_at", "mode", "correct", "questions"
        )
    else:
        facet = KeyTransform(key, "facets")
        rows = (
            newest.filter(facets__has_key=key)
            .annotate(
                facet_correct=Cast(KeyTransform("c", facet), IntegerField()),
                facet_questions=Cast(KeyTransform("q", facet), IntegerField()),
            )
            .values_list("attempt_id", "submitted_at", "mode", "facet_correct", "facet_questions")
        )
    return [
        TrendPoint(
            attempt_id=attempt_id,
            when=when,
            mode=mode,
            accuracy=(Decimal(100) * correct / questions).quantize(Decimal("0.1")),
        )
        for attempt_id, when, mode, correct, questions in reversed(rows[:TREND_ATTEMPTS])
        if questions
    ]


def speed_histogram(*, figures: GradeFigures) -> list[tuple[int, int]]:
    """(whole seconds, answers) for each second up to the last bucket, which holds the rest."""
    seconds = [0] * (SPEED_BUCKETS_SECONDS + 1)
    for bucket, n in figures.total.histogram.items():
        seconds[min(int(bucket) * BUCKET_MS // 1000, SPEED_BUCKETS_SECONDS)] += n
    return list(enumerate(seconds))
