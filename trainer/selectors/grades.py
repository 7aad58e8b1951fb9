"""Graded answers as rows: the current runs' grades of some trainees, narrowed by a filter
(the selector owns the filtering: `grades_list(trainees=..., filters=...)`), and the
latest mistakes a pit boss reviews."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from core.dates import days_bounds
from trainer.models import ErrorCategory, Grade
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
    date range (of submission), profile, skill and trainee."""
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
        grades = grades.filter(_has_skill(filters.skill))
    if filters.trainee_id:
        grades = grades.filter(run__attempt__trainee_id=filters.trainee_id)
    return grades


def _has_skill(skill: str) -> Q:
    if connection.vendor == "postgresql":
        return Q(item__document__skills__contains=[skill])
    # SQLite has no JSON containment: match the quoted value in the array's JSON text.
    return Q(item__document__skills__icontains=f'"{skill}"')


def trainees_scope(trainees: Trainees) -> QuerySet[Any, Any] | list[int]:
    return trainees if isinstance(trainees, QuerySet) else list(trainees)


def mistakes(
    *, trainees: Trainees, filters: StatsFilter | None = None, limit: int = 100, offset: int = 0
) -> list[Grade]:
    """The latest mistakes (from ``offset`` on), with what a list shows loaded alongside
    (not the rounds' JSON)."""
    return list(
        grades_list(trainees=trainees, filters=filters)
        .filter(correct=False)
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
