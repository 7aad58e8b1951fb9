"""Grading: every decision of a submitted attempt against the engine's answer key.

A grading run is requested in the transaction that submits (or regrades) an attempt and
queued on commit; a Celery task executes it. A run's grades, its score and its ledger
entries commit together, so a crash leaves nothing half-graded and the run re-runnable;
a run already graded is a no-op, so a task delivered twice grades once.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Max, Model, QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from core.errors import ConflictError, NotFoundError, TrainerError
from core.queue import enqueue
from ledger.events import Event
from ledger.services.append import PendingEntry, ledger_append_many
from trainer import rules
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    ErrorCategory,
    Grade,
    GradingRun,
    GradingStatus,
    RuleProfileVersion,
    RunStatus,
    RunTrigger,
    Scenario,
)
from trainer.services.run_summaries import run_summaries_save

logger = logging.getLogger(__name__)

# Grades per bulk insert and per GRADES_RECORDED ledger entry.
CHUNK = 1000
# Runs per batch task (one transaction): big enough to amortise the queries and the
# task's overhead, small enough that a killed worker or a retry redoes little work.
RUNS_PER_TASK = 100
HUNDRED = Decimal(100)
CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def grading_timeout() -> timedelta:
    """How long a run may sit pending or grading before the sweep queues it again."""
    return timedelta(seconds=settings.SHOESCHOOL_GRADING_TIMEOUT_SECONDS)


# Requesting.


def grading_request(
    *,
    attempt: Attempt,
    trigger: str = RunTrigger.SUBMIT,
    reason: str = "",
    requested_by: AbstractBaseUser | None = None,
) -> GradingRun:
    """Create the next grading run of a submitted attempt and queue it when the caller commits.

    Call it inside the transaction that saves the attempt as submitted (or that records a
    regrade). Raises ConflictError for an attempt that is not submitted.
    """
    return grading_request_batch(
        attempts=[attempt], trigger=trigger, reason=reason, requested_by=requested_by
    )[0]


def grading_request_batch(
    *,
    attempts: Iterable[Attempt],
    trigger: str = RunTrigger.SUBMIT,
    reason: str = "",
    requested_by: AbstractBaseUser | None = None,
) -> list[GradingRun]:
    """One new grading run per attempt, all or none, queued in batches on commit."""
    if trigger not in RunTrigger.values:
        raise TrainerError(f"unknown grading trigger {trigger!r}", field="trigger")
    given = list(attempts)
    if not given:
        return []
    with transaction.atomic():
        ids = [a.pk for a in given]
        locked = {
            a.pk: a
            for a in Attempt.objects.select_for_update(of=("self",))
            .select_related("trainee")
            .filter(pk__in=ids)
            .order_by("pk")
        }
        missing = [pk for pk in ids if pk not in locked]
        if missing:
            raise NotFoundError(f"attempt {missing[0]} not found", field="attempt")
        not_submitted = [pk for pk in ids if locked[pk].status != AttemptStatus.SUBMITTED]
        if not_submitted:
            raise ConflictError(
                f"attempt {not_submitted[0]} is not submitted; only a submitted attempt is graded",
                field="attempt",
            )
        numbers = dict(
            GradingRun.objects.filter(attempt_id__in=ids)
            .values("attempt_id")
            .annotate(last=Max("number"))
            .values_list("attempt_id", "last")
        )
        now = timezone.now()
        runs = [
            GradingRun(
                attempt=locked[pk],
                number=(numbers.get(pk) or 0) + 1,
                trigger=trigger,
                reason=reason,
                requested_by_id=getattr(requested_by, "pk", None),
                status=RunStatus.PENDING,
            )
            for pk in ids
        ]
        # The ids are needed for the ledger and the queue: one INSERT returning them where the
        # database can, else one at a time.
        if connection.features.can_return_rows_from_bulk_insert:
            GradingRun.objects.bulk_create(runs)
        else:
            for run in runs:
                run.save()
        Attempt.objects.filter(pk__in=ids).update(
            grading_status=GradingStatus.PENDING, grading_queued_at=now, grading_error=""
        )
        for attempt in given:
            attempt.grading_status = GradingStatus.PENDING
            attempt.grading_queued_at = now
            attempt.grading_error = ""
        event = Event.ATTEMPT_SUBMITTED if trigger == RunTrigger.SUBMIT else Event.REGRADE_REQUESTED
        ledger_append_many(
            entries=[
                PendingEntry(
                    event=event,
                    subject_type="attempt",
                    subject_id=str(run.attempt_id),
                    payload={
                        "run": run.pk,
                        "number": run.number,
                        "trigger": trigger,
                        "reason": reason,
                        "submitted_at": run.attempt.submitted_at,
                    },
                    actor=requested_by
                    if requested_by is not None or trigger != RunTrigger.SUBMIT
                    else run.attempt.trainee,
                )
                for run in runs
            ]
        )
        run_ids = [run.pk for run in runs]
        _enqueue(run_ids)
    return runs


def _enqueue(run_ids: Sequence[int]) -> None:
    """Queue the runs' grading (trainer.tasks) when the transaction commits."""
    if len(run_ids) == 1:
        enqueue("trainer.tasks.grade_run", run_ids[0])
        return
    for start in range(0, len(run_ids), RUNS_PER_TASK):
        enqueue("trainer.tasks.grade_runs", list(run_ids[start : start + RUNS_PER_TASK]))


