"""Graded attempts whose every round is a real engine round (so the drill-down draws a
real table), and the client and the signing request the pit's tests act through: helpers
for the tests of every app (the `pit` fixture is in tests/conftest.py)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.test import Client, RequestFactory
from django.utils import timezone

from tests.audit.factories import profile_version
from tests.vouching import vouch_rows
from trainer import rules
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    Grade,
    GradingRun,
    GradingStatus,
    Mode,
    RunStatus,
    RunTrigger,
)
from trainer.services.run_summaries import run_summary_build

# A two-box round under casino-shoe: box 1 a natural (pays 15.00 on 10), box 2 loses 25.
ROUND = {
    "format": "blackjack-scenario/1",
    "id": "pit-round",
    "rules": "casino-shoe",
    "boxes": [
        {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": []},
        {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "actions": ["stand"]},
    ],
    "shoe": ["As", "Th", "6d", "Kc", "9h", "5s", "Td"],
}
KEY = rules.answer_key(ROUND)
# The question each round's single grade is about: settle p1's natural.
QUESTION = next(item for item in KEY if item["kind"] == "settle_hand" and item["player"] == "p1")


@dataclass(frozen=True)
class Answer:
    """One graded round: right, or wrong by ``money_diff`` (player's gain, signed)."""

    correct: bool = True
    money_diff: Decimal = Decimal("0.00")
    category: str = ""
    response_ms: int | None = 3000

    @property
    def given(self) -> dict[str, str] | None:
        if self.response_ms is None:
            return None
        return {"action": "pay", "amount": str(Decimal("15.00") + self.money_diff)}


RIGHT = Answer()


def wrong(diff: str, *, ms: int = 3000) -> Answer:
    value = Decimal(diff)
    return Answer(False, value, "overpay" if value > 0 else "underpay", ms)


def make_attempt(
    *,
    trainee,
    answers: Sequence[Answer],
    mode: str = Mode.EXAM,
    submitted_at: dt.datetime | None = None,
    profile: str = "casino-shoe",
    skills: Sequence[str] = ("natural-3to2",),
    runs: Sequence[Sequence[Answer]] = (),
    drill: Drill | None = None,
) -> Attempt:
    """A submitted, graded attempt of one round per answer; ``runs`` adds regrades. Its
    rounds are dealt under ``drill``'s profile when a drill is given (a table test, say)."""
    when = submitted_at or timezone.now()
    if drill is None:
        version = profile_version(profile)
        drill = Drill.objects.create(
            title=f"{mode} drill", kind="generated", profile_version=version
        )
    else:
        version = drill.profile_version or profile_version(profile)
    attempt = Attempt.objects.create(
        trainee=trainee,
        drill=drill,
        mode=mode,
        status=AttemptStatus.SUBMITTED,
        grading_status=GradingStatus.GRADED,
        submitted_at=when,
        graded_at=when,
    )
    document = {**ROUND, "skills": list(skills)}
    items, decisions = [], []
    for position, answer in enumerate(answers, start=1):
        item = AttemptItem.objects.create(
            attempt=attempt,
            position=position,
            profile_version=version,
            document=document,
            answer_key=KEY,
            completed_at=when,
            # An answered question was shown first (a review needs it shown).
            questions_shown=(
                {str(QUESTION["n"]): when.isoformat()} if answer.response_ms is not None else {}
            ),
        )
        items.append(item)
        decision = None
        if answer.response_ms is not None:
            decision = Decision.objects.create(
                item=item,
                question=QUESTION["n"],
                kind=QUESTION["kind"],
                answer=answer.given,
                shown=QUESTION["view"],
                shown_at=when - dt.timedelta(milliseconds=answer.response_ms),
                answered_at=when,
                response_ms=answer.response_ms,
            )
        decisions.append(decision)
    for number, graded in enumerate([answers, *runs], start=1):
        right = sum(a.correct for a in graded)
        score = (Decimal(100) * right / len(graded)).quantize(Decimal("0.01"))
        run = GradingRun.objects.create(
            attempt=attempt,
            number=number,
            trigger=RunTrigger.SUBMIT if number == 1 else RunTrigger.REGRADE,
            status=RunStatus.GRADED,
            questions=len(graded),
            correct=right,
            score=score,
            passed=score >= drill.pass_mark,
        )
        Grade.objects.bulk_create(
            Grade(
                run=run,
                item=item,
                question=QUESTION["n"],
                decision=decision,
                kind=QUESTION["kind"],
                correct=answer.correct,
                expected=QUESTION["expected"],
                given=answer.given,
                money_diff=answer.money_diff,
                category=answer.category,
                rule=QUESTION["rule"],
                response_ms=answer.response_ms,
            )
            for item, decision, answer in zip(items, decisions, graded, strict=True)
        )
        # Graded outside the grading service: write the summary it would have written.
        run_summary_build(run=run).save()
        Attempt.objects.filter(pk=attempt.pk).update(score=score, passed=run.passed)
    # Graded outside the grading service: vouched for as the backfill vouches for old rows.
    vouch_rows()
    attempt.refresh_from_db()
    return attempt


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def signing_request(address: str = "127.0.0.1"):
    """The request a sign-off service is given: where the password was entered from."""
    return RequestFactory().post("/pit/", REMOTE_ADDR=address)


def poll(read, until, seconds: float = 90.0):
    """The first value ``read()`` gives that satisfies ``until`` (a worker grading, a page
    catching up), read every 0.2 s; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if until(value):
            return value
        assert time.monotonic() < deadline, f"still {value} after {seconds} s"
        time.sleep(0.2)
