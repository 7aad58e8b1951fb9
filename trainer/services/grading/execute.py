"""Executing grading runs: every decision of a submitted attempt against the answer key.

A run's grades, its score and its ledger entries commit together, so a crash leaves nothing
half-graded and the run re-runnable; a run already graded is a no-op, so a task delivered
twice grades once.

A little over 400 lines: a batch is read, graded and written in one transaction, and its
steps read best together.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from core.collector import collection_paused
from core.errors import NotFoundError
from core.postgres import copy_rows, deferred_checks_run, update_rows
from ledger.events import Event, Subject
from ledger.services.append import PendingEntry, ledger_append_many
from trainer.games import DocumentError, game_named
from trainer.models import (
    Attempt,
    AttemptItem,
    Decision,
    ErrorCategory,
    Grade,
    GradingRun,
    RuleProfileVersion,
    RunStatus,
    RunTrigger,
    Scenario,
)
from trainer.selectors.runs import latest_and_graded_run_numbers
from trainer.services.grading.basis import BasisCache, JsonTexts, RoundValues
from trainer.services.grading.start import grading_run_start
from trainer.services.run_summaries import run_summaries_save
from trainer.services.vouched import attempt_vouch, grades_vouch, run_vouch
from trainer.shown import identities

logger = logging.getLogger("trainer.services.grading")

# Grades per bulk insert and per GRADES_RECORDED ledger entry.
CHUNK = 1000
HUNDRED = Decimal(100)
CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def grading_run_execute(*, run_id: int) -> GradingRun:
    """Grade every question of a run's attempt; a run already graded or failed is returned as is.

    A document the engine refuses under the run's rules fails the run with the reason.
    Database errors propagate (the task retries them) and leave no grade behind.
    """
    grading_runs_execute(run_ids=[run_id])
    try:
        return GradingRun.objects.get(pk=run_id)
    except GradingRun.DoesNotExist:
        raise NotFoundError(f"grading run {run_id} not found") from None


def grading_runs_execute(*, run_ids: Sequence[int], started: bool = False) -> dict[int, str]:
    """Grade several runs with a handful of bulk queries; returns each known run's status.

    The runs' grades, results and ledger entries commit in one transaction: a crash or a
    lost database leaves every run of the batch as it was, to be graded again. `started`:
    the caller has marked the runs grading already (trainer.services.grading.start, in the
    transaction that claimed them), so they are not marked again.
    """
    to_grade = list(run_ids) if started else grading_run_start(run_ids=run_ids)
    if to_grade:
        with transaction.atomic(), collection_paused():
            _runs_grade(to_grade)
    # No order: the model's joins every run to its attempt.
    return dict(GradingRun.objects.filter(pk__in=run_ids).order_by().values_list("pk", "status"))


def _runs_grade(run_ids: Sequence[int]) -> None:
    # Locked again inside the grading transaction: a second delivery waits here and then
    # finds the runs graded.
    runs = list(
        GradingRun.objects.select_for_update(of=("self",))
        .select_related("attempt__drill")
        .filter(pk__in=run_ids, status=RunStatus.GRADING)
        .order_by("pk")
    )
    if not runs:
        return
    attempt_ids = {run.attempt_id for run in runs}
    items_of: dict[int, list[RoundValues]] = {pk: [] for pk in attempt_ids}
    cache = BasisCache()
    # The rounds as plain values (model instances cost ~10% of a batch), their documents
    # and keys as JSON text decoded once per distinct text: rounds dealt from the same
    # scenario share them. Their profile versions and scenarios are read once each.
    rows = list(
        AttemptItem.objects.filter(attempt_id__in=attempt_ids)
        .annotate(document_text=_as_text("document"), answer_key_text=_as_text("answer_key"))
        .order_by("attempt_id", "position")
        .values_list(
            "pk",
            "attempt_id",
            "profile_version_id",
            "scenario_id",
            "document_text",
            "answer_key_text",
            "attempt__drill__game",
            "questions_shown",
        )
    )
    versions = RuleProfileVersion.objects.select_related("profile").in_bulk(
        {row[2] for row in rows}
    )
    scenario_ids = {row[3] for row in rows if row[3] is not None}
    scenarios = Scenario.objects.in_bulk(scenario_ids) if scenario_ids else {}
    load_json = cache.json.load
    for pk, attempt_id, version_id, scenario_id, document_text, key_text, game, shown in rows:
        items_of[attempt_id].append(
            RoundValues(
                pk,
                attempt_id,
                load_json(document_text),
                load_json(key_text),
                versions[version_id],
                None if scenario_id is None else scenarios[scenario_id],
                game_named(game),
                shown,
            )
        )
    load = cache.json.load
    answers = {
        (item_id, question): Answer(decision_id, kind, load(answer), response_ms, late)
        for decision_id, item_id, question, kind, answer, response_ms, late in (
            # No order (the model's joins the attempts to sort them): a lookup by rounds.
            Decision.objects.filter(
                item_id__in=[item.pk for items in items_of.values() for item in items]
            )
            .order_by()
            .annotate(answer_text=_as_text("answer"))
            .values_list("id", "item_id", "question", "kind", "answer_text", "response_ms", "late")
        )
    }
    now = timezone.now()
    grades: list[_Row] = []
    entries: list[PendingEntry] = []
    finished: dict[int, dict[str, Any]] = {}
    # Each run's keys by round, as graded and as asked: the summaries' skill figures.
    keys_of: dict[int, dict[int, tuple[list[Any], list[Any]]]] = {}
    for run in runs:
        try:
            run_grades = _grade_run(run, items_of[run.attempt_id], answers, cache, keys_of)
        except DocumentError as exc:
            _set_failed(run, f"the engine refused a round: {exc}", now)
            entries.append(_finished_entry(run, finished))
            continue
        grades.extend(run_grades)
        _set_result(run, run_grades, now)
        for start in range(0, len(run_grades), CHUNK):
            chunk = run_grades[start : start + CHUNK]
            entries.append(
                PendingEntry(
                    event=Event.GRADES_RECORDED,
                    subject_type=Subject.GRADING_RUN,
                    subject_id=str(run.pk),
                    payload={
                        "attempt": run.attempt_id,
                        "grades": len(chunk),
                        "correct": sum(g.correct for g in chunk),
                        "sha256": _grades_hash(chunk),
                    },
                )
            )
        entries.append(_finished_entry(run, finished, run_grades))
    _insert_grades(grades, cache.json)
    _update_runs(runs)
    run_summaries_save(runs=runs, grades=grades, items_of=items_of, keys_of=keys_of)
    _copy_to_attempts(runs, now, finished)
    # The grades' foreign keys (three a grade) checked now, not at the commit: the ledger's
    # head, which every submit and answer waits for, is taken next and held until then.
    deferred_checks_run()
    ledger_append_many(entries=entries)


class _Row(NamedTuple):
    """A grade before it is written: cheaper to build by the thousand than a model instance."""

    run_id: int
    item_id: int
    question: int
    decision_id: int | None
    kind: str
    correct: bool
    expected: Any
    given: Any
    money_diff: Decimal
    category: str
    rule: str
    response_ms: int | None
    points_diff: Decimal | None


_GRADE_COLUMNS = _Row._fields


def _as_text(field: str) -> Cast:
    """A JSON column read as its text (decoded by `JsonTexts`, not by the driver)."""
    return Cast(field, TextField())


def _update_runs(runs: Sequence[GradingRun]) -> None:
    """Write the runs' results."""
    update_rows(
        GradingRun, [(run.pk, {f: getattr(run, f) for f in _RESULT_FIELDS}) for run in runs]
    )