# Executing.


class _Round:
    """A round (AttemptItem) as the grader reads it: its values, without a model instance."""

    __slots__ = ("answer_key", "attempt_id", "document", "pk", "profile_version", "scenario")

    def __init__(
        self,
        pk: int,
        attempt_id: int,
        document: Any,
        answer_key: Any,
        profile_version: RuleProfileVersion,
        scenario: Scenario | None,
    ) -> None:
        self.pk = pk
        self.attempt_id = attempt_id
        self.document = document
        self.answer_key = answer_key
        self.profile_version = profile_version
        self.scenario = scenario

    @property
    def profile_version_id(self) -> int:
        return self.profile_version.pk

    @property
    def scenario_id(self) -> int | None:
        return None if self.scenario is None else self.scenario.pk


@dataclass(frozen=True)
class _ItemBasis:
    """What one round is graded against: its answer key and where the key came from."""

    key: list[dict[str, Any]]
    # The key the trainee was asked (the same list unless a regrade changed it).
    asked: list[dict[str, Any]]
    record: dict[str, Any]


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


def grading_runs_execute(*, run_ids: Sequence[int]) -> dict[int, str]:
    """Grade several runs with a handful of bulk queries; returns each known run's status.

    The runs' grades, results and ledger entries commit in one transaction: a crash or a
    lost database leaves every run of the batch as it was, to be graded again.
    """
    started = _runs_start(run_ids)
    if started:
        with transaction.atomic():
            _runs_grade(started)
    return dict(GradingRun.objects.filter(pk__in=run_ids).values_list("pk", "status"))


def _latest_numbers(attempt_ids: Iterable[int], **filters: Any) -> dict[int, int]:
    return dict(
        GradingRun.objects.filter(attempt_id__in=set(attempt_ids), **filters)
        .values("attempt_id")
        .annotate(last=Max("number"))
        .values_list("attempt_id", "last")
    )


