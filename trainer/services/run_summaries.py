"""Per-run summaries: a graded run's figures, so dashboards add up runs instead of grades.

A summary is computed from the run's grades and written in the transaction that marks the
run graded (`run_summaries_save`, called by the grading service), so a graded run always
has one. Runs graded some other way (a bulk load, data from before summaries existed)
get theirs from `run_summaries_backfill` (``manage.py build_run_summaries``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, Protocol

from django.db import connection, transaction

from core.postgres import copy_instances
from trainer.games import Game, game_named
from trainer.models import (
    AttemptItem,
    Grade,
    GradingRun,
    GradingRunSummary,
    RuleProfileVersion,
    RunStatus,
    RunTrigger,
)
from trainer.services.grading.basis import RoundValues, graded_keys
from trainer.shown import shown_questions
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
        not_reached=total.not_reached,
        answered=total.answered,
        response_ms_sum=total.response_ms_sum,
        overpaid=total.overpaid,
        underpaid=total.underpaid,
        points=total.points,
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
    """What a summary reads of a round: the grading service's values (RoundValues)."""

    @property
    def pk(self) -> Any: ...
    @property
    def document(self) -> Any: ...
    @property
    def answer_key(self) -> Any: ...
    @property
    def questions_shown(self) -> Any: ...
    @property
    def profile_version(self) -> RuleProfileVersion: ...
    @property
    def game(self) -> Game: ...


class GradeLike(Protocol):
    """What a summary reads of a grade: a Grade, or the grading service's row before it is
    written."""

    @property
    def run_id(self) -> int: ...
    @property
    def item_id(self) -> int: ...
    @property
    def question(self) -> int: ...
    @property
    def decision_id(self) -> int | None: ...
    @property
    def correct(self) -> bool: ...
    @property
    def response_ms(self) -> int | None: ...
    @property
    def money_diff(self) -> Decimal: ...
    @property
    def points_diff(self) -> Decimal | None: ...
    @property
    def category(self) -> str: ...
    @property
    def kind(self) -> str: ...


# A round's key as the run graded it, and the key its trainee was asked.
Keys = tuple[Sequence[Mapping[str, Any]], Sequence[Mapping[str, Any]]]


class _Rounds:
    """Per round of a run: its profile, and per question the skills it exercises and
    whether it was shown (the round's game says which skills a question exercises;
    trainer.shown which questions were shown), each worked out once."""

    def __init__(
        self,
        items: Mapping[int, RoundLike],
        keys: Mapping[int, Keys],
        shared: dict[tuple[int, tuple[str, ...]], tuple[Any, dict[int, tuple[str, ...]]]],
    ) -> None:
        self.items = items
        self.keys = keys
        self._rounds: dict[int, tuple[str, dict[int, tuple[str, ...]], frozenset[int]]] = {}
        # By key (rounds dealt from one scenario share theirs) and round skills: the skills
        # of each question, the key kept alive so that its id stays its own.
        self._shared = shared

    def _skills(
        self, game: Game, key: Sequence[Mapping[str, Any]], round_skills: tuple[str, ...]
    ) -> dict[int, tuple[str, ...]]:
        found = self._shared.get((id(key), round_skills))
        if found is None or found[0] is not key:
            found = self._shared[(id(key), round_skills)] = (
                key,
                {int(q["n"]): game.question_skills(round_skills, q) for q in key},
            )
        return found[1]

    def facts(self, grade: GradeLike) -> GradeFacts:
        known = self._rounds.get(grade.item_id)
        if known is None:
            item = self.items[grade.item_id]
            key, asked = self.keys.get(grade.item_id) or (item.answer_key, item.answer_key)
            known = self._rounds[grade.item_id] = (
                item.profile_version.profile.name,
                self._skills(item.game, key, _skills_of(item.document)),
                shown_questions(key=key, asked=asked, questions_shown=item.questions_shown),
            )
        profile, skills, shown = known
        return GradeFacts(
            grade.correct,
            grade.response_ms,
            Decimal(grade.money_diff),
            grade.category,
            profile,
            skills.get(grade.question, ()),
            kind=grade.kind,
            # An answered question was shown.
            shown=grade.question in shown or grade.decision_id is not None,
            points_diff=None if grade.points_diff is None else Decimal(grade.points_diff),
        )


def run_summary_build(
    *,
    run: GradingRun,
    grades: Iterable[GradeLike] | None = None,
    items: Mapping[int, RoundLike] | None = None,
    keys: Mapping[int, Keys] | None = None,
    shared: dict[Any, Any] | None = None,
) -> GradingRunSummary:
    """The (unsaved) summary of a graded run, from its grades: the given ones with their
    rounds by id and the keys they were graded against (``keys``, by round id; else the
    key dealt), or else the run's grades and rounds read from the database."""
    if grades is None or items is None:
        grades = _grades_of([run.pk])
        rounds = _rounds_of([run])
        items = rounds
        keys = graded_keys(
            regrade=run.trigger == RunTrigger.REGRADE,
            basis=run.basis or {},
            items=list(rounds.values()),
        )
    facts = _Rounds(items, keys or {}, {} if shared is None else shared).facts
    return _summary(run, (facts(g) for g in grades))


