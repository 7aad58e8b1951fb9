"""Dashboard figures over graded work, scoped to the viewer.

Only the grades of each attempt's *current* run count (the newest graded run): a regrade
replaces the figures of the run it corrects, as it replaces the attempt's score.

The figures are sums over the current runs' summaries (trainer.models.GradingRunSummary,
written with each run's grades), not over the grades themselves: a dashboard over a
million grades reads a few thousand run rows. Each trainee's sums are cached under the
version of that trainee's graded work, so a newly graded run shows at once in every
process and costs the next page only its own trainee's sums. The 90th percentile of
response times comes from the summed histogram and is approximate (within one histogram
bucket).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import Avg, Count, Exists, F, IntegerField, Max, OuterRef, Q, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast
from django.utils import timezone

from core.errors import NotFoundError
from core.roles import Role, roles_of
from trainer.models import (
    Attempt,
    ErrorCategory,
    Grade,
    GradingRun,
    GradingRunSummary,
    GradingStatus,
    Mode,
    RunStatus,
    Skill,
    TrainingClass,
)
from trainer.tallies import BUCKET_MS, Tally, facet_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

ZERO = Decimal("0.00")
# The speed histogram's last bucket gathers every answer slower than this.
SPEED_BUCKETS_SECONDS = 20
TREND_ATTEMPTS = 30


@dataclass(frozen=True)
class StatsFilter:
    """What the dashboard's filter form narrows the figures to (all optional)."""

    date_from: date | None = None
    date_to: date | None = None
    profile: str | None = None
    skill: str | None = None
    trainee_id: int | None = None


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

    @property
    def accuracy(self) -> Decimal | None:
        """Percent of questions answered right, to one decimal; None before any grade."""
        if not self.questions:
            return None
        return (Decimal(100) * self.correct / self.questions).quantize(Decimal("0.1"))

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


@dataclass(frozen=True)
class AttemptEvidence:
    """What a certification of one exam attempt rests on (recorded with the signature)."""

    attempt_id: int
    run_id: int
    trainee_id: int
    mode: str
    passed: bool | None
    score: Decimal | None
    rounds: int
    questions: int
    correct: int
    mean_ms: float | None
    profiles: tuple[str, ...]
    graded_at: datetime | None
    # Which drill was sat, and when: what the sign-off asks of the sitting besides figures.
    drill_id: int | None = None
    submitted_at: datetime | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "attempt_id": self.attempt_id,
            "run_id": self.run_id,
            "mode": self.mode,
            "passed": self.passed,
            "score": str(self.score) if self.score is not None else None,
            "rounds": self.rounds,
            "questions": self.questions,
            "correct": self.correct,
            "mean_response_ms": round(self.mean_ms) if self.mean_ms is not None else None,
            "profiles": list(self.profiles),
            "graded_at": self.graded_at.isoformat() if self.graded_at else None,
        }


@dataclass
class ClassFigures:
    training_class: TrainingClass
    rows: list[tuple[User, Figures]] = field(default_factory=list)


# Who may see whom.