def _runs_start(run_ids: Sequence[int]) -> list[int]:
    """Mark the batch's unfinished runs grading (visible at once); returns their ids."""
    with transaction.atomic():
        runs = list(
            GradingRun.objects.select_for_update()
            .filter(pk__in=run_ids, status__in=[RunStatus.PENDING, RunStatus.GRADING])
            .order_by("pk")
        )
        if not runs:
            return []
        ids = [run.pk for run in runs]
        GradingRun.objects.filter(pk__in=ids).update(
            status=RunStatus.GRADING, started_at=timezone.now()
        )
        latest = _latest_numbers(run.attempt_id for run in runs)
        newest = [run.attempt_id for run in runs if latest.get(run.attempt_id) == run.number]
        Attempt.objects.filter(pk__in=newest).update(grading_status=GradingStatus.GRADING)
        return ids


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
    items_of: dict[int, list[_Round]] = {pk: [] for pk in attempt_ids}
    cache = _BasisCache()
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
        )
    )
    versions = RuleProfileVersion.objects.select_related("profile").in_bulk(
        {row[2] for row in rows}
    )
    scenario_ids = {row[3] for row in rows if row[3] is not None}
    scenarios = Scenario.objects.in_bulk(scenario_ids) if scenario_ids else {}
    load_json = cache.json.load
    for pk, attempt_id, version_id, scenario_id, document_text, key_text in rows:
        items_of[attempt_id].append(
            _Round(
                pk,
                attempt_id,
                load_json(document_text),
                load_json(key_text),
                versions[version_id],
                None if scenario_id is None else scenarios[scenario_id],
            )
        )
    load = cache.json.load
    answers = {
        (item_id, question): Answer(decision_id, kind, load(answer), response_ms, late)
        for decision_id, item_id, question, kind, answer, response_ms, late in (
            Decision.objects.filter(
                item_id__in=[item.pk for items in items_of.values() for item in items]
            )
            .annotate(answer_text=_as_text("answer"))
            .values_list("id", "item_id", "question", "kind", "answer_text", "response_ms", "late")
        )
    }
    now = timezone.now()
    grades: list[_Row] = []
    entries: list[PendingEntry] = []
    for run in runs:
        try:
            run_grades = _grade_run(run, items_of[run.attempt_id], answers, cache)
        except rules.ScenarioError as exc:
            _set_failed(run, f"the engine refused a round: {exc}", now)
            entries.append(_finished_entry(run))
            continue
        grades.extend(run_grades)
        _set_result(run, run_grades, now)
        for start in range(0, len(run_grades), CHUNK):
            chunk = run_grades[start : start + CHUNK]
            entries.append(
                PendingEntry(
                    event=Event.GRADES_RECORDED,
                    subject_type="grading_run",
                    subject_id=str(run.pk),
                    payload={
                        "attempt": run.attempt_id,
                        "grades": len(chunk),
                        "correct": sum(g.correct for g in chunk),
                        "sha256": _grades_hash(chunk),
                    },
                )
            )
        entries.append(_finished_entry(run))
    _insert_grades(grades, cache.json)
    _update_runs(runs)
    run_summaries_save(runs=runs, grades=grades, items_of=items_of)
    _copy_to_attempts(runs, now)
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


_GRADE_COLUMNS = _Row._fields


def _as_text(field: str) -> Cast:
    """A JSON column read as its text (decoded by `_JsonTexts`, not by the driver)."""
    return Cast(field, TextField())


class _JsonTexts:
    """JSON decoded once per distinct text, and the text of each decoded value kept.

    The values are shared by every row that had the same text, so nobody may change them;
    the grader only reads them.
    """

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        # id of a value -> (the value, kept alive so its id is not reused; its text)
        self._texts: dict[int, tuple[Any, str]] = {}

    def load(self, text: str | None) -> Any:
        if text is None:
            return None
        try:
            return self._values[text]
        except KeyError:
            value = self._values[text] = json.loads(text)
            self._texts[id(value)] = (value, text)
            return value

    def dump(self, value: Any) -> str:
        """The JSON text of a value (the text it was read from, for one read here)."""
        known = self._texts.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        text = json.dumps(value)
        if isinstance(value, dict | list):
            self._texts[id(value)] = (value, text)
        return text


def _update_runs(runs: Sequence[GradingRun]) -> None:
    """Write the runs' results."""
    _update_rows(
        GradingRun, [(run.pk, {f: getattr(run, f) for f in _RESULT_FIELDS}) for run in runs]
    )


def _update_rows(model: type[Model], changes: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
    """One UPDATE a row by primary key, pipelined in one round trip on PostgreSQL.

    (bulk_update's CASE expressions cost more to build than they save.)
    """
    if connection.vendor != "postgresql":
        for pk, change in changes:
            model._default_manager.filter(pk=pk).update(**change)
        return
    meta = model._meta
    groups: dict[tuple[str, ...], list[list[Any]]] = {}
    for pk, change in changes:
        fields = tuple(change)
        groups.setdefault(fields, []).append(
            [
                *(meta.get_field(f).get_db_prep_save(change[f], connection) for f in fields),  # type: ignore[union-attr]
                pk,
            ]
        )
    with connection.cursor() as cursor:
        for fields, params in groups.items():
            if not fields:
                continue
            assignments = ", ".join(f"{meta.get_field(f).column} = %s" for f in fields)  # type: ignore[union-attr]
            cursor.executemany(
                f"UPDATE {meta.db_table} SET {assignments} WHERE id = %s",  # noqa: S608 - our own columns
                params,
            )


def _insert_grades(grades: Sequence[_Row], texts: _JsonTexts | None = None) -> None:
    """Write the grades: COPY on PostgreSQL (several times faster than INSERT), else bulk.

    The runs are locked and have no grades yet, so a conflict cannot arise; the unique
    constraint would still refuse a second grade of a question and roll the batch back.
    """
    if connection.vendor != "postgresql":
        Grade.objects.bulk_create(
            (Grade(**row._asdict()) for row in grades), batch_size=CHUNK, ignore_conflicts=True
        )
        return
    table = Grade._meta.db_table
    dump = (texts or _JsonTexts()).dump
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({', '.join(_GRADE_COLUMNS)}) FROM STDIN") as copy:
            for g in grades:
                copy.write_row(
                    (
                        *g[:6],
                        dump(g.expected),
                        None if g.given is None else dump(g.given),
                        *g[8:],
                    )
                )


_RESULT_FIELDS = [
    "status",
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
    items: Sequence[_Round],
    answers: Mapping[tuple[int, int], Answer],
    cache: _BasisCache,
) -> list[_Row]:
    regrade = run.trigger == RunTrigger.REGRADE
    bases = {item.pk: cache.basis(item, regrade=regrade) for item in items}
    run.basis = {str(pk): basis.record for pk, basis in bases.items()}
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
            for asked, ident in zip(basis.asked, _identities(basis.asked), strict=True)
        }
        for expected, ident in zip(basis.key, _identities(basis.key), strict=True):
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
    run.error = reason[:2000]
    run.finished_at = now