def _insert_grades(grades: Sequence[_Row], texts: JsonTexts | None = None) -> None:
    """Write the grades: COPY on PostgreSQL (several times faster than INSERT), else bulk.

    The runs are locked and have no grades yet, so a conflict cannot arise; the unique
    constraint would still refuse a second grade of a question and roll the batch back.
    """
    if connection.vendor != "postgresql":
        Grade.objects.bulk_create(
            (Grade(**row._asdict()) for row in grades), batch_size=CHUNK, ignore_conflicts=True
        )
        return
    dump = (texts or JsonTexts()).dump
    copy_rows(
        table=Grade._meta.db_table,
        columns=_GRADE_COLUMNS,
        rows=(
            (*g[:6], dump(g.expected), None if g.given is None else dump(g.given), *g[8:])
            for g in grades
        ),
    )


_RESULT_FIELDS = [
    "status",
    "claimed_until",
    "error",
    "finished_at",
    "questions",
    "correct",
    "score",
    "passed",
    "overpaid",
    "underpaid",
    "basis",
]


def _grade_run(
    run: GradingRun,
    items: Sequence[RoundValues],
    answers: Mapping[tuple[int, int], Answer],
    cache: BasisCache,
    keys_of: dict[int, dict[int, tuple[list[Any], list[Any]]]],
) -> list[_Row]:
    regrade = run.trigger == RunTrigger.REGRADE
    bases = {item.pk: cache.basis(item, regrade=regrade) for item in items}
    run.basis = {str(pk): basis.record for pk, basis in bases.items()}
    keys_of[run.pk] = {pk: (basis.key, basis.asked) for pk, basis in bases.items()}
    grades: list[_Row] = []
    for item in items:
        basis = bases[item.pk]
        if basis.asked is basis.key:
            for expected in basis.key:
                grades.append(
                    _grade(run, item, expected, answers.get((item.pk, expected["n"])), cache)
                )
            continue
        # The key changed: a decision answers the question of the same kind, box, hand
        # and player (and the same turn among them) in the new key.
        by_identity = {
            ident: answers.get((item.pk, asked["n"]))
            for asked, ident in zip(basis.asked, identities(basis.asked), strict=True)
        }
        for expected, ident in zip(basis.key, identities(basis.key), strict=True):
            grades.append(_grade(run, item, expected, by_identity.get(ident), cache))
    return grades


