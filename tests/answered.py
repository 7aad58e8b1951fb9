"""Attempts to grade: real rounds played by the engine, answered right or wrong (helpers
for the tests of every app; the grading tests' fixture is in tests/grading/conftest.py)."""

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils import timezone

from tests.vouching import vouch_decisions
from trainer import rules
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    Mode,
    RuleProfile,
    RuleProfileVersion,
)

# The dealer's 6 and ace make a soft 17: casino-shoe hits it (a push at 19), a
# stands-on-17 correction pays the player's 19.
SOFT_17 = {
    "format": "blackjack-scenario/1",
    "id": "soft-17",
    "rules": "casino-shoe",
    "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["stand"]}],
    "shoe": ["Ts", "6h", "9d", "Ac", "2c", "5d", "5s"],
}
# Player 19 against the dealer's hard 17: the player is paid 10.
PLAYER_WINS = {
    "format": "blackjack-scenario/1",
    "id": "player-wins",
    "rules": "casino-shoe",
    "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["stand"]}],
    "shoe": ["Ts", "9h", "9d", "8c", "5d"],
}

Answer = Callable[[Mapping[str, Any]], Any]


def right(item: Mapping[str, Any]) -> Any:
    return dict(item["expected"])


def casino_shoe() -> RuleProfileVersion:
    """casino-shoe v1, as migration 0003 loads it (transactional tests flush that data)."""
    profile, _ = RuleProfile.objects.get_or_create(name="casino-shoe")
    engine = rules.PROFILES["casino-shoe"]
    version, _ = RuleProfileVersion.objects.get_or_create(
        profile=profile,
        version=1,
        defaults={"parameters": rules.profile_to_dict(engine), "source": engine.source},
    )
    return version


def make_attempt(
    trainee: Any,
    documents: Sequence[Mapping[str, Any]] = (PLAYER_WINS, SOFT_17),
    *,
    answer: Answer | None = right,
    drill: Drill | None = None,
    version: RuleProfileVersion | None = None,
    submitted: bool = True,
    pass_mark: Decimal = Decimal("95.00"),
) -> Attempt:
    """A submitted attempt whose every question was answered by `answer` (None: skipped)."""
    version = version or casino_shoe()
    drill = drill or Drill.objects.create(title="Grading drill", pass_mark=pass_mark)
    now = timezone.now()
    attempt = Attempt.objects.create(
        trainee=trainee,
        drill=drill,
        mode=Mode.EXAM,
        status=AttemptStatus.SUBMITTED if submitted else AttemptStatus.IN_PROGRESS,
        submitted_at=now if submitted else None,
    )
    for position, document in enumerate(documents, start=1):
        key = rules.answer_key(document)
        item = AttemptItem.objects.create(
            attempt=attempt,
            position=position,
            profile_version=version,
            document=document,
            answer_key=key,
        )
        for question in key:
            given = answer(question) if answer else None
            if given is None:
                continue
            Decision.objects.create(
                item=item,
                question=question["n"],
                kind=question["kind"],
                answer=given,
                shown=question["view"],
                shown_at=now,
                answered_at=now,
                response_ms=1500,
            )
    # Answered outside the answer service: vouched for as the backfill vouches for old rows.
    vouch_decisions([attempt])
    return attempt


def make_attempts(
    trainee: Any, count: int, documents: Sequence[Mapping[str, Any]]
) -> list[Attempt]:
    """`count` submitted attempts answered right, written in bulk (for the large batches)."""
    version = casino_shoe()
    drill = Drill.objects.create(title="Large batch")
    keys = [rules.answer_key(document) for document in documents]
    now = timezone.now()
    attempts = Attempt.objects.bulk_create(
        Attempt(
            trainee=trainee,
            drill=drill,
            mode=Mode.EXAM,
            status=AttemptStatus.SUBMITTED,
            submitted_at=now,
        )
        for _ in range(count)
    )
    items = AttemptItem.objects.bulk_create(
        AttemptItem(
            attempt=attempt,
            position=position,
            profile_version=version,
            document=document,
            answer_key=key,
        )
        for attempt in attempts
        for position, (document, key) in enumerate(zip(documents, keys, strict=True), start=1)
    )
    Decision.objects.bulk_create(
        (
            Decision(
                item=item,
                question=question["n"],
                kind=question["kind"],
                answer=question["expected"],
                shown_at=now,
                answered_at=now,
                response_ms=1500,
            )
            for item in items
            for question in item.answer_key
        ),
        batch_size=2000,
    )
    vouch_decisions(attempts)
    return attempts
