"""Give the demo trainee a graded history, so the demo pit boss has mistakes to review.

Development only, and idempotent: it does nothing once the demo trainee has graded
attempts. Every answer goes through the trainee's real services (start, show, answer,
submit) and is graded synchronously by the grading service, so the ledger, the grades and
the dashboard are exactly what a real trainee would have produced.
"""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    Drill,
    DrillKind,
    GradingStatus,
    Mode,
    RuleProfileVersion,
    TrainingClass,
)
from trainer.selectors.stats import current_run_of
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading import grading_run_execute

TRAINEE, PIT_BOSS = "trainee", "pitboss"
CLASS_NAME = "Demo class"
# (title, mode, rounds, chance of a right answer, skills)
HISTORY = [
    ("Demo history: naturals", Mode.PRACTICE, 8, 0.80, ["natural-3to2", "rounding"]),
    ("Demo history: the dealer's hand", Mode.PRACTICE, 8, 0.85, ["dealer-bust", "soft-17"]),
    ("Demo history: mixed exam", Mode.EXAM, 12, 0.85, ["push", "player-bust", "natural-3to2"]),
    # Long and careful enough to meet the certification rule, so the sign-off can be tried.
    ("Demo history: certification exam", Mode.EXAM, 50, 1.0, ["dealer-bust", "push"]),
]


class Command(BaseCommand):
    help = "Give the demo trainee graded attempts with some mistakes (development only)."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.ENVIRONMENT != "development":
            raise CommandError(
                f"demo history is made only in development, not in {settings.ENVIRONMENT}"
            )
        users = get_user_model().objects
        trainee = users.filter(username=TRAINEE).first()
        boss = users.filter(username=PIT_BOSS).first()
        if trainee is None or boss is None:
            raise CommandError("run `manage.py setup_demo` first: the demo accounts are missing")
        if Attempt.objects.filter(trainee=trainee, grading_status=GradingStatus.GRADED).exists():
            self.stdout.write("The demo trainee already has a graded history: nothing to do.")
            return
        version = RuleProfileVersion.objects.filter(profile__name="casino-shoe").latest("version")
        with transaction.atomic():
            training_class = (
                TrainingClass.objects.filter(instructors=boss, trainees=trainee).first()
                or TrainingClass.objects.get_or_create(name=CLASS_NAME)[0]
            )
            training_class.instructors.add(boss)
            training_class.trainees.add(trainee)
        rng = random.Random(2026)  # noqa: S311 - the same demo every time, not a secret
        for title, mode, rounds, right, skills in HISTORY:
            drill, _ = Drill.objects.get_or_create(
                title=title,
                defaults={
                    "kind": DrillKind.GENERATED,
                    "purpose": "exam" if mode == Mode.EXAM else "practice",
                    "profile_version": version,
                    "skills": skills,
                    "count": rounds,
                    "max_boxes": 2,
                },
            )
            assignment = None
            if mode != Mode.PRACTICE:
                assignment, _ = Assignment.objects.get_or_create(
                    drill=drill, mode=mode, trainee=trainee, defaults={"assigned_by": boss}
                )
            attempt = attempt_start(
                trainee=trainee,
                drill=drill,
                mode=mode,
                assignment=assignment,
                seed=rng.randrange(2**31),
            )
            answered = self._play(attempt, trainee, rng, right)
            attempt = attempt_submit(attempt=attempt, user=trainee)
            run = attempt.grading_runs.order_by("-number").first()
            if run is not None:
                grading_run_execute(run_id=run.pk)
            current = current_run_of(attempt=attempt)
            score = current.score if current else None
            self.stdout.write(f"  {title}: {answered} answers, score {score}%")
        self.stdout.write(
            f"The demo trainee has a graded history; log in as {PIT_BOSS} to review it."
        )

    def _play(self, attempt: Attempt, trainee: Any, rng: random.Random, right: float) -> int:
        answered = 0
        while (question := attempt_question_show(attempt=attempt, user=trainee)) is not None:
            position, n = question["position"], question["n"]
            item = AttemptItem.objects.get(attempt=attempt, position=position)
            key = next(k for k in item.answer_key if k["n"] == n)
            # A human takes seconds to answer; the question was shown that long ago.
            shown = timezone.now() - timedelta(milliseconds=rng.randint(1500, 12000))
            item.questions_shown = {**item.questions_shown, str(n): shown.isoformat()}
            item.save(update_fields=["questions_shown"])
            answer = key["expected"] if rng.random() < right else _slip(key, rng)
            decision_record(
                attempt=attempt, user=trainee, position=position, question=n, answer=answer
            )
            answered += 1
        return answered


def _slip(key: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plausible dealer's mistake for this question."""
    expected = key["expected"]
    if "action" not in expected:
        wrong = {"hit": "stand", "stand": "hit", "offer": "no_offer", "no_offer": "offer"}
        wrong |= {"peek": "no_peek", "reshuffle": "continue", "continue": "reshuffle"}
        slip = {"answer": wrong.get(expected["answer"], expected["answer"])}
        if "dealer_blackjack" in expected:
            slip["dealer_blackjack"] = not expected["dealer_blackjack"]
        return slip
    amount = Decimal(expected["amount"])
    if expected["action"] == "push" or amount == 0:
        return {"action": "take", "amount": "5.00"}
    off = Decimal(rng.choice(["0.50", "1.00", "2.50", "5.00"]))
    changed = amount + off if rng.random() < 0.5 else max(amount - off, Decimal("0.50"))
    return {"action": expected["action"], "amount": str(changed.quantize(Decimal("0.01")))}