def _set_result(run: GradingRun, grades: Sequence[_Row], now: Any) -> None:
    questions = len(grades)
    correct = sum(g.correct for g in grades)
    score = (
        (Decimal(correct) * HUNDRED / questions).quantize(CENT, ROUND_HALF_UP)
        if questions
        else ZERO
    )
    run.status = RunStatus.GRADED
    run.claimed_until = None
    run.error = ""
    run.finished_at = now
    run.questions = questions
    run.correct = correct
    run.score = score
    run.passed = score >= run.attempt.drill.pass_mark
    run.overpaid = sum((g.money_diff for g in grades if g.money_diff > 0), ZERO)
    run.underpaid = -sum((g.money_diff for g in grades if g.money_diff < 0), ZERO)


def _set_failed(run: GradingRun, reason: str, now: Any) -> None:
    run.status = RunStatus.FAILED
    run.claimed_until = None
    run.error = reason[:2000]
    run.finished_at = now


def _finished_entry(
    run: GradingRun, finished: dict[int, dict[str, Any]], grades: Sequence[_Row] = ()
) -> PendingEntry:
    """The run's `grading_run.finished` entry; its payload (kept in `finished` by run, for
    the attempt's vouch) vouches for the run and its grades (ledger.services.vouch)."""
    payload: dict[str, Any] = {
        "attempt": run.attempt_id,
        "number": run.number,
        "trigger": run.trigger,
        "status": run.status,
    }
    if run.status == RunStatus.GRADED:
        payload.update(
            questions=run.questions,
            correct=run.correct,
            score=run.score,
            passed=run.passed,
            overpaid=run.overpaid,
            underpaid=run.underpaid,
            basis=run.basis,
        )
    else:
        payload["error"] = run.error
    payload["vouches"] = dict([run_vouch(run)])
    if run.status == RunStatus.GRADED:
        key, digest = grades_vouch(run.pk, grades)
        payload["vouches"][key] = digest
    finished[run.pk] = payload
    return PendingEntry(
        event=Event.RUN_FINISHED,
        subject_type=Subject.GRADING_RUN,
        subject_id=str(run.pk),
        payload=payload,
    )


def _copy_to_attempts(
    runs: Sequence[GradingRun], now: Any, finished: dict[int, dict[str, Any]]
) -> None:
    """The newest graded run is the attempt's result; the newest run gives its status.

    An older run finishing late changes neither. The run that sets the result vouches for
    the attempt's copy of it in its entry's payload (`finished`, by run).
    """
    attempt_ids = {run.attempt_id for run in runs}
    numbers = latest_and_graded_run_numbers(attempt_ids=attempt_ids)
    latest = {pk: last for pk, (last, _) in numbers.items()}
    graded_before = {pk: graded for pk, (_, graded) in numbers.items() if graded is not None}
    changes: dict[int, dict[str, Any]] = {}
    setters: dict[int, GradingRun] = {}
    for run in sorted(runs, key=lambda r: r.number):
        change = changes.setdefault(run.attempt_id, {})
        if run.status == RunStatus.GRADED and run.number >= graded_before.get(run.attempt_id, 0):
            change.update(score=run.score, passed=run.passed, graded_at=now)
            setters[run.attempt_id] = run
        if run.number == latest.get(run.attempt_id):
            change.update(grading_status=run.status, grading_error=run.error)
    update_rows(Attempt, [(pk, change) for pk, change in changes.items() if change])
    for run in setters.values():
        # Only the run whose result the attempt now holds vouches for it.
        key, digest = attempt_vouch(run.attempt, score=run.score, passed=run.passed)
        finished[run.pk]["vouches"][key] = digest


class Answer(NamedTuple):
    """A recorded decision as grading reads it."""

    decision_id: int
    kind: str
    given: Any
    response_ms: int
    late: bool


def _grade(
    run: GradingRun,
    item: RoundValues,
    expected: Mapping[str, Any],
    answer: Answer | None,
    cache: BasisCache,
) -> _Row:
    kind = expected["kind"]
    # A decision made for a different kind of question (the key changed under a regrade)
    # is no answer to this one.
    if answer is not None and answer.kind == kind:
        decision_id, given, response_ms = answer.decision_id, answer.given, answer.response_ms
        late = answer.late
    else:
        decision_id, given, response_ms, late = None, None, None, False
    right, money_diff, points_diff, category = cache.verdict(
        item.game, expected, given, missed=decision_id is None
    )
    if late:
        # Past the question's time limit: wrong for its timing whatever it said; the money
        # it would have moved wrongly still counts.
        right, category = False, ErrorCategory.LATE
    return _Row(
        run.pk,
        item.pk,
        expected["n"],
        decision_id,
        kind,
        right,
        expected["expected"],
        given,
        money_diff,
        category,
        expected.get("rule", ""),
        response_ms,
        points_diff,
    )


def _grades_hash(grades: Sequence[_Row]) -> str:
    rows = [
        [g.item_id, g.question, g.correct, str(g.money_diff), g.category, g.given] for g in grades
    ]
    text = json.dumps(rows, separators=(",", ":"), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
