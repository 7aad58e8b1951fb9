"""An assignment's sittings as its trainee sees them: how many are used and left, when the
next may start, and the one refusal that stops a start, in the words the start service,
My training, the briefing and the API all give (issue #24).

Also the exam's briefing: what a sitting is (rounds, time a question, time box, sittings,
cool-down, pass mark) and what a pass counts for, stated before it starts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Protocol

from django.utils import timezone
from django.utils.formats import date_format

from trainer.models import Assignment, Attempt, DrillKind, DrillPurpose, Mode
from trainer.selectors.pools import is_pool


def when_text(moment: datetime) -> str:
    """A moment in the house's time zone, as a floor reads it: "Fri 27 Nov 2026, 14:05 UTC"."""
    local = timezone.localtime(moment)
    return f"{date_format(local, 'D j M Y, H:i')} {local.strftime('%Z')}"


def duration_text(seconds: int) -> str:
    """Seconds in words: "45 seconds", "1 minute 30 seconds", "2 hours"."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{n} {unit}{'' if n == 1 else 's'}"
        for n, unit in ((hours, "hour"), (minutes, "minute"), (secs, "second"))
        if n
    ]
    return " ".join(parts) or "0 seconds"


@dataclass(frozen=True)
class SittingState:
    """Where a trainee stands with an assignment's sittings, now."""

    taken: int
    allowed: int | None  # None: no limit
    cooldown_hours: int
    due_at: datetime | None
    next_open: datetime | None  # the cool-down's end, while it runs
    # The refusal a start meets now: (code, message), or None when a sitting may start.
    refusal: tuple[str, str] | None

    @property
    def left(self) -> int | None:
        return None if self.allowed is None else max(0, self.allowed - self.taken)

    @property
    def may_start(self) -> bool:
        return self.refusal is None


class Sitting(Protocol):
    """An attempt as the sitting rules read it (an Attempt, or the start's lighter row)."""

    @property
    def submitted_at(self) -> datetime | None: ...


def sitting_state_of(
    assignment: Assignment, attempts: Iterable[Sitting], *, now: datetime | None = None
) -> SittingState:
    """The state from the trainee's attempts at the assignment (already read: no query)."""
    now = now or timezone.now()
    mine = list(attempts)
    taken = len(mine)
    ended = [a.submitted_at for a in mine if a.submitted_at is not None]
    next_open = None
    if ended and assignment.cooldown_hours:
        ready = max(ended) + timedelta(hours=assignment.cooldown_hours)
        next_open = ready if now < ready else None
    refusal: tuple[str, str] | None = None
    if assignment.due_at is not None and now > assignment.due_at:
        refusal = (
            "past_due",
            f"this assignment was due {when_text(assignment.due_at)}: "
            "ask your pit boss for a new one",
        )
    elif assignment.max_sittings is not None and taken >= assignment.max_sittings:
        refusal = (
            "no_sittings_left",
            f"you have sat this {taken} time{'' if taken == 1 else 's'}, the most this "
            "assignment allows: ask your pit boss for another sitting",
        )
    elif next_open is not None:
        refusal = (
            "cooling_down",
            f"the next sitting may start from {when_text(next_open)} "
            f"({assignment.cooldown_hours} h after the last one ended)",
        )
    return SittingState(
        taken=taken,
        allowed=assignment.max_sittings,
        cooldown_hours=assignment.cooldown_hours or 0,
        due_at=assignment.due_at,
        next_open=next_open,
        refusal=refusal,
    )


def sitting_state(*, assignment: Assignment, trainee_id: int) -> SittingState:
    """The state read from the database (the start service's check, the briefing)."""
    attempts = Attempt.objects.filter(assignment=assignment, trainee_id=trainee_id).only(
        "pk", "submitted_at", "assignment_id"
    )
    return sitting_state_of(assignment, attempts)


def needs_briefing(assignment: Assignment | None, *, mode: str) -> bool:
    """Whether a start from the trainee's pages must come through the briefing: an exam or a
    table test (a sitting that counts), and a speed round (its time box runs at once)."""
    if assignment is None:
        return False
    return mode in (Mode.EXAM, Mode.SPEED) or assignment.drill.purpose == DrillPurpose.EXAM


@dataclass(frozen=True)
class Briefing:
    """What the trainee reads before a sitting starts."""

    assignment: Assignment
    kind: str  # "table test", "exam", "speed round", "practice"
    rounds: int
    question_time: str
    time_box: str | None
    pass_mark: Decimal
    state: SittingState
    counts_for: str
    pool: bool


def briefing_of(*, assignment: Assignment, trainee_id: int) -> Briefing:
    drill = assignment.drill
    sealed = drill.purpose == DrillPurpose.EXAM
    timed = sealed or assignment.mode == Mode.SPEED
    table = drill.certifies
    if table is not None:
        kind = "table test"
        counts_for = (
            f"A pass here is the table test for {drill.game} on the "
            f"{table.title or table.name} table; it goes in your personnel file, and once "
            "your pit boss signs it off it certifies you to deal at that table. A sitting "
            "that is not passed goes in your personnel file too."
        )
    elif sealed or assignment.mode == Mode.EXAM:
        kind = "exam"
        counts_for = (
            "A pass here is recorded in your training record as this exam passed; it does "
            "not certify you for a table. A sitting that is not passed is recorded too."
        )
    elif assignment.mode == Mode.SPEED:
        kind = "speed round"
        counts_for = (
            "Your score and your times go in your training record; a speed round certifies nothing."
        )
    else:
        kind = "practice"
        counts_for = "Practice: you see how each round went as you go; it certifies nothing."
    return Briefing(
        assignment=assignment,
        kind=kind,
        rounds=drill.drill_scenarios.count()
        if drill.kind == DrillKind.FIXED and not is_pool(drill)
        else drill.count,
        question_time=duration_text(drill.time_limit_seconds),
        time_box=duration_text(drill.time_box_seconds) if timed else None,
        pass_mark=drill.pass_mark,
        state=sitting_state(assignment=assignment, trainee_id=trainee_id),
        counts_for=counts_for,
        pool=is_pool(drill),
    )
