"""Graded answers as rows: the current runs' grades of some trainees, narrowed by a filter
(the selector owns the filtering: `grades_list(trainees=..., filters=...)`), and the
latest mistakes a pit boss reviews."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection
from django.db.models import BooleanField, F, Func, Q, QuerySet, TextField
from django.db.models.functions import Cast

from core.dates import days_bounds
from trainer.games import game_named
from trainer.labels import skill_by_hand, skill_kinds
from trainer.models import AttemptItem, ErrorCategory, Grade
from trainer.selectors.runs import current_runs

# Whose grades: a queryset of users (or of their pks), or trainee ids.
Trainees = QuerySet[Any, Any] | Iterable[int]


@dataclass(frozen=True)
class StatsFilter:
    """What the dashboard's filter form narrows the figures to (all optional)."""

    date_from: date | None = None
    date_to: date | None = None
    profile: str | None = None
    skill: str | None = None
    trainee_id: int | None = None


def grades_list(*, trainees: Trainees, filters: StatsFilter | None = None) -> QuerySet[Grade]:
    """The grades of the current runs of these trainees' attempts, narrowed to the filter's
    date range (of submission), profile, skill and trainee.

    A skill narrows to the questions shown of the kinds the skill covers in rounds dealt
    for it (the games say which: `Marking.skill_kinds`); `mistakes` also checks the hand
    the skill is about, as the figures do."""
    filters = filters or StatsFilter()
    runs = current_runs().filter(attempt__trainee__in=trainees_scope(trainees))
    grades = Grade.objects.filter(run__in=runs.values("id"))
    start, end = days_bounds(start=filters.date_from, end=filters.date_to)
    if start is not None:
        grades = grades.filter(run__attempt__submitted_at__gte=start)
    if end is not None:
        grades = grades.filter(run__attempt__submitted_at__lt=end)
    if filters.profile:
        grades = grades.filter(item__profile_version__profile__name=filters.profile)
    if filters.skill:
        grades = only_shown(grades).filter(
            _has_skill(filters.skill), kind__in=skill_kinds(filters.skill)
        )
    if filters.trainee_id:
        grades = grades.filter(run__attempt__trainee_id=filters.trainee_id)
    return grades


def _has_skill(skill: str) -> Q:
    if connection.vendor == "postgresql":
        return Q(item__document__skills__contains=[skill])
    # SQLite has no JSON containment: match the quoted value in the array's JSON text.
    return Q(item__document__skills__icontains=f'"{skill}"')


def only_shown(grades: QuerySet[Grade]) -> QuerySet[Grade]:
    """Those of ``grades`` whose question was shown to the trainee: answered, or among its
    round's questions shown (the skill figures and the chip work count no other)."""
    return grades.alias(shown=_Shown()).filter(Q(decision__isnull=False) | Q(shown=True))


class _Shown(Func):
    """Whether the grade's question is among its round's questions shown (the round's
    ``questions_shown`` has the question's number as a key)."""

    output_field = BooleanField()

    def __init__(self) -> None:
        super().__init__(F("item__questions_shown"), Cast(F("question"), TextField()))

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="jsonb_exists(%(expressions)s)")

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        shown, question = self.get_source_expressions()
        shown_sql, shown_params = compiler.compile(shown)
        question_sql, question_params = compiler.compile(question)
        return (
            f"(json_type({shown_sql}, '$.\"' || {question_sql} || '\"') IS NOT NULL)",
            (*shown_params, *question_params),
        )


def trainees_scope(trainees: Trainees) -> QuerySet[Any, Any] | list[int]:
    return trainees if isinstance(trainees, QuerySet) else list(trainees)


def mistakes(
    *, trainees: Trainees, filters: StatsFilter | None = None, limit: int = 100, offset: int = 0
) -> list[Grade]:
    """The latest mistakes (from ``offset`` on), with what a list shows loaded alongside
    (not the rounds' JSON). Under a skill about one hand (a double, a split, a natural...)
    only the questions about such a hand, as the figures count them (the round's game's
    `question_skills`)."""
    found = (
        grades_list(trainees=trainees, filters=filters)
        .filter(correct=False)
        .exclude(category=ErrorCategory.UNANSWERED)
        .order_by("-run__attempt__submitted_at", "-run__attempt_id", "item__position", "question")
    )
    skill = filters.skill if filters is not None else None
    if skill and skill_by_hand(skill):
        found = found.filter(pk__in=exercising_ids(found, skill)[offset : offset + limit])
        offset = 0
    return list(
        found.select_related("run__attempt__drill", "item").only(
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
            "run__attempt__drill__game",
            "item__id",
            "item__position",
        )[offset : offset + limit]
    )


def exercising_ids(grades: QuerySet[Grade], skill: str) -> list[int]:
    """The ids of those of ``grades`` (in their order) whose question exercises ``skill``
    by the hand it is about: read from the answer key the round was dealt with."""
    rows = list(grades.values_list("pk", "item_id", "question"))
    keys = {
        pk: (key, game)
        for pk, key, game in AttemptItem.objects.filter(pk__in={item_id for _, item_id, _ in rows})
        .order_by()
        .values_list("pk", "answer_key", "attempt__drill__game")
    }
    found = []
    for pk, item_id, question in rows:
        key, game = keys.get(item_id) or (None, None)
        entry = next((q for q in key or () if q.get("n") == question), None)
        # The round's game says whether the question exercises the skill.
        if (
            entry is not None
            and game is not None
            and game_named(game).question_skills((skill,), entry)
        ):
            found.append(pk)
    return found
