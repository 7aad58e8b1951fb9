"""What the compliance report reads from the trainer: attempts, grades and mispays in a period.

Totals are aggregated in the database and detail rows are streamed with `.iterator()`, so a
report over millions of decisions runs in constant memory. A period is a closed range of
dates in the site's time zone; an attempt belongs to the period it was submitted in. Only
each attempt's current grading run counts (the newest graded one: a regrade replaces it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Count,
    DecimalField,
    Q,
    QuerySet,
    Sum,
    TextField,
    Value,
)
from django.db.models.functions import Cast, Coalesce

from core.dates import day_start, house_zone_name, zone_abbreviations
from core.postgres import sql_csv_text, sql_house_text, sql_literal, sql_words
from trainer import words
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

    @property
    def accuracy(self) -> Decimal | None:
        return accuracy(self.correct, self.questions)


@dataclass(frozen=True)
class ClassSummary:
    name: str
    instructors: str
    trainees: int
    attempts: int


@dataclass(frozen=True)
class MispaySummary:
    category: str
    count: int
    overpaid: Decimal
    underpaid: Decimal

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
            )
        )
    return summaries


def report_classes(*, start: dt.date, end: dt.date) -> list[ClassSummary]:
    """Every class with a trainee who submitted in the period: instructors, size, attempts."""
    period = attempts_in_period(start=start, end=end)
    rows = (
        TrainingClass.objects.filter(trainees__attempts__in=period)
        .distinct()
        .prefetch_related("instructors")
        .annotate(size=Count("trainees", distinct=True))
        .order_by("name")
    )
    summaries = []
    for training_class in rows:
        summaries.append(
            ClassSummary(
                name=training_class.name,
                instructors="; ".join(
                    sorted(user.get_username() for user in training_class.instructors.all())
                ),
                trainees=training_class.size,
                attempts=period.filter(trainee__classes_attended=training_class).count(),
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
        .annotate(n_wrong=Count("id"), **_money_sums())
        .order_by("category")
    )
    rows_: list[dict[str, Any]] = [dict(row) for row in rows]
    return [
        MispaySummary(
            category=row["category"] or "uncategorised",
            count=row["n_wrong"],
            overpaid=_money(row["overpaid"]),
            underpaid=-_money(row["underpaid"]),
        )
        for row in rows_
    ]


DECISION_COLUMNS = (
    "attempt",
    "trainee",
    "mode",
    "grading_run",
    "round",
    "question",
    "kind",
    "answered_at",
    "response_ms",
    "correct",
    "category",
    "money_diff",
    "given_action",
    "given_amount",
    "expected_action",
    "expected_amount",
    # Chip questions (issue 14): the stacks, largest chip first. Last, so the columns
    # before them keep their places for a reader of older reports.
    "given_chips",
    "expected_chips",
)


def _decisions(*, start: dt.date, end: dt.date) -> QuerySet[Grade, tuple[Any, ...]]:
    return (
        graded_questions(start=start, end=end)
        .order_by("run__attempt_id", "item__position", "question")
        .annotate(
            given_text=Cast("given", TextField()), expected_text=Cast("expected", TextField())
        )
        .values_list(
            "run__attempt_id",
            "run__attempt__trainee__username",
            "run__attempt__mode",
            "run__number",
            "item__position",
            "question",
            "kind",
            "decision__answered_at",
            "response_ms",
            "correct",
            "category",
            "money_diff",
            "given_text",
            "expected_text",
        )
    )


def report_decisions(
    *, start: dt.date, end: dt.date, chunk_size: int = 5000
) -> Iterator[tuple[Any, ...]]:
    """Every graded question of the period, in DECISION_COLUMNS order, streamed from the DB.

    `given` and `expected` come as their JSON text, as the database holds it (decoding and
    re-encoding a million of them would double the export's time); `answered_at` and
    `given` are None for a question never answered.
    """
    return _decisions(start=start, end=end).iterator(chunk_size=chunk_size)


def report_decisions_csv(
    *, start: dt.date, end: dt.date, chunk_size: int = 20_000
) -> Iterator[str] | None:
    """The decision rows already written as CSV lines by PostgreSQL, in blocks of lines.

    Each line is "decisions," and the DECISION_COLUMNS cells, as the report writes
    `report_decisions`' rows in Python (the report's formatting of each value, text through
    `core.postgres.csv_formula_safe`, a cell quoted when it holds a character of CSV_QUOTED), "\\n"
    ended. Formatting a million rows in the database costs a fraction of doing it in
    Python. None on another database: use `report_decisions`.
    """
    if connection.vendor != "postgresql":
        return None
    inner, params = _decisions(start=start, end=end).query.sql_with_params()
    # The query's fourteen columns: given and expected each become two cells, and their
    # chips two more at the end.
    c = [f"d.c{n}" for n in range(1, 15)]
    cells = [
        f"{c[0]}::text",
        sql_csv_text(c[1]),
        sql_csv_text(sql_words(c[2], words.MODE_WORDS)),
        f"{c[3]}::text",
        f"{c[4]}::text",
        f"{c[5]}::text",
        sql_csv_text(sql_words(c[6], words.KIND_VALUE_WORDS)),
        sql_house_text(
            c[7], zone=house_zone_name(), abbreviations=zone_abbreviations(start=start, end=end)
        ),
        f"COALESCE({c[8]}::text, '')",
        f"CASE WHEN {c[9]} THEN 'yes' ELSE 'no' END",
        sql_csv_text(sql_words(c[10], words.CATEGORY_WORDS)),
        f"{c[11]}::text",  # numeric(14, 2): always two places, as :.2f
        *map(sql_csv_text, _sql_answer_parts(f"({c[12]})::jsonb")),
        *map(sql_csv_text, _sql_answer_parts(f"({c[13]})::jsonb")),
        sql_csv_text(_sql_chips(f"({c[12]})::jsonb")),
        sql_csv_text(_sql_chips(f"({c[13]})::jsonb")),
    ]
    line = " || ',' || ".join(["'decisions'", *cells]) + " || E'\\n'"
    sql = (
        f"SELECT {line} FROM ({inner}) AS d({', '.join(n[2:] for n in c)}) "  # noqa: S608 - built from our own expressions
        f"ORDER BY d.c1, d.c5, d.c6"
    )
    return _blocks(sql, params, chunk_size)


def _sql_answer_parts(answer: str) -> tuple[str, str]:
    """`trainer.words.answer_parts` in SQL, of a JSON answer: its action in words and its
    amount (NULL, an unanswered question, as two empty cells)."""
    said = f"({answer} ->> 'answer')"
    money = f"({answer} ->> 'action')"
    finding = " ".join(
        f"WHEN {sql_literal('true' if natural else 'false')} THEN {sql_literal(text)}"
        for natural, text in words.PEEK_FINDING_WORDS.items()
    )
    action = (
        f"CASE WHEN {answer} IS NULL THEN NULL "
        f"WHEN {answer} ? 'action' THEN "
        f"{sql_words(money, _by_value(words.ACTION_WORDS))} "
        f"WHEN {answer} ? 'chips' THEN {sql_literal(words.EXCHANGE_WORD)} "
        f"ELSE {sql_words(said, _by_value(words.ANSWER_WORDS))} || "
        f"COALESCE(CASE ({answer} -> 'dealer_blackjack')::text {finding} END, '') END"
    )
    amount = f"CASE WHEN {answer} ? 'action' OR {answer} ? 'chips' THEN {answer} ->> 'amount' END"
    return action, amount


def _sql_chips(answer: str) -> str:
    """`trainer.words.chips_text` in SQL: the stack's chips joined by " + ", in order."""
    return (
        f"array_to_string(ARRAY(SELECT jsonb_array_elements_text("
        f"CASE WHEN jsonb_typeof({answer} -> 'chips') = 'array' THEN {answer} -> 'chips' END"
        f")), ' + ')"
    )


def _by_value(words_of: Mapping[Any, str]) -> dict[str, str]:
    return {str(key): word for key, word in words_of.items()}


def _blocks(sql: str, params: Any, chunk_size: int) -> Iterator[str]:
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(chunk_size):
            yield "".join([row[0] for row in rows])