def trainees_visible_to(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[User]:
    """The trainees whose work this user may see: a pit boss's classes; everyone for
    compliance and admins; nobody for anyone else."""
    users = get_user_model().objects.all()
    held = roles_of(user)
    if Role.ADMIN in held or Role.COMPLIANCE in held:
        return users.filter(
            Q(groups__name=Role.TRAINEE.value) | Q(classes_attended__isnull=False)
        ).distinct()
    if Role.PIT_BOSS in held:
        return users.filter(classes_attended__instructors=user.pk).distinct()
    return users.none()


def classes_visible_to(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[TrainingClass]:
    held = roles_of(user)
    classes = TrainingClass.objects.all()
    if Role.ADMIN in held or Role.COMPLIANCE in held:
        return classes
    if Role.PIT_BOSS in held:
        return classes.filter(instructors=user.pk)
    return classes.none()


def trainee_get_for_viewer(*, trainee_id: int, user: AbstractBaseUser | AnonymousUser) -> User:
    """The trainee, if this user may see their work; NotFoundError otherwise."""
    found = trainees_visible_to(user=user).filter(pk=trainee_id).first()
    if found is None:
        raise NotFoundError("no such trainee among yours", field="trainee")
    return found


def viewer_may_act_for(*, user: AbstractBaseUser | AnonymousUser, trainee: User) -> bool:
    """True for an admin, or a pit boss who teaches one of the trainee's classes."""
    held = roles_of(user)
    if Role.ADMIN in held:
        return True
    return (
        Role.PIT_BOSS in held
        and TrainingClass.objects.filter(instructors=user.pk, trainees=trainee).exists()
    )


# Grades.


def current_runs() -> QuerySet[GradingRun]:
    """Each attempt's newest graded run."""
    newer = GradingRun.objects.filter(
        attempt=OuterRef("attempt"), status=RunStatus.GRADED, number__gt=OuterRef("number")
    )
    return GradingRun.objects.filter(status=RunStatus.GRADED).exclude(Exists(newer))


def current_run_of(*, attempt: Attempt) -> GradingRun | None:
    return current_runs().filter(attempt=attempt).first()


def current_summaries() -> QuerySet[GradingRunSummary]:
    """The summaries of each attempt's newest graded run."""
    newer = GradingRun.objects.filter(
        attempt=OuterRef("attempt_id"), status=RunStatus.GRADED, number__gt=OuterRef("number")
    )
    return GradingRunSummary.objects.exclude(Exists(newer))


@dataclass(frozen=True)
class _TraineeFigures:
    """One trainee's figures within a grade set: the tally, the attempts, and the figures
    shown from them (None when none of the trainee's grades is in the set)."""

    tally: Tally
    attempts: int
    figures: Figures | None


_NO_FIGURES = _TraineeFigures(Tally(), 0, None)

# A trainee's figures are cached under the version of that trainee's graded work, so a
# newly graded run recomputes its own trainee's figures only, and shows at once; the
# timeout only bounds how long figures nobody asks for again stay in memory.
FIGURES_CACHE_SECONDS = 6 * 3600
_T = TypeVar("_T")


def _graded_versions(trainee_ids: Sequence[int]) -> dict[int, str]:
    """For each of these trainees with graded work, a text that changes whenever one of
    their runs is graded: summaries are only ever inserted, never changed or deleted, so
    their count and newest key tell every version apart. One query."""
    rows = (
        GradingRunSummary.objects.filter(trainee_id__in=trainee_ids)
        .order_by()
        .values_list("trainee_id")
        .annotate(n=Count("pk"), last=Max("pk"))
    )
    return {trainee_id: f"{n}.{last}" for trainee_id, n, last in rows}


def _per_trainee(
    name: str,
    versions: Mapping[int, str],
    params: object,
    compute: Callable[[list[int]], Mapping[int, _T]],
    nothing: _T,
) -> dict[int, _T]:
    """``compute(trainee_ids)`` for each trainee, reusing what the cache holds for the same
    trainee, graded work and parameters; ``nothing`` for a trainee compute leaves out."""
    digest = hashlib.sha256(repr(params).encode()).hexdigest()[:32]
    keys = {
        trainee_id: f"shoeschool:stats:{name}:{trainee_id}:{version}:{digest}"
        for trainee_id, version in versions.items()
    }
    found = cache.get_many(list(keys.values()))
    result = {trainee_id: found[key] for trainee_id, key in keys.items() if key in found}
    missing = sorted(set(keys) - set(result))
    if missing:
        computed = compute(missing)
        fresh = {trainee_id: computed.get(trainee_id, nothing) for trainee_id in missing}
        cache.set_many({keys[t]: value for t, value in fresh.items()}, FIGURES_CACHE_SECONDS)
        result.update(fresh)
    return result


class GradeSet:
    """The current grades of some trainees, narrowed by a filter: what a page's figures
    are over. The figures are read from the runs' summaries; `grades()` gives the rows.

    It stands in for a queryset of grades where the pages and the filter form use one
    (``all``, ``count``, ``exists``, ``filter``, ``model``).
    """

    model = Grade

    def __init__(
        self, *, trainees: QuerySet[Any, Any] | Iterable[int], filters: StatsFilter | None = None
    ) -> None:
        self.trainees = trainees if isinstance(trainees, QuerySet) else list(trainees)
        self.filters = filters or StatsFilter()
        self._by_trainee: dict[int, _TraineeFigures] | None = None
        self._total: Tally | None = None

    def all(self) -> GradeSet:
        return self

    def narrowed(self, filters: StatsFilter) -> GradeSet:
        """This set further narrowed: the filter's fields that are set replace these."""
        given = {k: v for k, v in vars(filters).items() if v is not None}
        return GradeSet(trainees=self.trainees, filters=replace(self.filters, **given))

    def grades(self) -> QuerySet[Grade]:
        """The grade rows themselves."""
        runs = current_runs().filter(attempt__trainee__in=self.trainees)
        return _grades_filter(Grade.objects.filter(run__in=runs.values("id")), self.filters)

    def count(self) -> int:
        return self.grades().count()

    def exists(self) -> bool:
        return self.grades().exists()

    def filter(self, *args: Any, **kwargs: Any) -> QuerySet[Grade]:
        return self.grades().filter(*args, **kwargs)

    def trainee_ids(self) -> list[int]:
        """The set's trainees, narrowed by the trainee filter."""
        ids = _ids(self.trainees)
        if self.filters.trainee_id:
            ids &= {self.filters.trainee_id}
        return sorted(ids)

    def summaries(self, *, trainee_ids: Iterable[int] | None = None) -> QuerySet[GradingRunSummary]:
        """The current runs' summaries of the set's trainees (or of some of them) in the
        set's dates (not narrowed to the profile and skill, whose figures are in each
        summary's facets)."""
        f = self.filters
        summaries = current_summaries().filter(
            trainee_id__in=self.trainees if trainee_ids is None else list(trainee_ids)
        )
        tz = timezone.get_current_timezone()
        if f.date_from:
            start = datetime.combine(f.date_from, time.min, tzinfo=tz)
            summaries = summaries.filter(submitted_at__gte=start)
        if f.date_to:
            end = datetime.combine(f.date_to, time.max, tzinfo=tz)
            summaries = summaries.filter(submitted_at__lte=end)
        if f.trainee_id:
            summaries = summaries.filter(trainee_id=f.trainee_id)
        return summaries

    def by_trainee(self) -> dict[int, _TraineeFigures]:
        """Each trainee's figures (kept for this object, and in the cache until one of the
        trainee's runs is graded)."""
        if self._by_trainee is None:
            self._by_trainee = _per_trainee(
                "grade-set",
                _graded_versions(self.trainee_ids()),
                replace(self.filters, trainee_id=None),
                self._compute,
                _NO_FIGURES,
            )
        return self._by_trainee

    def total(self) -> Tally:
        """All the set's figures added up: the trainees' sums."""
        if self._total is None:
            self._total = Tally()
            for trainee in self.by_trainee().values():
                self._total.add(trainee.tally)
        return self._total

    def attempts(self) -> int:
        return sum(trainee.attempts for trainee in self.by_trainee().values())

    def trend(self) -> list[TrendPoint]:
        """Accuracy per graded attempt, oldest first (the latest few): one short query."""
        newest = self.summaries().order_by(F("submitted_at").desc(nulls_last=True), "-attempt_id")
        key = facet_key(profile=self.filters.profile, skill=self.filters.skill)
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
                .values_list(
                    "attempt_id", "submitted_at", "mode", "facet_correct", "facet_questions"
                )
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

    def _compute(self, trainee_ids: list[int]) -> dict[int, _TraineeFigures]:
        # Read through a plain cursor: converting thousands of rows' JSON through the ORM
        # costs more than the query.
        summaries = self.summaries(trainee_ids=trainee_ids).order_by()
        key = facet_key(profile=self.filters.profile, skill=self.filters.skill)
        if key is None:
            rows = _fetch(summaries.values_list("trainee_id", *_TOTALS))
            tallies = ((row[0], _tally(row[1:7], row[7], row[8], row[9])) for row in rows)
        else:
            # Only the facet: reading each row's facets once (not has_key as well) is what
            # keeps a filtered page's query short.
            rows = _fetch(
                summaries.annotate(facet=KeyTransform(key, "facets")).values_list(
                    "trainee_id", "facet"
                )
            )
            tallies = (
                (row[0], Tally.from_json(_json(row[1]))) for row in rows if row[1] is not None
            )
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
)


def _ids(trainees: QuerySet[Any, Any] | Iterable[int]) -> set[int]:
    if isinstance(trainees, QuerySet):
        return set(trainees.values_list("pk", flat=True))
    return set(trainees)


def _fetch(values: QuerySet[Any, Any]) -> list[tuple[Any, ...]]:
    """The rows of a values_list query as the database driver gives them."""
    sql, params = values.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _money(value: Any) -> Decimal:
    # PostgreSQL gives Decimal; SQLite keeps two-place decimals as floats, which print back
    # exactly (str of a float is its shortest round-trip form).
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _tally(scalars: Sequence[Any], histogram: Any, categories: Any, skills: Any) -> Tally:
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
    )


