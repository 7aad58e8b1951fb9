"""The trainer's rows the ledger vouches for (ledger.services.vouch): a grading run's grades,
the run's result and the attempt's copy of it. TrainerConfig.ready registers them.

Grading writes all three, in the transaction that appends the run's
`grading_run.finished` entry, whose payload carries their digests (computed from the values
written, not read back: grades are written by the thousand with COPY).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.events import Subject
from ledger.services.vouch import Vouched, group_digest, row_digest
from trainer.models import Attempt, Grade, GradingRun, RunStatus

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
    model=GradingRun, fields=RUN_FIELDS, subject_type=Subject.GRADING_RUN, needs=_run_finished
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
SPECS = (GRADES, RUNS, ATTEMPTS)


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
