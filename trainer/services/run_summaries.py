"""Per-run summaries: a graded run's figures, so dashboards add up runs instead of grades.

A summary is computed from the run's grades and written in the transaction that marks the
run graded (`run_summaries_save`, called by the grading service), so a graded run always
has one. Runs graded some other way (a bulk load, data from before summaries existed)
get theirs from `run_summaries_backfill` (``manage.py build_run_summaries``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any, Protocol

from django.db import connection, transaction

from core.postgres import copy_instances
from trainer.models import (
    AttemptItem,
    Grade,
    GradingRun,
    GradingRunSummary,
    RuleProfileVersion,
    RunStatus,
)
from trainer.tallies import GradeFacts, summarize


def _summary(run: GradingRun, grades: Iterable[GradeFacts]) -> GradingRunSummary:
    total, facets, profiles = summarize(grades)
    attempt = run.attempt
    return GradingRunSummary(
        run=run,
        attempt_id=run.attempt_id,
        number=run.number,
        trainee_id=attempt.trainee_id,
        drill_id=attempt.drill_id,
        mode=attempt.mode,
        submitted_at=attempt.submitted_at,
        finished_at=run.finished_at,
        profiles=profiles,
        questions=total.questions,
        correct=total.correct,
        answered=total.answered,
        response_ms_sum=total.response_ms_sum,
        overpaid=total.overpaid,
        underpaid=total.underpaid,
        histogram=total.as_json()["h"],
        categories=dict(total.categories),
        skills=dict(total.skills),
        chips=dict(total.chips),
        facets={key: tally.as_json() for key, tally in sorted(facets.items())},
    )


def _skills_of(document: Any) -> tuple[str, ...]:
    skills = document.get("skills") if isinstance(document, Mapping) else None
    return tuple(s for s in skills if isinstance(s, str)) if isinstance(skills, list) else ()


class RoundLike(Protocol):
    """What a summary reads of a round: an AttemptItem, or the grading service's values."""

    @property
    def pk(self) -> Any: ...
    @property
    def document(self) -> Any: ...
    @property
    def profile_version(self) -> RuleProfileVersion: ...


class GradeLike(Protocol):
    """What a summary reads of a grade: a Grade, or the grading service's row before it is
    written."""

    @property
    def run_id(self) -> int: ...
    @property
    def item_id(self) -> int: ...
    @property
    def correct(self) -> bool: ...
    @property
    def response_ms(self) -> int | None: ...
    @property
    def money_diff(self) -> Decimal: ...
    @property
    def category(self) -> str: ...
    @property
    def kind(self) -> str: ...


def run_summary_build(
    *,
    run: GradingRun,
    grades: Iterable[GradeLike] | None = None,
    items: Mapping[int, RoundLike] | None = None,
) -> GradingRunSummary:
    """The (unsaved) summary of a graded run, from its grades: the given ones with their
    rounds by id, or else the run's grades and rounds read from the database."""
    if grades is None or items is None:
        rows = list(Grade.objects.filter(run=run).select_related("item__profile_version__profile"))
        grades, items = rows, {g.item_id: g.item for g in rows}
    found = items
    # A round's profile and skills, looked up once for all its grades.
    rounds: dict[int, tuple[str, tuple[str, ...]]] = {}

    def facts(grade: GradeLike) -> GradeFacts:
        known = rounds.get(grade.item_id)
        if known is None:
            item = found[grade.item_id]
            known = rounds[grade.item_id] = (
                item.profile_version.profile.name,
                _skills_of(item.document),
            )
        return GradeFacts(
            grade.correct,
            grade.response_ms,
            Decimal(grade.money_diff),
            grade.category,
            *known,
            kind=grade.kind,
        )

    return _summary(run, (facts(g) for g in grades))


def run_summaries_save(
    *,
    runs: Iterable[GradingRun],
    grades: Iterable[GradeLike],
    items_of: Mapping[int, Iterable[RoundLike]],
) -> int:
    """Write the summary of each graded run among ``runs`` from its grades in memory and
    its attempt's rounds (``items_of``, by attempt id, with their profiles loaded); call it
    in the transaction that marks the runs graded. Returns how many were written."""
    by_run: dict[int, list[GradeLike]] = defaultdict(list)
    for grade in grades:
        by_run[grade.run_id].append(grade)
    summaries = [
        run_summary_build(
            run=run,
            grades=by_run[run.pk],
            items={item.pk: item for item in items_of.get(run.attempt_id, ())},
        )
        for run in runs
        if run.status == RunStatus.GRADED
    ]
    _insert(summaries)
    return len(summaries)


def _insert(summaries: list[GradingRunSummary]) -> None:
    """bulk_create, but COPY on PostgreSQL (the facets' jsonb[] array cost half of a grading
    batch's time through bulk_create: see core.postgres.copy_rows)."""
    if connection.vendor != "postgresql" or not summaries:
        GradingRunSummary.objects.bulk_create(summaries)
        return
    copy_instances(model=GradingRunSummary, instances=summaries, with_pk=False)


def run_summaries_backfill(*, batch: int = 500) -> int:
    """Summarize every graded run that has no summary yet; returns how many were written.

    Idempotent: a run already summarized is skipped, and a summary written meanwhile by
    the grading service wins (the insert ignores it).
    """
    written = 0
    last = 0
    while True:
        ids = list(
            GradingRun.objects.filter(status=RunStatus.GRADED, summary__isnull=True, pk__gt=last)
            .order_by("pk")
            .values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return written
        last = ids[-1]
        with transaction.atomic():
            written += _backfill(ids)


def _backfill(run_ids: list[int]) -> int:
    runs = list(GradingRun.objects.filter(pk__in=run_ids).select_related("attempt"))
    rows = list(
        Grade.objects.filter(run_id__in=run_ids)
        .order_by()
        .values_list(
            "run_id", "item_id", "correct", "response_ms", "money_diff", "category", "kind"
        )
    )
    items = {
        pk: (profile, _skills_of({"skills": skills}))
        for pk, profile, skills in AttemptItem.objects.filter(pk__in={row[1] for row in rows})
        .order_by()
        .values_list("pk", "profile_version__profile__name", "document__skills")
    }
    facts: dict[int, list[GradeFacts]] = defaultdict(list)
    for run_id, item_id, correct, response_ms, money_diff, category, kind in rows:
        profile, skills = items[item_id]
        facts[run_id].append(
            GradeFacts(correct, response_ms, Decimal(money_diff), category, profile, skills, kind)
        )
    summaries = [_summary(run, facts[run.pk]) for run in runs]
    GradingRunSummary.objects.bulk_create(summaries, ignore_conflicts=True)
    return len(summaries)
