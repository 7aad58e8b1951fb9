"""Dashboard figures over graded work: computed in the database, scoped to the viewer.

Only the grades of each attempt's *current* run count (the newest graded run): a regrade
replaces the figures of the run it corrects, as it replaces the attempt's score.

Aggregating a million grades takes seconds, and the figures change only when a grading
run finishes, so each aggregate is cached under its query and the newest finished run:
the next finished run changes the key, and the page shows fresh figures at once.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import (
    Aggregate,
    Avg,
    Count,
    Exists,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.utils import timezone

from trainer.errors import NotFoundError
from trainer.models import (
    Attempt,
    ErrorCategory,
    Grade,
    GradingRun,
    GradingStatus,
    Mode,
    RunStatus,
    Skill,
    TrainingClass,
)
from trainer.roles import Role, roles_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

ZERO = Decimal("0.00")
# The speed histogram's last bucket gathers every answer slower than this.
SPEED_BUCKETS_SECONDS = 20
TREND_ATTEMPTS = 30
CACHE_SECONDS = 600
T = TypeVar("T")


class _Percentile(Aggregate):
    """PostgreSQL's ordered-set aggregate: the interpolated percentile of a column."""

    function = "PERCENTILE_CONT"
    name = "Percentile"
    template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()

    def __init__(self, expression: str, fraction: float) -> None:
        super().__init__(expression, fraction=fraction)


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The percentile of sorted values, interpolated as PostgreSQL's percentile_cont does."""
    if not values:
        return None
    position = fraction * (len(values) - 1)
    low, high = math.floor(position), math.ceil(position)
    return values[low] + (values[high] - values[low]) * (position - low)


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

    @property
    def accuracy(self) -> Decimal | None:
        """Percent of questions answered right, to one decimal; None before any grade."""
        if not self.questions:
            return None
        return (Decimal(100) * self.correct / self.questions).quantize(Decimal("0.1"))

    @property
    def mistakes(self) -> int:
        return self.questions - self.correct


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


def current_grades(*, trainees: QuerySet[Any, Any] | Iterable[int]) -> QuerySet[Grade]:
    """The grades of the current runs of these trainees' attempts."""
    runs = current_runs().filter(attempt__trainee__in=trainees)
    return Grade.objects.filter(run__in=runs.values("id"))


def grades_filter(*, grades: QuerySet[Grade], filters: StatsFilter) -> QuerySet[Grade]:
    """Narrow grades to the filter's date range (of submission), profile, skill, trainee."""
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
) -> QuerySet[Grade]:
    grades = current_grades(trainees=trainees_visible_to(user=user).values("pk"))
    return grades_filter(grades=grades, filters=filters or StatsFilter())


# Figures.


def _grading_version() -> str:
    """Changes whenever a grading run finishes (a new grade set, or a regrade)."""
    row = GradingRun.objects.filter(status=RunStatus.GRADED).aggregate(
        last=Max("finished_at"), n=Count("id")
    )
    return f"{row['last']}/{row['n']}"