def _finished_entry(run: GradingRun) -> PendingEntry:
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
    return PendingEntry(
        event=Event.RUN_FINISHED,
        subject_type="grading_run",
        subject_id=str(run.pk),
        payload=payload,
    )


def _copy_to_attempts(runs: Sequence[GradingRun], now: Any) -> None:
    """The newest graded run is the attempt's result; the newest run gives its status.

    An older run finishing late changes neither.
    """
    attempt_ids = {run.attempt_id for run in runs}
    latest = _latest_numbers(attempt_ids)
    graded_before = _latest_numbers(attempt_ids, status=RunStatus.GRADED)
    changes: dict[int, dict[str, Any]] = {}
    for run in sorted(runs, key=lambda r: r.number):
        change = changes.setdefault(run.attempt_id, {})
        if run.status == RunStatus.GRADED and run.number >= graded_before.get(run.attempt_id, 0):
            change.update(score=run.score, passed=run.passed, graded_at=now)
        if run.number == latest.get(run.attempt_id):
            change.update(grading_status=run.status, grading_error=run.error)
    _update_rows(Attempt, [(pk, change) for pk, change in changes.items() if change])


class Answer(NamedTuple):
    """A recorded decision as grading reads it."""

    decision_id: int
    kind: str
    given: Any
    response_ms: int
    late: bool


def _grade(
    run: GradingRun,
    item: _Round,
    expected: Mapping[str, Any],
    answer: Answer | None,
    cache: _BasisCache,
) -> _Row:
    kind = expected["kind"]
    # A decision made for a different kind of question (the key changed under a regrade)
    # is no answer to this one.
    if answer is not None and answer.kind == kind:
        decision_id, given, response_ms = answer.decision_id, answer.given, answer.response_ms
        late = answer.late
    else:
        decision_id, given, response_ms, late = None, None, None, False
    right, money_diff, category = cache.verdict(expected, given, missed=decision_id is None)
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
    )


def _verdict(expected: Mapping[str, Any], given: Any, missed: bool) -> tuple[bool, Decimal, str]:
    """Whether an answer is right, the money it moves wrongly, and its category."""
    # Missed: rules.unanswered, the one scoring of a missed question (feedback's too).
    verdict = rules.unanswered() if missed else rules.compare(expected, given)
    category = (verdict.category or "procedure_error") if not verdict.right else ""
    return verdict.right, verdict.money_diff.quantize(CENT), category


