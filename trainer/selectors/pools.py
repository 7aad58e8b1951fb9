"""Fixed exam pools that cannot be replayed: how large a pool must be, which of its rounds a
sitting draws, and when its expected answers may be shown.

A fixed exam (``Drill.kind = fixed``, ``purpose = exam``) is a *pool* of library scenarios;
each sitting draws ``Drill.count`` of them. Three rules keep a pool from being learnt by
heart (issue #23, finding 3; docs/security.md, *Exams that cannot be replayed*):

1. **Size.** The pool holds at least ``POOL_FACTOR`` (5) times the rounds of a sitting,
   counted as different scenarios. Why five:

   - with draws without replacement (rule 2) a trainee sits five times before any round
     can come back, more than an exam assignment usually allows (3 in the demo, 24 h
     apart);
   - a classmate's sitting is a random fifth of the pool, so it shares on average a fifth
     of your rounds (``count / 5``). Even knowing the answers of all of those, a trainee
     who gets a fifth of the rest right (the 20.83 % of the replay attack) scores
     0.2 + 0.8 x 0.21 = 37 %, far from a 95 % pass mark; covering 90 % of the pool takes
     about ten classmates' sittings (1 - 0.8 ** 10 = 0.89), not one;
   - two independent sittings of a pool of ``count + 1`` share all but one round; at
     twice the sitting they share half, at five times a fifth. Five keeps pools buildable
     from the library (a 20-round sitting needs 100 scenarios; the library has over 120
     easy ones) while the expected overlap stays small.

2. **Draws without replacement.** A sitting draws only rounds the trainee has not been
   dealt before in any sitting of this drill: a round counts as dealt once any of its
   questions was shown, or while its sitting is still open. When fewer unseen rounds are
   left than a sitting needs, the sitting is refused (``pool_exhausted``): dealing a round
   again would let a trainee who was told "wrong" answer it the other way. The pit boss
   gives another exam (a new pool).

3. **Sealed results while the pool is open.** Results, feedback and My record show right
   or wrong, the rule and the trainee's own answer, never the expected answer (nor the
   money difference or the kind of mistake, which would give it away), until the pool
   closes for everyone: every assignment of the drill is cancelled or past its due date,
   or the drill is retired. An assignment without a due date keeps the pool open until
   it is cancelled. A closed pool that was sat stays closed: it cannot be assigned again,
   nor an assignment's due date moved back into the future (``pool_reopen_check``).

4. **Dealt nowhere else.** A pool's rounds are library scenarios; a practice drill dealing
   one shows its expected answer after the round. So no other active drill deals a round
   of a pool: a pool of rounds another drill deals is refused (``pool_shared``), a drill
   with a round of an active pool is refused (``in_pool``), and a pool made before the
   rule that shares a round cannot be sat until rebuilt (``pool_shared``). A retired pool's
   rounds are free again (its answers were shown when it closed).

Pit bosses and compliance read the expected answers on their own pages at any time (an
account holding one of those roles cannot sit a pool: ``pool_readable``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from core.errors import ConflictError
from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    AttemptStatus,
    Drill,
    DrillKind,
    DrillPurpose,
)

POOL_FACTOR = 5


def is_pool(drill: Drill) -> bool:
    """Whether the drill is a fixed exam pool (each sitting draws from its scenarios)."""
    return drill.kind == DrillKind.FIXED and drill.purpose == DrillPurpose.EXAM


def pool_minimum(count: int) -> int:
    """The fewest different scenarios a pool dealing ``count`` rounds a sitting must hold."""
    return POOL_FACTOR * count


def pool_size_problem(*, title: str, pool: int, count: int) -> str | None:
    """Why a pool of ``pool`` scenarios cannot deal sittings of ``count``, or None."""
    least = pool_minimum(count)
    if pool >= least:
        return None
    most = pool // POOL_FACTOR
    fewer = f"or deal at most {most} a sitting" if most else "or add scenarios"
    return (
        f"the pool of '{title}' holds {pool} different scenario{'s' if pool != 1 else ''}; "
        f"sittings of {count} need at least {least} ({POOL_FACTOR} times the sitting, so "
        f"that no trainee is dealt a round twice and a classmate's sitting shares only a "
        f"fifth of yours): add scenarios, {fewer}"
    )


def pool_rounds_dealt(*, trainee_id: int, drill: Drill) -> set[int]:
    """The pool's scenarios this trainee was dealt: a question of the round was shown, or
    its sitting is still open (its rounds may yet be shown)."""
    return set(
        AttemptItem.objects.filter(
            attempt__trainee_id=trainee_id, attempt__drill=drill, scenario__isnull=False
        )
        .filter(Q(shown_at__isnull=False) | Q(attempt__status=AttemptStatus.IN_PROGRESS))
        .values_list("scenario_id", flat=True)
    )


def pool_draw(*, pool: Sequence[int], dealt: set[int], count: int, seed: int) -> list[int]:
    """``count`` of the pool's scenario ids not in ``dealt``, in a sitting's own order.

    Deterministic: the same pool, history and seed draw the same rounds (the seed is
    recorded on the attempt and in the ledger). ConflictError ``pool_exhausted`` when
    fewer than ``count`` rounds are left unseen.
    """
    fresh = [scenario for scenario in dict.fromkeys(pool) if scenario not in dealt]
    if len(fresh) < count:
        seen = len(set(pool) & dealt)
        raise ConflictError(
            f"you have been dealt {seen} of this exam's {len(set(pool))} rounds and a "
            f"sitting needs {count} you have not seen: ask your pit boss for another exam",
            code="pool_exhausted",
        )
    draw = random.Random(seed)  # noqa: S311 - the seed is secret until recorded
    return draw.sample(fresh, count)


@dataclass(frozen=True)
class PoolState:
    """Whether a pool's expected answers are sealed, and the last due date that holds
    them (None: an assignment without a due date, open until cancelled)."""

    sealed: bool = False
    until: datetime | None = None


def _open_assignments(drill: Drill, now: datetime) -> list[Assignment]:
    return list(
        Assignment.objects.filter(drill_id=drill.pk, cancelled_at__isnull=True).filter(
            Q(due_at__isnull=True) | Q(due_at__gt=now)
        )
    )


def pool_state(*, drill: Drill) -> PoolState:
    """A pool's answers are sealed while any assignment of it can still be sat: not
    cancelled, not past its due date, the drill not retired. Other drills: never sealed."""
    if not is_pool(drill) or not drill.is_active:
        return PoolState(sealed=False)
    open_ = _open_assignments(drill, timezone.now())
    if not open_:
        return PoolState(sealed=False)
    dues = [a.due_at for a in open_]
    until = None if any(due is None for due in dues) else max(d for d in dues if d is not None)
    return PoolState(sealed=True, until=until)


def answers_sealed(*, attempt: Attempt) -> bool:
    """Whether this attempt's expected answers are withheld from its trainee for now."""
    return pool_state(drill=attempt.drill).sealed