def _json(value: Any) -> Mapping[str, Any]:
    # JSON comes back from a plain cursor as text (or decoded, by some drivers).
    decoded: Mapping[str, Any] = json.loads(value) if isinstance(value, str) else value
    return decoded


def current_grades(*, trainees: QuerySet[Any, Any] | Iterable[int]) -> GradeSet:
    """The grades of the current runs of these trainees' attempts."""
    return GradeSet(trainees=trainees)


def grades_filter(*, grades: GradeSet | QuerySet[Grade], filters: StatsFilter) -> Any:
    """Narrow grades to the filter's date range (of submission), profile, skill, trainee:
    a grade set stays a grade set, a queryset of grades stays a queryset."""
    if isinstance(grades, GradeSet):
        return grades.narrowed(filters)
    return _grades_filter(grades, filters)


def _grades_filter(grades: QuerySet[Grade], filters: StatsFilter) -> QuerySet[Grade]:
    tz = timezone.get_current_timezone()
    if filters.date_from:
        start = datetime.combine(filters.date_from, time.min, tzinfo=tz)
        grades = grades.filter(run__attempt__submitted_at__gte=start)
    if filters.date_to:
        end = datetime.combine(filters.date_to, time.max, tzinfo=tz)
        grades = grades.filter(run__attempt__submitted_at__lte=end)
    if filters.profile:
        grades = grades.filter(item__profile_version__profile__name=filters.profile)
    if filters.skill:
        grades = grades.filter(_has_skill(filters.skill))
    if filters.trainee_id:
        grades = grades.filter(run__attempt__trainee_id=filters.trainee_id)
    return grades


