"""Certification evidence: the figures of a trainee's graded exam sittings that a
certification rests on (recorded with the signature)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Avg, Count, Q, QuerySet

from audit.selectors.graded_cache import graded_versions, per_trainee
from ledger.services.vouch_check import vouch_problems
from trainer.models import Attempt, Decision, Grade, GradingRun, GradingStatus, Mode
from trainer.selectors.runs import current_run_of, current_summaries

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.contrib.auth.models import User


@dataclass(frozen=True)
class AttemptEvidence:
    """What a certification of one exam attempt rests on (recorded with the signature)."""

    attempt_id: int
    run_id: int
    trainee_id: int
    mode: str
    passed: bool | None
    score: Decimal | None
    rounds: int
    questions: int
    correct: int
    mean_ms: float | None
    profiles: tuple[str, ...]
    graded_at: datetime | None
    # Which drill was sat, and when: what the sign-off asks of the sitting besides figures.
    drill_id: int | None = None
    submitted_at: datetime | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "attempt_id": self.attempt_id,
            "run_id": self.run_id,
            "mode": self.mode,
            "passed": self.passed,
            "score": str(self.score) if self.score is not None else None,
            "rounds": self.rounds,
            "questions": self.questions,
            "correct": self.correct,
            "mean_response_ms": round(self.mean_ms) if self.mean_ms is not None else None,
            "profiles": list(self.profiles),
            "graded_at": self.graded_at.isoformat() if self.graded_at else None,
        }


def attempt_evidence(*, attempt: Attempt) -> AttemptEvidence | None:
    """The figures of an attempt's current run, or None while it has no graded run."""
    run = current_run_of(attempt=attempt)
    if run is None:
        return None
    row = Grade.objects.filter(run=run).aggregate(
        questions=Count("id"), correct=Count("id", filter=Q(correct=True)), mean=Avg("response_ms")
    )
    profiles = (
        attempt.items.order_by().values_list("profile_version__profile__name", flat=True).distinct()
    )
    return AttemptEvidence(
        attempt_id=attempt.pk,
        run_id=run.pk,
        trainee_id=attempt.trainee_id,
        mode=attempt.mode,
        passed=run.passed,
        score=run.score,
        rounds=attempt.items.count(),
        questions=row["questions"],
        correct=row["correct"],
        mean_ms=float(row["mean"]) if row["mean"] is not None else None,
        profiles=tuple(sorted(profiles)),
        graded_at=attempt.graded_at,
        drill_id=attempt.drill_id,
        submitted_at=attempt.submitted_at,
    )


def evidence_mismatches(*, attempt: Attempt) -> list[str]:
    """Where the rows a sign-off on this attempt rests on (its result, its grading runs,
    their grades and the trainee's answers they marked) do not match what the ledger vouched
    for: each names the table and the row. Empty when they all match."""
    run_ids = list(GradingRun.objects.filter(attempt=attempt).values_list("pk", flat=True))
    # The sitting's answers as they stand, and those its grades marked: one deleted since
    # is among the latter, and is named as gone.
    decision_ids = {
        *Decision.objects.filter(item__attempt=attempt).values_list("pk", flat=True),
        *Grade.objects.filter(run__attempt=attempt, decision__isnull=False).values_list(
            "decision_id", flat=True
        ),
    }
    return [
        *vouch_problems(Attempt, [attempt.pk]),
        *vouch_problems(GradingRun, run_ids),
        *vouch_problems(Grade, run_ids),
        *vouch_problems(Decision, decision_ids),
    ]


def exam_attempts_for(*, trainee: User) -> QuerySet[Attempt]:
    """The trainee's graded exam attempts, newest first: what a certification may rest on."""
    return (
        Attempt.objects.filter(trainee=trainee, mode=Mode.EXAM, grading_status=GradingStatus.GRADED)
        .select_related("drill__certifies")
        .annotate(rounds=Count("items"))
        .order_by("-graded_at", "-pk")
    )


def exam_evidence(*, trainee_ids: Iterable[int]) -> dict[int, list[AttemptEvidence]]:
    """Each trainee's graded exam sittings, newest first, with the figures a certification
    would rest on (those of attempt_evidence, read from the current runs' summaries).

    Kept in the cache until one of the trainee's runs is graded: the figures change with
    a grading and nothing else. Whatever else a sign-off depends on (the drill sat, the
    certifications signed, the flags, the clock) the caller reads fresh. Those not cached
    are read in two queries, however many they are.
    """
    nothing: list[AttemptEvidence] = []
    found = per_trainee(
        "exam-evidence", graded_versions(sorted(set(trainee_ids))), None, _exam_evidence, nothing
    )
    return {trainee_id: rows for trainee_id, rows in found.items() if rows}


def _exam_evidence(trainee_ids: list[int]) -> dict[int, list[AttemptEvidence]]:
    sittings = Attempt.objects.filter(
        trainee_id__in=trainee_ids, mode=Mode.EXAM, grading_status=GradingStatus.GRADED
    ).annotate(rounds=Count("items"))
    attempts: dict[int, tuple[int, int, datetime | None, datetime | None, int]] = {
        pk: (trainee_id, drill_id, submitted_at, graded_at, rounds)
        for pk, trainee_id, drill_id, submitted_at, graded_at, rounds in sittings.values_list(
            "pk", "trainee_id", "drill_id", "submitted_at", "graded_at", "rounds"
        )
    }
    if not attempts:
        return {}
    found: dict[int, list[AttemptEvidence]] = {}
    summaries = current_summaries().filter(attempt_id__in=list(attempts))
    for (
        attempt_id,
        run_id,
        passed,
        score,
        questions,
        correct,
        answered,
        total_ms,
        profiles,
    ) in summaries.values_list(
        "attempt_id",
        "run_id",
        "run__passed",
        "run__score",
        "questions",
        "correct",
        "answered",
        "response_ms_sum",
        "profiles",
    ):
        trainee_id, drill_id, submitted_at, graded_at, rounds = attempts[attempt_id]
        found.setdefault(trainee_id, []).append(
            AttemptEvidence(
                attempt_id=attempt_id,
                run_id=run_id,
                trainee_id=trainee_id,
                mode=Mode.EXAM.value,
                passed=passed,
                score=score,
                rounds=rounds,
                questions=questions,
                correct=correct,
                mean_ms=total_ms / answered if answered else None,
                profiles=tuple(sorted(_json_list(profiles))),
                graded_at=graded_at,
                drill_id=drill_id,
                submitted_at=submitted_at,
            )
        )
    for rows in found.values():
        rows.sort(key=_sat_order, reverse=True)
    return found


def _sat_order(evidence: AttemptEvidence) -> tuple[float, int]:
    when = evidence.submitted_at or evidence.graded_at
    return (when.timestamp() if when else 0.0, evidence.attempt_id)


def _json_list(value: Any) -> list[str]:
    decoded = json.loads(value) if isinstance(value, str) else value
    return [str(item) for item in decoded or []]