def drills_dealing(*, scenario_ids: Sequence[int], exclude: int | None = None) -> list[Drill]:
    """The active drills, other than ``exclude``, that deal any of these scenarios, by title."""
    found = Drill.objects.filter(is_active=True, drill_scenarios__scenario_id__in=scenario_ids)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return list(found.distinct().order_by("title", "pk"))


def pool_shared_problem(*, drill: Drill) -> str | None:
    """Why a pool's seal does not hold, if another active drill deals one of its rounds: a
    practice drill shows the expected answers after each round (rule 4 of the module)."""
    ids = list(drill.drill_scenarios.values_list("scenario_id", flat=True))
    others = drills_dealing(scenario_ids=ids, exclude=drill.pk)
    if not others:
        return None
    return (
        f"some of its rounds are also dealt by the drill '{others[0].title}', where their "
        "answers can be seen"
    )


def pool_reopen_check(*, drill: Drill, due_at: datetime | None) -> None:
    """Refuse to open a closed pool again (a new assignment, or a due date moved into the
    future): once every assignment closed, its sittings' expected answers were shown."""
    if not is_pool(drill):
        return
    now = timezone.now()
    if due_at is not None and due_at <= now:
        return
    if _open_assignments(drill, now) or not Attempt.objects.filter(drill_id=drill.pk).exists():
        return
    raise ConflictError(
        f"the expected answers of '{drill.title}' were shown to the trainees who sat it "
        "when its last assignment closed: build a new pool for another exam",
        field="drill",
        code="pool_closed",
    )