# What a summary reads, column by column: the rebuild runs in a migration (0025, after
# the grades' points, 0023, and the summaries' own, exist), before any column a later
# migration adds exists.
_GRADE_FIELDS = (
    "id",
    "run_id",
    "item_id",
    "question",
    "decision_id",
    "kind",
    "correct",
    "money_diff",
    "points_diff",
    "category",
    "response_ms",
)
_RUN_FIELDS = (
    "id",
    "attempt_id",
    "number",
    "trigger",
    "status",
    "basis",
    "finished_at",
    "attempt__id",
    "attempt__trainee_id",
    "attempt__drill_id",
    "attempt__mode",
    "attempt__submitted_at",
)


def _grades_of(run_ids: Iterable[int]) -> list[Grade]:
    return list(Grade.objects.filter(run_id__in=list(run_ids)).only(*_GRADE_FIELDS).order_by())


def _rounds_of(runs: Sequence[GradingRun]) -> dict[int, _Round]:
    """The rounds of these runs' attempts as the grader reads them, by id."""
    rows = list(
        AttemptItem.objects.filter(attempt_id__in={run.attempt_id for run in runs})
        .order_by()
        .values_list(
            "pk",
            "attempt_id",
            "document",
            "answer_key",
            "profile_version_id",
            "scenario_id",
            "attempt__drill__game",
            "questions_shown",
        )
    )
    versions = (
        RuleProfileVersion.objects.select_related("profile")
        .only("id", "version", "parameters", "profile_id", "profile__id", "profile__name")
        .in_bulk({row[4] for row in rows})
    )
    return {
        pk: _Round(
            pk,
            attempt_id,
            document,
            answer_key,
            versions[version_id],
            scenario_id,
            game_named(game),
            shown,
        )
        for pk, attempt_id, document, answer_key, version_id, scenario_id, game, shown in rows
    }


class _Round(RoundValues):
    """A round read for its summary: the scenario only by id (a regrade's replay reads the
    revision it names)."""

    __slots__ = ("_scenario_id",)

    def __init__(
        self,
        pk: int,
        attempt_id: int,
        document: Any,
        answer_key: Any,
        profile_version: RuleProfileVersion,
        scenario_id: int | None,
        game: Any,
        questions_shown: Any,
    ) -> None:
        super().__init__(
            pk, attempt_id, document, answer_key, profile_version, None, game, questions_shown
        )
        self._scenario_id = scenario_id

    @property
    def scenario_id(self) -> int | None:
        return self._scenario_id


def run_summaries_save(
    *,
    runs: Iterable[GradingRun],
    grades: Iterable[GradeLike],
    items_of: Mapping[int, Iterable[RoundLike]],
    keys_of: Mapping[int, Mapping[int, Keys]] | None = None,
) -> int:
    """Write the summary of each graded run among ``runs`` from its grades in memory, its
    attempt's rounds (``items_of``, by attempt id, with their profiles loaded) and the keys
    each round was graded against (``keys_of``, by run id, then round id); call it in the
    transaction that marks the runs graded. Returns how many were written."""
    by_run: dict[int, list[GradeLike]] = defaultdict(list)
    for grade in grades:
        by_run[grade.run_id].append(grade)
    shared: dict[Any, Any] = {}
    summaries = [
        run_summary_build(
            run=run,
            grades=by_run[run.pk],
            items={item.pk: item for item in items_of.get(run.attempt_id, ())},
            keys=(keys_of or {}).get(run.pk),
            shared=shared,
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
    runs = list(
        GradingRun.objects.filter(pk__in=run_ids).select_related("attempt").only(*_RUN_FIELDS)
    )
    grades = _grades_of(run_ids)
    by_run: dict[int, list[Grade]] = defaultdict(list)
    for grade in grades:
        by_run[grade.run_id].append(grade)
    rounds = _rounds_of(runs)
    by_attempt: dict[int, list[_Round]] = defaultdict(list)
    for item in rounds.values():
        by_attempt[item.attempt_id].append(item)
    summaries = []
    shared: dict[Any, Any] = {}
    for run in runs:
        keys = graded_keys(
            regrade=run.trigger == RunTrigger.REGRADE,
            basis=run.basis or {},
            items=by_attempt[run.attempt_id],
        )
        summaries.append(
            run_summary_build(
                run=run, grades=by_run[run.pk], items=rounds, keys=keys, shared=shared
            )
        )
    GradingRunSummary.objects.bulk_create(summaries, ignore_conflicts=True)
    return len(summaries)


def run_summaries_rebuild(*, batch: int = 500) -> int:
    """Write every graded run's summary again from its grades (the skill figures' rules
    changed: a game's question_skills); returns how many were written. Each batch is deleted and
    written in one transaction, so a page never reads a run without its summary."""
    written = 0
    last = 0
    while True:
        ids = list(
            GradingRun.objects.filter(status=RunStatus.GRADED, pk__gt=last)
            .order_by("pk")
            .values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return written
        last = ids[-1]
        with transaction.atomic():
            GradingRunSummary.objects.filter(run_id__in=ids).delete()
            written += _backfill(ids)
