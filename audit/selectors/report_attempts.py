"""What the compliance report reads from the trainer: attempts, grades and mispays in a period.

Totals are aggregated in the database and detail rows are streamed with `.iterator()`, so a
report over millions of decisions runs in constant memory. A period is a closed range of
dates in the site's time zone; an attempt belongs to the period it was submitted in. Only
each attempt's current grading run counts (the newest graded one: a regrade replaces it).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    CharField,
    Count,
    DecimalField,
    Model,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Abs, Coalesce, NullIf
from django.utils import timezone

from core.dates import day_start
from trainer.models import (
    Attempt,
    ErrorCategory,
    Grade,
    GradingRun,
    GradingStatus,
    RunStatus,
    TrainingClass,
)
from trainer.selectors.runs import newer_graded_run

ZERO = Decimal("0.00")
_MONEY = DecimalField(max_digits=16, decimal_places=2)


@dataclass(frozen=True)
class Totals:
    trainees: int
    attempts: int
    graded_attempts: int
    questions: int
    correct: int
    mistakes: int
    # Against the score, but not mistakes: reported on their own.
    unanswered: int
    overpaid: Decimal
    underpaid: Decimal
    # Points lost in games counting points, beside the money (never added to it); None
    # when no grade of the period counted points.
    points: Decimal | None = None

    @property
    def accuracy(self) -> Decimal | None:
        return accuracy(self.correct, self.questions)


@dataclass(frozen=True)
class TraineeSummary:
    username: str
    full_name: str
    classes: str
    attempts: int
    graded_attempts: int
    questions: int
    correct: int
    unanswered: int
    overpaid: Decimal
    underpaid: Decimal
    # Points lost in games counting points; None when none of theirs counted points.
    points: Decimal | None = None

    @property
    def accuracy(self) -> Decimal | None:
        return accuracy(self.correct, self.questions)


@dataclass(frozen=True)
class ClassSummary:
    name: str
    instructors: str
    # Everyone on the class's roster now, and those of them who submitted in the period.
    roster: int
    submitted: int
    # The period's attempts of the roster's trainees, each once.
    attempts: int


CLASS_COLUMNS = ("class", "instructors", "trainees_on_roster", "trainees_who_submitted", "attempts")


def class_cells(summary: ClassSummary) -> tuple[Any, ...]:
    return (summary.name, summary.instructors, summary.roster, summary.submitted, summary.attempts)


def local_text(instant: dt.datetime | None, *, minutes: bool = True) -> str:
    """An instant in the house's time zone, as the report's words write it:
    "2026-03-10 12:00 UTC" (or the day alone)."""
    if instant is None:
        return ""
    local = timezone.localtime(instant)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}" if minutes else f"{local:%Y-%m-%d}"


def signed_in_period(model: type[Model], *, start: dt.date, end: dt.date) -> QuerySet[Any]:
    """The rows of a signed record (a certification, a practical sheet) signed in the
    period, oldest first, each with its table as people know it (`profile_title`: the
    profile's title; its name, the program's, only when it has none)."""
    lower, upper = period_bounds(start=start, end=end)
    return (
        model._default_manager.filter(signed_at__gte=lower, signed_at__lt=upper)
        .order_by("signed_at", "id")
        .annotate(
            profile_title=Coalesce(
                NullIf("profile__title", Value("")), "profile__name", output_field=CharField()
            )
        )
    )


def person_named(first: str | None, last: str | None, username: str) -> str:
    """A person from their name's parts and username, as the report writes people."""
    return person_text(f"{first or ''} {last or ''}".strip(), username)


def person_text(full_name: str, username: str) -> str:
    """A person as the reports name them: "Pat Boss (pboss)"; the username alone when no
    name is recorded."""
    return f"{full_name} ({username})" if full_name.strip() else username


