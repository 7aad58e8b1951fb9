"""Graded attempts built straight from the models, for the audit side's tests (and anyone's).

`graded_attempt` makes one submitted attempt of one round whose questions were answered and
graded as told: each `GradeSpec` is one question's outcome.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import factory
from django.utils import timezone

from tests.factories import profile_version
from tests.vouching import vouch_rows
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    DrillKind,
    DrillPurpose,
    Grade,
    GradingRun,
    GradingStatus,
    Mode,
    RunStatus,
    RunTrigger,
    TrainingClass,
)
from trainer.selectors.blueprints import TABLE_TEST_MIN_ROUNDS, table_test_skills
from trainer.services.run_summaries import run_summary_build


class DrillFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Drill

    title = factory.Sequence(lambda n: f"Drill {n}")
    kind = "generated"
    profile_version = factory.LazyFunction(profile_version)
    count = 1


def table_test(profile: str = "casino-shoe", **changes) -> Drill:
    """A sealed exam that is ``profile``'s table test, as trainer.services.drills'
    table_test_create makes it (without needing its author); ``changes`` alter it."""
    version = profile_version(profile)
    minimums = table_test_skills(version)
    fields = {
        "title": f"Table test: {version.profile.title or profile}",
        "kind": DrillKind.GENERATED,
        "purpose": DrillPurpose.EXAM,
        "certifies": version.profile,
        "profile_version": version,
        "skills": list(minimums),
        "skill_minimums": minimums,
        "count": TABLE_TEST_MIN_ROUNDS,
    }
    return Drill.objects.create(**{**fields, **changes})


class TrainingClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TrainingClass
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Class {n}")

    @factory.post_generation
    def trainees(self, create, extracted, **kwargs):
        if create and extracted:
            self.trainees.add(*extracted)

    @factory.post_generation
    def instructors(self, create, extracted, **kwargs):
        if create and extracted:
            self.instructors.add(*extracted)


@dataclass(frozen=True)
class GradeSpec:
    """One graded question: right, or wrong with a category and a signed money difference."""

    correct: bool = True
    category: str = ""
    money_diff: Decimal = Decimal("0.00")
    answered: bool = True
    kind: str = "settle_hand"


RIGHT = GradeSpec()


def overpay(amount: str) -> GradeSpec:
    return GradeSpec(False, "overpay", Decimal(amount))


def underpay(amount: str) -> GradeSpec:
    return GradeSpec(False, "underpay", -Decimal(amount))


def graded_attempt(
    *,
    trainee,
    grades: Sequence[GradeSpec] = (RIGHT,),
    submitted_at: dt.datetime | None = None,
    mode: str = Mode.EXAM,
    drill: Drill | None = None,
    runs: int = 1,
) -> Attempt:
    """A submitted attempt of one round, graded `runs` times with the same grades each time."""
    submitted_at = submitted_at or timezone.now()
    if drill is None:
        drill = Drill.objects.create(
            title=f"Exam drill for {trainee}", kind="generated", profile_version=profile_version()
        )
    version = drill.profile_version or profile_version()
    right = sum(1 for spec in grades if spec.correct)
    score = (Decimal(100) * right / len(grades)).quantize(Decimal("0.01")) if grades else None
    attempt = Attempt.objects.create(
        trainee=trainee,
        drill=drill,
        mode=mode,
        seed=1,
        status=AttemptStatus.SUBMITTED,
        grading_status=GradingStatus.GRADED,
        submitted_at=submitted_at,
        grading_queued_at=submitted_at,
        score=score,
        passed=score is not None and score >= drill.pass_mark,
        graded_at=submitted_at,
    )
    Attempt.objects.filter(pk=attempt.pk).update(started_at=submitted_at - dt.timedelta(minutes=5))
    item = AttemptItem.objects.create(
        attempt=attempt,
        position=1,
        profile_version=version,
        document={"format": "blackjack-scenario/1", "id": f"round-{attempt.pk}"},
        answer_key=[
            {"n": n, "kind": spec.kind, "expected": {"action": "pay", "amount": "10.00"}}
            for n, spec in enumerate(grades, start=1)
        ],
        shown_at=submitted_at,
        completed_at=submitted_at,
        # An answered question was shown first (a review needs it shown).
        questions_shown={
            str(n): submitted_at.isoformat()
            for n, spec in enumerate(grades, start=1)
            if spec.answered
        },
    )
    decisions: dict[int, Decision] = {}
    for n, spec in enumerate(grades, start=1):
        if spec.answered:
            decisions[n] = Decision.objects.create(
                item=item,
                question=n,
                kind=spec.kind,
                answer={"action": "pay", "amount": str(Decimal("10.00") + spec.money_diff)},
                shown_at=submitted_at - dt.timedelta(seconds=3),
                answered_at=submitted_at,
                response_ms=3000,
            )
    for number in range(1, runs + 1):
        run = GradingRun.objects.create(
            attempt=attempt,
            number=number,
            trigger=RunTrigger.SUBMIT if number == 1 else RunTrigger.REGRADE,
            status=RunStatus.GRADED,
            started_at=submitted_at,
            finished_at=submitted_at,
            questions=len(grades),
            correct=right,
            score=score,
            passed=attempt.passed,
            overpaid=sum((s.money_diff for s in grades if s.money_diff > 0), Decimal("0.00")),
            underpaid=-sum((s.money_diff for s in grades if s.money_diff < 0), Decimal("0.00")),
        )
        Grade.objects.bulk_create(
            Grade(
                run=run,
                item=item,
                question=n,
                decision=decisions.get(n),
                kind=spec.kind,
                correct=spec.correct,
                expected={"action": "pay", "amount": "10.00"},
                given=decisions[n].answer if n in decisions else None,
                money_diff=spec.money_diff,
                category=spec.category,
                response_ms=3000 if n in decisions else None,
            )
            for n, spec in enumerate(grades, start=1)
        )
        # Graded outside the grading service: write the summary it would have written.
        run_summary_build(run=run).save()
    # Graded outside the grading service: vouched for as the backfill vouches for old rows.
    vouch_rows()
    attempt.refresh_from_db()
    return attempt
