"""The trainer's rows the ledger vouches for (ledger.services.vouch): the trainee's decisions,
a grading run's grades, the run's result and the attempt's copy of it. TrainerConfig.ready
registers them.

Grading writes the last three, in the transaction that appends the run's
`grading_run.finished` entry, whose payload carries their digests (computed from the values
written, not read back: grades are written by the thousand with COPY). A decision's digest
goes in its own `decision.recorded` entry, computed from the values just inserted: the
answer is the busiest request, and reading the row back would cost it a query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ledger.events import Subject
from ledger.services.vouch import Vouched, group_digest, row_digest
from trainer.models import Attempt, Decision, Grade, GradingRun, RunStatus

# A grade as the pages, the reports and a sign-off read it; every grade of a run is hashed
# together (one digest a run, in the run's entry).
GRADE_FIELDS = (
    "item_id",
    "question",
    "decision_id",
    "kind",
    "correct",
    "expected",
    "given",
    "money_diff",
    "category",
    "rule",
    "response_ms",
)
# Added later (a game counting points, #25): hashed only where a grade has a value.
GRADE_LATER = ("points_diff",)
RUN_FIELDS = (
    "attempt_id",
    "number",
    "trigger",
    "status",
    "error",
    "questions",
    "correct",
    "score",
    "passed",
    "overpaid",
    "underpaid",
)
ATTEMPT_FIELDS = ("trainee_id", "drill_id", "mode", "score", "passed")
# A decision as grading marks it and a reviewer reads it: which question of which round,
# the answer, what the table showed, when it was shown and answered, and the limit it was
# timed against. Left out: `created_at`, the database's own clock on the insert, which no
# grade, page or report reads (`answered_at` is the answer's time).
DECISION_FIELDS = (
    "item_id",
    "question",
    "kind",
    "answer",
    "shown",
    "shown_at",
    "answered_at",
    "response_ms",
    "time_limit_ms",
    "late",
)
_JSON_FIELDS = ("answer", "shown")
_FINISHED = (RunStatus.GRADED.value, RunStatus.FAILED.value)


def _run_finished(values: tuple[Any, ...]) -> bool:
    return values[RUN_FIELDS.index("status")] in _FINISHED


def _attempt_graded(values: tuple[Any, ...]) -> bool:
    return values[3] is not None or values[4] is not None


def _attempt_runs(keys: Sequence[str]) -> dict[str, list[str]]:
    """An attempt's result is vouched by one of its runs' entries (the newest graded run's,
    which set it): every run of the attempt, oldest first."""
    runs: dict[str, list[str]] = {}
    for start in range(0, len(keys), 1000):
        for attempt_id, run_id in (
            GradingRun.objects.filter(attempt_id__in=list(keys[start : start + 1000]))
            .order_by("attempt_id", "number")
            .values_list("attempt_id", "pk")
        ):
            runs.setdefault(str(attempt_id), []).append(str(run_id))
    return runs


def _decision_subjects(keys: Sequence[str]) -> dict[str, list[str]]:
    """A decision is vouched by its own `decision.recorded` entry; one from before vouching,
    by its sitting's backfill entry (one per sitting, not one per decision: a house holds
    millions of them), named last."""
    subjects: dict[str, list[str]] = {}
    for start in range(0, len(keys), 1000):
        for pk, attempt_id in Decision.objects.filter(
            pk__in=list(keys[start : start + 1000])
        ).values_list("pk", "item__attempt_id"):
            subjects[str(pk)] = [str(pk), str(attempt_id)]
    return subjects


DECISIONS = Vouched(
    model=Decision,
    fields=DECISION_FIELDS,
    subject_type=Subject.DECISION,
    noun="answer",
    plural="answers",
    subjects=_decision_subjects,
    backfill_subject=Subject.ATTEMPT,
)
GRADES = Vouched(
    model=Grade,
    fields=GRADE_FIELDS,
    subject_type=Subject.GRADING_RUN,
    noun="grading run",
    plural="grades",
    group="run_id",
    later=GRADE_LATER,
)
RUNS = Vouched(
    model=GradingRun,
    fields=RUN_FIELDS,
    subject_type=Subject.GRADING_RUN,
    noun="grading run",
    plural="grading runs",
    needs=_run_finished,
)
ATTEMPTS = Vouched(
    model=Attempt,
    fields=ATTEMPT_FIELDS,
    subject_type=Subject.GRADING_RUN,
    noun="the result of sitting",
    plural="sittings' results",
    needs=_attempt_graded,
    subjects=_attempt_runs,
)
SPECS = (GRADES, RUNS, ATTEMPTS, DECISIONS)


def grades_vouch(run_id: int, grades: Sequence[Any]) -> tuple[str, str]:
    """The key and digest of a run's grades, from the rows grading writes (named tuples
    with the GRADE_FIELDS and GRADE_LATER)."""
    return GRADES.key(run_id), group_digest(
        [GRADES.hashed([getattr(g, f) for f in (*GRADE_FIELDS, *GRADE_LATER)]) for g in grades]
    )


def run_vouch(run: GradingRun) -> tuple[str, str]:
    return RUNS.key(run.pk), row_digest([getattr(run, f) for f in RUN_FIELDS])


def attempt_vouch(attempt: Attempt, *, score: Any, passed: Any) -> tuple[str, str]:
    values = {"trainee_id": attempt.trainee_id, "drill_id": attempt.drill_id, "mode": attempt.mode}
    values.update(score=score, passed=passed)
    return ATTEMPTS.key(attempt.pk), row_digest([values[f] for f in ATTEMPT_FIELDS])


def decision_vouch(decision: Decision) -> tuple[str, str]:
    """The key and digest of a decision just inserted, from the values it was written with
    (the database holds the times to the microsecond). The answer and what was shown are
    hashed as the database gives them back: a JSON object's keys are text there (a game's
    view keyed by number would sort otherwise)."""
    values = [getattr(decision, f) for f in DECISION_FIELDS]
    for name in _JSON_FIELDS:
        at = DECISION_FIELDS.index(name)
        values[at] = json.loads(json.dumps(values[at]))
    return DECISIONS.key(decision.pk), row_digest(values)