def _cached(name: str, grades: QuerySet[Grade], compute: Callable[[], T]) -> T:
    sql, params = grades.query.sql_with_params()
    text = f"{name}|{_grading_version()}|{sql}|{params!r}"
    key = "pit-stats:" + hashlib.sha256(text.encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found


def _annotations() -> dict[str, Any]:
    annotations: dict[str, Any] = {
        "attempts": Count("run__attempt", distinct=True),
        "questions": Count("id"),
        "correct": Count("id", filter=Q(correct=True)),
        "mean_ms": Avg("response_ms"),
        "overpaid": Sum("money_diff", filter=Q(money_diff__gt=0), default=Value(ZERO)),
        "underpaid": Sum("money_diff", filter=Q(money_diff__lt=0), default=Value(ZERO)),
    }
    if connection.vendor == "postgresql":
        annotations["p90_ms"] = _Percentile("response_ms", 0.9)
    return annotations


def _figures(row: dict[str, Any], p90: float | None = None) -> Figures:
    return Figures(
        attempts=row["attempts"],
        questions=row["questions"],
        correct=row["correct"],
        mean_ms=float(row["mean_ms"]) if row["mean_ms"] is not None else None,
        p90_ms=row.get("p90_ms", p90),
        overpaid=Decimal(row["overpaid"]).quantize(ZERO),
        underpaid=-Decimal(row["underpaid"]).quantize(ZERO),
    )


def _p90_by(grades: QuerySet[Grade], key: str | None) -> dict[Any, float | None]:
    """The Python fallback for databases without percentile_cont: one ordered query."""
    times: dict[Any, list[float]] = defaultdict(list)
    fields = [key, "response_ms"] if key else ["response_ms"]
    rows = grades.filter(response_ms__isnull=False).order_by(*fields).values_list(*fields)
    for row in rows:
        times[row[0] if key else None].append(float(row[-1]))
    return {k: percentile(v, 0.9) for k, v in times.items()}


def figures_by_trainee(*, grades: QuerySet[Grade]) -> dict[int, Figures]:
    """Each trainee's figures over these grades, in one grouped query (two on SQLite)."""
    return _cached("figures_by_trainee", grades, lambda: _figures_by_trainee(grades))


def _figures_by_trainee(grades: QuerySet[Grade]) -> dict[int, Figures]:
    key = "run__attempt__trainee_id"
    rows = grades.order_by().values(key).annotate(**_annotations())
    p90s = {} if connection.vendor == "postgresql" else _p90_by(grades, key)
    return {row[key]: _figures(row, p90s.get(row[key])) for row in rows}


def figures_total(*, grades: QuerySet[Grade]) -> Figures:
    """The figures of all these grades together."""
    return _cached("figures_total", grades, lambda: _figures_total(grades))


def _figures_total(grades: QuerySet[Grade]) -> Figures:
    row = grades.order_by().aggregate(**_annotations())
    if not row["questions"]:
        return Figures()
    p90 = None if connection.vendor == "postgresql" else _p90_by(grades, None).get(None)
    return _figures(row, p90)


def dashboard_classes(
    *, user: AbstractBaseUser | AnonymousUser, filters: StatsFilter
) -> list[ClassFigures]:
    """Per class the viewer may see: its trainees (narrowed by the trainee filter), each
    with their figures over the filtered grades. A constant number of queries."""
    by_trainee = figures_by_trainee(grades=grades_for_viewer(user=user, filters=filters))
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


def errors_by_category(*, grades: QuerySet[Grade]) -> list[tuple[str, int]]:
    """How many mistakes of each category, most frequent first."""
    return _cached("errors_by_category", grades, lambda: _errors_by_category(grades))


def _errors_by_category(grades: QuerySet[Grade]) -> list[tuple[str, int]]:
    labels = dict(ErrorCategory.choices)
    rows = (
        grades.filter(correct=False)
        .order_by()
        .values("category")
        .annotate(n=Count("id"))
        .order_by("-n", "category")
    )
    return [(labels.get(row["category"], row["category"] or "Missed"), row["n"]) for row in rows]


def errors_by_skill(*, grades: QuerySet[Grade]) -> list[tuple[str, int]]:
    """How many mistakes in rounds exercising each skill (a round may have several)."""
    return _cached("errors_by_skill", grades, lambda: _errors_by_skill(grades))


def _errors_by_skill(grades: QuerySet[Grade]) -> list[tuple[str, int]]:
    labels = dict(Skill.choices)
    counts: Counter[str] = Counter()
    for skills in grades.filter(correct=False).values_list("item__document__skills", flat=True):
        counts.update(skills or ["(none)"])
    return [(labels.get(name, name), n) for name, n in counts.most_common()]


def accuracy_trend(*, grades: QuerySet[Grade]) -> list[TrendPoint]:
    """Accuracy per graded attempt, oldest first (the latest few)."""
    return _cached("accuracy_trend", grades, lambda: _accuracy_trend(grades))


def _accuracy_trend(grades: QuerySet[Grade]) -> list[TrendPoint]:
    rows = (
        grades.order_by()
        .values("run__attempt_id")
        .annotate(
            when=Max("run__attempt__submitted_at"),
            mode=Max("run__attempt__mode"),
            questions=Count("id"),
            correct=Count("id", filter=Q(correct=True)),
        )
        .order_by("-when", "-run__attempt_id")[:TREND_ATTEMPTS]
    )
    points = [
        TrendPoint(
            attempt_id=row["run__attempt_id"],
            when=row["when"],
            mode=row["mode"],
            accuracy=(Decimal(100) * row["correct"] / row["questions"]).quantize(Decimal("0.1")),
        )
        for row in rows
    ]
    return points[::-1]


def speed_histogram(*, grades: QuerySet[Grade]) -> list[tuple[int, int]]:
    """(whole seconds, answers) for each second up to the last bucket, which holds the rest."""
    return _cached("speed_histogram", grades, lambda: _speed_histogram(grades))


def _speed_histogram(grades: QuerySet[Grade]) -> list[tuple[int, int]]:
    rows = (
        grades.filter(response_ms__isnull=False)
        .order_by()
        .annotate(second=F("response_ms") / 1000)
        .values("second")
        .annotate(n=Count("id"))
    )
    buckets = [0] * (SPEED_BUCKETS_SECONDS + 1)
    for row in rows:
        buckets[min(int(row["second"]), SPEED_BUCKETS_SECONDS)] += row["n"]
    return list(enumerate(buckets))


def mistakes(*, grades: QuerySet[Grade], limit: int = 100) -> list[Grade]:
    """The latest mistakes, with what a list shows loaded alongside (not the rounds' JSON)."""
    return list(
        grades.filter(correct=False)
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
            :limit
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
    )


def exam_attempts_for(*, trainee: User) -> QuerySet[Attempt]:
    """The trainee's graded exam attempts, newest first: what a certification may rest on."""
    return (
        Attempt.objects.filter(trainee=trainee, mode=Mode.EXAM, grading_status=GradingStatus.GRADED)
        .select_related("drill")
        .annotate(rounds=Count("items"))
        .order_by("-graded_at", "-pk")
    )


def certification_ready(
    *, trainee_ids: Iterable[int], pass_mark: Decimal, min_scenarios: int, max_mean_ms: Decimal
) -> dict[int, int]:
    """For each trainee with an exam that meets the certification rule, that attempt's id
    (the newest such). Two queries, whatever the number of trainees."""
    ids = sorted(set(trainee_ids))
    text = f"ready|{_grading_version()}|{ids}|{pass_mark}|{min_scenarios}|{max_mean_ms}"
    key = "pit-stats:" + hashlib.sha256(text.encode()).hexdigest()
    found: dict[int, int] | None = cache.get(key)
    if found is None:
        found = _certification_ready(ids, pass_mark, min_scenarios, max_mean_ms)
        cache.set(key, found, CACHE_SECONDS)
    return found


def _certification_ready(
    trainee_ids: list[int], pass_mark: Decimal, min_scenarios: int, max_mean_ms: Decimal
) -> dict[int, int]:
    candidates = (
        Attempt.objects.filter(
            trainee_id__in=trainee_ids,
            mode=Mode.EXAM,
            grading_status=GradingStatus.GRADED,
            passed=True,
            score__gte=pass_mark,
        )
        .annotate(rounds=Count("items"))
        .filter(rounds__gte=min_scenarios)
        .values_list("pk", "trainee_id", "graded_at")
    )
    owners = {pk: (trainee_id, graded_at) for pk, trainee_id, graded_at in candidates}
    if not owners:
        return {}
    fast = (
        Grade.objects.filter(run__in=current_runs().filter(attempt_id__in=owners).values("id"))
        .order_by()
        .values("run__attempt_id")
        .annotate(mean=Avg("response_ms"))
        .filter(mean__lt=max_mean_ms)
        .values_list("run__attempt_id", flat=True)
    )
    ready: dict[int, tuple[Any, int]] = {}
    for attempt_id in fast:
        trainee_id, graded_at = owners[attempt_id]
        best = ready.get(trainee_id)
        key = (graded_at, attempt_id)
        if best is None or key > best:
            ready[trainee_id] = key
    return {trainee_id: key[1] for trainee_id, key in ready.items()}