def _has_skill(skill: str) -> Q:
    if connection.vendor == "postgresql":
        return Q(item__document__skills__contains=[skill])
    # SQLite has no JSON containment: match the quoted value in the array's JSON text.
    return Q(item__document__skills__icontains=f'"{skill}"')


def grades_for_viewer(
    *, user: AbstractBaseUser | AnonymousUser, filters: StatsFilter | None = None
) -> GradeSet:
    return GradeSet(trainees=trainees_visible_to(user=user).values("pk"), filters=filters)


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
    )


def _as_set(grades: GradeSet | QuerySet[Grade]) -> GradeSet:
    if isinstance(grades, GradeSet):
        return grades
    raise TypeError("dashboard figures are read from a GradeSet (see current_grades)")


def figures_by_trainee(*, grades: GradeSet) -> dict[int, Figures]:
    """Each trainee's figures over these grades (those with a grade among them)."""
    return {
        trainee_id: trainee.figures
        for trainee_id, trainee in _as_set(grades).by_trainee().items()
        if trainee.figures is not None
    }


def figures_total(*, grades: GradeSet) -> Figures:
    """The figures of all these grades together."""
    grade_set = _as_set(grades)
    return _figures(grade_set.total(), grade_set.attempts())


def dashboard_classes(
    *, user: AbstractBaseUser | AnonymousUser, filters: StatsFilter, grades: GradeSet | None = None
) -> list[ClassFigures]:
    """Per class the viewer may see: its trainees (narrowed by the trainee filter), each
    with their figures over the filtered grades (``grades``, when the caller already has
    them as grades_for_viewer gives them). A constant number of queries."""
    scope = grades if grades is not None else grades_for_viewer(user=user, filters=filters)
    by_trainee = figures_by_trainee(grades=scope)
    classes = classes_visible_to(user=user).prefetch_related("trainees")
    result = []
    for training_class in classes:
        block = ClassFigures(training_class)
        for trainee in sorted(training_class.trainees.all(), key=lambda u: u.get_full_name()):
            if filters.trainee_id and trainee.pk != filters.trainee_id:
                continue
            block.rows.append((trainee, by_trainee.get(trainee.pk, Figures())))
        result.append(block)
    return result