@dataclass(frozen=True)
class MispaySummary:
    category: str
    count: int
    overpaid: Decimal
    underpaid: Decimal
    # Points lost in games counting points; None for a category no such game's grade has.
    points: Decimal | None = None

    @property
    def net(self) -> Decimal:
        """Positive when the house lost money to this category of mistake overall."""
        return self.overpaid - self.underpaid


def accuracy(correct: int, questions: int) -> Decimal | None:
    """Percent right, to two places; None when nothing was graded."""
    if not questions:
        return None
    return (Decimal(100) * correct / questions).quantize(Decimal("0.01"))


def period_bounds(*, start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The instants [from, to) that the dates start..end (both included) cover."""
    return day_start(start), day_start(end + dt.timedelta(days=1))


def attempts_in_period(*, start: dt.date, end: dt.date) -> QuerySet[Attempt]:
    lower, upper = period_bounds(start=start, end=end)
    return Attempt.objects.filter(submitted_at__gte=lower, submitted_at__lt=upper)


def current_runs(*, start: dt.date, end: dt.date) -> QuerySet[GradingRun]:
    """Each period attempt's newest graded run: the one its score comes from."""
    return GradingRun.objects.filter(
        attempt__in=attempts_in_period(start=start, end=end), status=RunStatus.GRADED
    ).exclude(newer_graded_run())


def graded_questions(*, start: dt.date, end: dt.date) -> QuerySet[Grade]:
    return Grade.objects.filter(run__in=current_runs(start=start, end=end))


def _money_sums() -> dict[str, Any]:
    return {
        "overpaid": Coalesce(
            Sum("money_diff", filter=Q(money_diff__gt=0)), Value(ZERO), output_field=_MONEY
        ),
        "underpaid": Coalesce(
            Sum("money_diff", filter=Q(money_diff__lt=0)), Value(ZERO), output_field=_MONEY
        ),
    }


def _points_sum() -> Sum:
    """Points lost (each grade's either way): NULL where no grade counted points."""
    return Sum(Abs("points_diff"), output_field=_MONEY)


def _money(value: object) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def report_question_count(*, start: dt.date, end: dt.date) -> int:
    """How many graded questions the period holds: the size of the report's detail."""
    return graded_questions(start=start, end=end).count()


def report_totals(*, start: dt.date, end: dt.date) -> Totals:
    attempts = attempts_in_period(start=start, end=end).aggregate(
        trainees=Count("trainee", distinct=True),
        attempts=Count("id"),
        graded=Count("id", filter=Q(grading_status=GradingStatus.GRADED)),
    )
    grades = graded_questions(start=start, end=end).aggregate(
        n_questions=Count("id"),
        n_right=Count("id", filter=Q(correct=True)),
        n_wrong=Count("id", filter=Q(correct=False) & ~Q(category=ErrorCategory.UNANSWERED)),
        n_unanswered=Count("id", filter=Q(category=ErrorCategory.UNANSWERED)),
        **_money_sums(),
        points=_points_sum(),
    )
    return Totals(
        trainees=attempts["trainees"],
        attempts=attempts["attempts"],
        graded_attempts=attempts["graded"],
        questions=grades["n_questions"],
        correct=grades["n_right"],
        mistakes=grades["n_wrong"],
        unanswered=grades["n_unanswered"],
        overpaid=_money(grades["overpaid"]),
        underpaid=-_money(grades["underpaid"]),
        points=None if grades["points"] is None else _money(grades["points"]),
    )


def report_trainees(*, start: dt.date, end: dt.date) -> list[TraineeSummary]:
    """One summary per trainee who submitted in the period, by username.

    Its size grows with trainees, not decisions: the per-decision work stays in the database.
    """
    attempts = {
        row["trainee"]: row
        for row in attempts_in_period(start=start, end=end)
        .values("trainee")
        .annotate(
            attempts=Count("id"),
            graded=Count("id", filter=Q(grading_status=GradingStatus.GRADED)),
        )
        .order_by()
    }
    grades: dict[int, dict[str, Any]] = {
        row["run__attempt__trainee"]: dict(row)
        for row in graded_questions(start=start, end=end)
        .values("run__attempt__trainee")
        .annotate(
            n_questions=Count("id"),
            n_right=Count("id", filter=Q(correct=True)),
            n_unanswered=Count("id", filter=Q(category=ErrorCategory.UNANSWERED)),
            **_money_sums(),
            points=_points_sum(),
        )
        .order_by()
    }
    classes: dict[int, list[str]] = {}
    memberships = TrainingClass.trainees.through.objects.filter(user_id__in=attempts.keys())
    for user_id, name in memberships.values_list("user_id", "trainingclass__name").order_by(
        "trainingclass__name"
    ):
        classes.setdefault(user_id, []).append(name)
    users = get_user_model().objects.filter(pk__in=attempts.keys()).order_by("username")
    summaries = []
    for user in users:
        graded = grades.get(user.pk, {})
        summaries.append(
            TraineeSummary(
                username=user.get_username(),
                full_name=user.get_full_name(),
                classes="; ".join(classes.get(user.pk, [])),
                attempts=attempts[user.pk]["attempts"],
                graded_attempts=attempts[user.pk]["graded"],
                questions=graded.get("n_questions", 0),
                correct=graded.get("n_right", 0),
                unanswered=graded.get("n_unanswered", 0),
                overpaid=_money(graded.get("overpaid", ZERO)),
                underpaid=-_money(graded.get("underpaid", ZERO)),
                points=None if graded.get("points") is None else _money(graded["points"]),
            )
        )
    return summaries


def report_classes(*, start: dt.date, end: dt.date) -> list[ClassSummary]:
    """Every class with a trainee who submitted in the period: its instructors by name, its
    roster, how many of the roster submitted, and their attempts, each counted once."""
    period = attempts_in_period(start=start, end=end)
    members = TrainingClass.trainees.through.objects.filter(user_id__in=period.values("trainee_id"))
    class_ids = set(members.values_list("trainingclass_id", flat=True))
    rows = (
        TrainingClass.objects.filter(pk__in=class_ids)
        .prefetch_related("instructors")
        .annotate(roster=Count("trainees", distinct=True))
        .order_by("name")
    )
    figures: dict[int, dict[str, Any]] = {
        row["trainee__classes_attended"]: dict(row)
        for row in period.filter(trainee__classes_attended__in=class_ids)
        .values("trainee__classes_attended")
        .annotate(n_attempts=Count("id", distinct=True), n_trainees=Count("trainee", distinct=True))
        .order_by()
    }
    summaries = []
    for training_class in rows:
        counted: dict[str, Any] = figures.get(training_class.pk, {})
        summaries.append(
            ClassSummary(
                name=training_class.name,
                instructors="; ".join(
                    sorted(
                        person_text(user.get_full_name(), user.get_username())
                        for user in training_class.instructors.all()
                    )
                ),
                roster=training_class.roster,
                submitted=counted.get("n_trainees", 0),
                attempts=counted.get("n_attempts", 0),
            )
        )
    return summaries


def report_mispays(*, start: dt.date, end: dt.date) -> list[MispaySummary]:
    """Wrong answers by error category, with the money they moved each way.

    Procedure errors (a wrong peek, a missed reshuffle) are counted too; they move no money.
    """
    rows = (
        graded_questions(start=start, end=end)
        .filter(correct=False)
        .exclude(category=ErrorCategory.UNANSWERED)
        .values("category")
        .annotate(n_wrong=Count("id"), **_money_sums(), points=_points_sum())
        .order_by("category")
    )
    rows_: list[dict[str, Any]] = [dict(row) for row in rows]
    return [
        MispaySummary(
            category=row["category"] or "uncategorised",
            count=row["n_wrong"],
            overpaid=_money(row["overpaid"]),
            underpaid=-_money(row["underpaid"]),
            points=None if row["points"] is None else _money(row["points"]),
        )
        for row in rows_
    ]