def _grades_hash(grades: Sequence[_Row]) -> str:
    rows = [
        [g.item_id, g.question, g.correct, str(g.money_diff), g.category, g.given] for g in grades
    ]
    text = json.dumps(rows, separators=(",", ":"), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


# The answer key a round is graded against.


class _BasisCache:
    """Answer keys for a batch of runs, looking each profile and scenario up once."""

    def __init__(self) -> None:
        self._versions: dict[int, RuleProfileVersion] = {}
        self._scenarios: dict[int, Scenario] = {}
        self.json = _JsonTexts()
        # Keyed by the ids of shared values (from `json`, which keeps them alive).
        self._verdicts: dict[tuple[int, int, bool], tuple[bool, Decimal, str]] = {}
        self._bases: dict[tuple[Any, ...], _ItemBasis] = {}
        self._hashes: dict[int, tuple[Any, str]] = {}

    def verdict(
        self, expected: Mapping[str, Any], given: Any, *, missed: bool
    ) -> tuple[bool, Decimal, str]:
        """`_verdict`, computed once per question and answer value in the batch."""
        key = (id(expected), id(given), missed)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = _verdict(expected, given, missed)
            # Keep both alive so their ids stay theirs.
            self._hashes.setdefault(id(expected), (expected, ""))
            self._hashes.setdefault(id(given), (given, ""))
        return found

    def document_hash(self, document: Any) -> str:
        known = self._hashes.get(id(document))
        if known is None or known[0] is not document or not known[1]:
            known = self._hashes[id(document)] = (document, _document_hash(document))
        return known[1]

    def basis(self, item: _Round, *, regrade: bool) -> _ItemBasis:
        """`_basis`, once per document, key, version and scenario in the batch (the rounds
        of one scenario share their decoded document and key, so the ids are theirs)."""
        key = (
            id(item.document),
            id(item.answer_key),
            item.profile_version_id,
            item.scenario_id,
            regrade,
        )
        found = self._bases.get(key)
        if found is None:
            found = self._bases[key] = self._basis(item, regrade=regrade)
            self._hashes.setdefault(id(item.answer_key), (item.answer_key, ""))
        return found

    def _basis(self, item: _Round, *, regrade: bool) -> _ItemBasis:
        """A submit is graded against the key stored when the round was dealt (the engine's
        key for the same document and profile version); a regrade recomputes it from the
        newest revision of the scenario under the newest version of the profile."""
        version = item.profile_version
        document = item.document
        scenario_id = item.scenario_id
        if regrade:
            version = self._newest_version(version)
            if item.scenario is not None:
                newest = self._newest_scenario(item.scenario)
                scenario_id = newest.pk
                if newest.pk != item.scenario_id:
                    document = newest.document
        record: dict[str, Any] = {
            "profile_version": version.pk,
            "version": version.version,
            "scenario": scenario_id,
            "document_sha256": self.document_hash(document),
        }
        asked = item.answer_key or rules.answer_key(
            document_under(item.document, item.profile_version)
        )
        if not regrade:
            record["key"] = "stored" if item.answer_key else "recomputed"
            return _ItemBasis(asked, asked, record)
        record["key"] = "recomputed"
        return _ItemBasis(rules.answer_key(document_under(document, version)), asked, record)

    def _newest_version(self, version: RuleProfileVersion) -> RuleProfileVersion:
        if version.profile_id not in self._versions:
            self._versions[version.profile_id] = version.profile.current_version or version
        return self._versions[version.profile_id]

    def _newest_scenario(self, scenario: Scenario) -> Scenario:
        if scenario.pk not in self._scenarios:
            self._scenarios[scenario.pk] = _newest_revision(scenario)
        return self._scenarios[scenario.pk]


def _identities(key: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """What each question asks about: kind, box, hand, player and which turn among those."""
    seen: dict[tuple[Any, ...], int] = {}
    out: list[tuple[Any, ...]] = []
    for item in key:
        base = (item["kind"], item["box"], item["hand"], item["player"])
        seen[base] = seen.get(base, 0) + 1
        out.append((*base, seen[base]))
    return out


def _newest_revision(scenario: Scenario) -> Scenario:
    seen = {scenario.pk}
    current = scenario
    while True:
        nxt = Scenario.objects.filter(supersedes_id=current.pk).first()
        if nxt is None or nxt.pk in seen:
            return current
        seen.add(nxt.pk)
        current = nxt


def _document_hash(document: Any) -> str:
    text = json.dumps(document, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def document_under(document: Mapping[str, Any], version: RuleProfileVersion) -> dict[str, Any]:
    """The document with its rules replaced by the version's parameters.

    The engine knows only the shipped profiles by name, so a recorded version becomes the
    document's base profile plus overrides for every parameter that differs; overrides the
    scenario states itself still apply on top.
    """
    stated = document.get("rules")
    own: Mapping[str, Any] = {}
    if isinstance(stated, Mapping):
        base_name = stated.get("profile")
        own = stated.get("overrides") or {}
    else:
        base_name = stated
    base = rules.PROFILES.get(base_name) if isinstance(base_name, str) else None
    if base is None:
        # Unknown to the engine: let it name the fault.
        rules.profile_from_rules(stated)
        raise AssertionError("unreachable")  # pragma: no cover
    shipped = rules.profile_to_dict(base)
    target = rules.profile_to_dict(version.engine_profile)
    overrides = {
        key: value
        for key, value in target.items()
        if key not in ("name", "source", "assumed") and value != shipped.get(key)
    }
    overrides.update(own)
    out = dict(document)
    out["rules"] = {"profile": base_name, "overrides": overrides} if overrides else base_name
    return out


# Failing and sweeping.


def _is_newest(run: GradingRun) -> bool:
    return not GradingRun.objects.filter(attempt_id=run.attempt_id, number__gt=run.number).exists()


def grading_run_fail(*, run_id: int, reason: str) -> GradingRun:
    """Mark a run failed with the reason (a run already graded stays graded)."""
    with transaction.atomic():
        run = GradingRun.objects.select_for_update().get(pk=run_id)
        if run.status == RunStatus.GRADED:
            return run
        run.status = RunStatus.FAILED
        run.error = reason[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        if _is_newest(run):
            Attempt.objects.filter(pk=run.attempt_id).update(
                grading_status=GradingStatus.FAILED, grading_error=run.error
            )
        ledger_append_many(
            entries=[
                PendingEntry(
                    event=Event.RUN_FINISHED,
                    subject_type="grading_run",
                    subject_id=str(run.pk),
                    payload={
                        "attempt": run.attempt_id,
                        "number": run.number,
                        "trigger": run.trigger,
                        "status": run.status,
                        "error": run.error,
                    },
                )
            ]
        )
    logger.warning("grading run %s failed: %s", run_id, reason)
    return run


def grading_sweep(*, timeout: timedelta | None = None) -> list[int]:
    """Queue again every run left pending or grading past the timeout; returns their ids.

    A task lost with a killed worker, or never sent because the broker was down at commit,
    is picked up here; running a run twice is harmless.
    """
    cutoff = timezone.now() - (grading_timeout() if timeout is None else timeout)
    with transaction.atomic():
        stuck: QuerySet[GradingRun] = GradingRun.objects.filter(
            status__in=[RunStatus.PENDING, RunStatus.GRADING],
            attempt__grading_queued_at__lt=cutoff,
        )
        run_ids = list(stuck.order_by("pk").values_list("pk", flat=True))
        if not run_ids:
            return []
        # Stamped now so the next sweep waits a full timeout before queueing them again.
        Attempt.objects.filter(grading_runs__pk__in=run_ids).update(
            grading_queued_at=timezone.now()
        )
        _enqueue(run_ids)
    logger.info("grading sweep queued %d run(s) again", len(run_ids))
    return run_ids


# Regrading.


def regrade_candidates(
    *,
    profile: str | None = None,
    drill_id: int | None = None,
    attempt_id: int | None = None,
    submitted_from: Any = None,
    submitted_to: Any = None,
) -> QuerySet[Attempt]:
    """Submitted attempts matching every filter given (at least one is required)."""
    if all(v is None for v in (profile, drill_id, attempt_id, submitted_from, submitted_to)):
        raise TrainerError("say which attempts to regrade: a profile, drill, attempt or dates")
    qs = Attempt.objects.filter(status=AttemptStatus.SUBMITTED)
    if profile is not None:
        qs = qs.filter(items__profile_version__profile__name=profile)
    if drill_id is not None:
        qs = qs.filter(drill_id=drill_id)
    if attempt_id is not None:
        qs = qs.filter(pk=attempt_id)
    if submitted_from is not None:
        qs = qs.filter(submitted_at__gte=submitted_from)
    if submitted_to is not None:
        qs = qs.filter(submitted_at__lt=submitted_to)
    return qs.distinct().order_by("pk")


def regrade_request(
    *,
    attempts: Iterable[Attempt],
    reason: str,
    requested_by: AbstractBaseUser | None = None,
) -> list[GradingRun]:
    """A new regrade run for each attempt; the earlier runs and their grades stay as they are."""
    if not reason.strip():
        raise TrainerError("a regrade needs a reason (what was corrected)", field="reason")
    return grading_request_batch(
        attempts=attempts,
        trigger=RunTrigger.REGRADE,
        reason=reason.strip(),
        requested_by=requested_by,
    )