def _total(grades: GradeSet) -> Tally:
    return _as_set(grades).total()


def errors_by_category(*, grades: GradeSet) -> list[tuple[str, int]]:
    """How many mistakes of each category, most frequent first (unanswered questions are
    not mistakes: figures show them on their own)."""
    labels = dict(ErrorCategory.choices)
    counts = _total(grades).categories
    return [
        (labels.get(name, name or "Missed"), n)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n and name != ErrorCategory.UNANSWERED
    ]


def errors_by_skill(*, grades: GradeSet) -> list[tuple[str, int]]:
    """How many mistakes in rounds exercising each skill (a round may have several)."""
    labels = dict(Skill.choices)
    counts = _total(grades).skills
    return [
        (labels.get(name, name), n)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n
    ]


def accuracy_trend(*, grades: GradeSet) -> list[TrendPoint]:
    """Accuracy per graded attempt, oldest first (the latest few)."""
    return _as_set(grades).trend()


def speed_histogram(*, grades: GradeSet) -> list[tuple[int, int]]:
    """(whole seconds, answers) for each second up to the last bucket, which holds the rest."""
    seconds = [0] * (SPEED_BUCKETS_SECONDS + 1)
    for bucket, n in _total(grades).histogram.items():
        seconds[min(int(bucket) * BUCKET_MS // 1000, SPEED_BUCKETS_SECONDS)] += n
    return list(enumerate(seconds))


def mistakes(
    *, grades: GradeSet | QuerySet[Grade], limit: int = 100, offset: int = 0
) -> list[Grade]:
    """The latest mistakes (from ``offset`` on), with what a list shows loaded alongside
    (not the rounds' JSON)."""
    rows = grades.grades() if isinstance(grades, GradeSet) else grades
    return list(
        rows.filter(correct=False)
        .exclude(category=ErrorCategory.UNANSWERED)
        .select_related("run__attempt__drill", "item")
        .only(
            "id",
            "question",
            "kind",
            "category",
            "money_diff",
            "correct",
            "run__id",
            "run__attempt__id",
            "run__attempt__submitted_at",
            "run__attempt__mode",
            "run__attempt__drill__title",
            "item__id",
            "item__position",
        )
        .order_by("-run__attempt__submitted_at", "-run__attempt_id", "item__position", "question")[
            offset : offset + limit
        ]
    )


def grade_get_for_viewer(*, grade_id: int, user: AbstractBaseUser | AnonymousUser) -> Grade:
    """One grade of a trainee this user may see, with its round and decision; 404 if not."""
    grade = (
        Grade.objects.select_related(
            "run__attempt__trainee",
            "run__attempt__drill",
            "item__profile_version__profile",
            "decision",
        )
        .filter(pk=grade_id, run__attempt__trainee__in=trainees_visible_to(user=user))
        .first()
    )
    if grade is None:
        raise NotFoundError("no such graded answer among your trainees'", field="grade")
    return grade


def grade_is_current(*, grade: Grade) -> bool:
    return current_runs().filter(pk=grade.run_id).exists()


# Certification evidence.


def attempt_evidence(*, attempt: Attempt) -> AttemptEvidence | None:
    """The figures of an attempt's current run, or None while it has no graded run."""
    run = current_run_of(attempt=attempt)
    if run is None:
        return None
    row = Grade.objects.filter(run=run).aggregate(
        questions=Count("id"), correct=Count("id", filter=Q(correct=True)), mean=Avg("response_ms")
    )
    profiles = (
        attempt.items.order_by().values_list("profile_version__profile__name", flat=True).distinct()
    )
    return AttemptEvidence(
        attempt_id=attempt.pk,
        run_id=run.pk,
        trainee_id=attempt.trainee_id,
        mode=attempt.mode,
        passed=run.passed,
        score=run.score,
        rounds=attempt.items.count(),
        questions=row["questions"],
        correct=row["correct"],
        mean_ms=float(row["mean"]) if row["mean"] is not None else None,
        profiles=tuple(sorted(profiles)),
        graded_at=attempt.graded_at,
        drill_id=attempt.drill_id,
        submitted_at=attempt.submitted_at,
    )


def exam_attempts_for(*, trainee: User) -> QuerySet[Attempt]:
    """The trainee's graded exam attempts, newest first: what a certification may rest on."""
    return (
        Attempt.objects.filter(trainee=trainee, mode=Mode.EXAM, grading_status=GradingStatus.GRADED)
        .select_related("drill__certifies")
        .annotate(rounds=Count("items"))
        .order_by("-graded_at", "-pk")
    )


def exam_evidence(*, trainee_ids: Iterable[int]) -> dict[int, list[AttemptEvidence]]:
    """Each trainee's graded exam sittings, newest first, with the figures a certification
    would rest on (those of attempt_evidence, read from the current runs' summaries).

    Kept in the cache until one of the trainee's runs is graded: the figures change with
    a grading and nothing else. Whatever else a sign-off depends on (the drill sat, the
    certifications signed, the flags, the clock) the caller reads fresh. Those not cached
    are read in two queries, however many they are.
    """
    nothing: list[AttemptEvidence] = []
    found = _per_trainee(
        "exam-evidence", _graded_versions(sorted(set(trainee_ids))), None, _exam_evidence, nothing
    )
    return {trainee_id: rows for trainee_id, rows in found.items() if rows}


def _exam_evidence(trainee_ids: list[int]) -> dict[int, list[AttemptEvidence]]:
    sittings = Attempt.objects.filter(
        trainee_id__in=trainee_ids, mode=Mode.EXAM, grading_status=GradingStatus.GRADED
    ).annotate(rounds=Count("items"))
    attempts: dict[int, tuple[int, int, datetime | None, datetime | None, int]] = {
        pk: (trainee_id, drill_id, submitted_at, graded_at, rounds)
        for pk, trainee_id, drill_id, submitted_at, graded_at, rounds in sittings.values_list(
            "pk", "trainee_id", "drill_id", "submitted_at", "graded_at", "rounds"
        )
    }
    if not attempts:
        return {}
    found: dict[int, list[AttemptEvidence]] = {}
    summaries = current_summaries().filter(attempt_id__in=list(attempts))
    for (
        attempt_id,
        run_id,
        passed,
        score,
        questions,
        correct,
        answered,
        total_ms,
        profiles,
    ) in summaries.values_list(
        "attempt_id",
        "run_id",
        "run__passed",
        "run__score",
        "questions",
        "correct",
        "answered",
        "response_ms_sum",
        "profiles",
    ):
        trainee_id, drill_id, submitted_at, graded_at, rounds = attempts[attempt_id]
        found.setdefault(trainee_id, []).append(
            AttemptEvidence(
                attempt_id=attempt_id,
                run_id=run_id,
                trainee_id=trainee_id,
                mode=Mode.EXAM.value,
                passed=passed,
                score=score,
                rounds=rounds,
                questions=questions,
                correct=correct,
                mean_ms=total_ms / answered if answered else None,
                profiles=tuple(sorted(_json_list(profiles))),
                graded_at=graded_at,
                drill_id=drill_id,
                submitted_at=submitted_at,
            )
        )
    for rows in found.values():
        rows.sort(key=_sat_order, reverse=True)
    return found


def _sat_order(evidence: AttemptEvidence) -> tuple[float, int]:
    when = evidence.submitted_at or evidence.graded_at
    return (when.timestamp() if when else 0.0, evidence.attempt_id)


def _json_list(value: Any) -> list[str]:
    decoded = json.loads(value) if isinstance(value, str) else value
    return [str(item) for item in decoded or []]
