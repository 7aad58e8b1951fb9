"""Requesting grading: a run per submitted (or regraded) attempt, queued on commit.

A grading run is requested in the transaction that submits (or regrades) an attempt and
queued on commit (by the task's registered name: see core.queue); a Celery task executes it
(trainer.services.grading.execute).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from core.errors import ConflictError, NotFoundError, ProductError
from core.queue import enqueue, enqueue_wake_up
from core.rows import insert_many, update
from ledger.events import Event, Subject
from ledger.services.append import PendingEntry, ledger_append_many
from trainer.models import Attempt, AttemptStatus, GradingRun, GradingStatus, RunStatus, RunTrigger
from trainer.selectors.runs import latest_run_numbers
from trainer.selectors.visibility import not_for_oneself
from trainer.services.grading.lease import grading_timeout

# Runs per batch task (one transaction): big enough to amortise the queries and the
# task's overhead, small enough that a killed worker or a retry redoes little work.
RUNS_PER_TASK = 100
# The bell of grading's wake-ups (core.queue): a run's task takes the runs waiting behind
# it (trainer.services.grading.coalesce), so while one has not started, a submit sends none.
GRADING_BELL = "grading"
# How long a grading wake-up sent soon after another waits for the submits behind it
# (core.queue's gather): a class submitting together is graded in batches of many runs, each
# run's share of a batch's fixed cost (a task, ~20 queries, a commit) falling with its size,
# while a lone submit is graded at once. Well under the results page's first look (3 s).
GRADING_GATHER_SECONDS = 0.5
# A batch this big says the submits come faster than gathering helps (a hundred a second
# and more): the wake-ups go at once for a while (core.queue's hurry), so the worker never
# waits out a gather with a queue behind it.
GRADING_HURRY_AT = RUNS_PER_TASK // 2


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
        raise ProductError(f"unknown grading trigger {trigger!r}", field="trigger")
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
        now = timezone.now()
        Attempt.objects.filter(pk__in=ids).update(
            grading_status=GradingStatus.PENDING, grading_queued_at=now, grading_error=""
        )
        for attempt in given:
            _mark_pending(attempt, now)
        return _runs_record(
            locked=locked, ids=ids, trigger=trigger, reason=reason, requested_by=requested_by
        )


def grading_request_on_submit(*, attempt: Attempt, fields: Sequence[str]) -> GradingRun:
    """The run a submit asks for, with no statement the submit makes anyway.

    The caller (trainer.services.attempts) holds the attempt's row lock, read with its
    trainee, and has just set it submitted from in progress (`fields`: what it changed).
    The attempt is saved here, its grading fields in the same UPDATE as those, before the
    run and its ledger entry: the entry locks the ledger's head, which every writer of the
    ledger waits for, so it is the transaction's last statement and the head is held only
    until the commit. The grading is queued on commit, as for grading_request. It is the
    attempt's first run (runs are made for submitted attempts only, and an attempt never
    goes back to in progress), so its number is not read: were it not the first, the run's
    unique number would refuse it and the submit roll back.
    """
    if attempt.status != AttemptStatus.SUBMITTED:
        raise ConflictError(
            f"attempt {attempt.pk} is not submitted; only a submitted attempt is graded",
            field="attempt",
        )
    _mark_pending(attempt, timezone.now())
    update(attempt, (*fields, *_PENDING_FIELDS))
    return _runs_record(
        locked={attempt.pk: attempt},
        ids=[attempt.pk],
        trigger=RunTrigger.SUBMIT,
        reason="",
        requested_by=None,
        first=True,
    )[0]


_PENDING_FIELDS = ("grading_status", "grading_queued_at", "grading_error")


def _mark_pending(attempt: Attempt, now: datetime) -> None:
    attempt.grading_status = GradingStatus.PENDING
    attempt.grading_queued_at = now
    attempt.grading_error = ""


def _runs_record(
    *,
    locked: dict[int, Attempt],
    ids: list[int],
    trigger: str,
    reason: str,
    requested_by: AbstractBaseUser | None,
    first: bool = False,
) -> list[GradingRun]:
    """The next run of each locked attempt, its ledger entry, and its queueing on commit
    (`first`: the attempts have no run yet, so their numbers are not read)."""
    numbers = {} if first else latest_run_numbers(attempt_ids=ids)
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
        insert_many(runs)
    else:
        for run in runs:
            run.save()
    event = Event.ATTEMPT_SUBMITTED if trigger == RunTrigger.SUBMIT else Event.REGRADE_REQUESTED
    ledger_append_many(
        entries=[
            PendingEntry(
                event=event,
                subject_type=Subject.ATTEMPT,
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
    if len(run_ids) == 1:
        grading_wake_up(run_id=run_ids[0])
    else:
        grading_enqueue(run_ids)
    return runs


def grading_wake_up(*, run_id: int) -> None:
    """Queue a run's grading when the transaction commits, unless a task that takes the
    runs waiting (trainer.services.grading.coalesce) is on its way and has not started: it
    takes this run too. Where a task grades its own run only (no SKIP LOCKED), it is queued.
    Sent within a second of the one before it, it gathers: it is sent half a second late
    (GRADING_GATHER_SECONDS), and the submits of that half second are graded with it.

    A wake-up lost with its worker leaves the runs behind it pending: the next wake-up after
    the mark ran out (the grading timeout) takes them, and the sweep queues them again
    after that timeout in any case, the bound for a killed worker's runs
    (trainer.services.grading.lease).
    """
    if not connection.features.has_select_for_update_skip_locked:
        enqueue("trainer.tasks.grade_run", run_id)
        return
    enqueue_wake_up(
        "trainer.tasks.grade_run",
        run_id,
        bell=GRADING_BELL,
        lasting=grading_timeout().total_seconds(),
        gather=GRADING_GATHER_SECONDS,
    )


def grading_enqueue(run_ids: Sequence[int]) -> None:
    """Queue the runs' grading (trainer.tasks) when the transaction commits: each batch
    sent, whatever is on its way (the sweep's runs were lost once already)."""
    if len(run_ids) == 1:
        enqueue("trainer.tasks.grade_run", run_ids[0])
        return
    for start in range(0, len(run_ids), RUNS_PER_TASK):
        enqueue("trainer.tasks.grade_runs", list(run_ids[start : start + RUNS_PER_TASK]))


def regrade_request(
    *,
    attempts: Iterable[Attempt],
    reason: str,
    requested_by: AbstractBaseUser | None = None,
) -> list[GradingRun]:
    """A new regrade run for each attempt; the earlier runs and their grades stay as they are.
    Nobody regrades their own attempt (an administrator who is also a trainee would choose
    the rules their own sitting is graded under): all or nothing."""
    if not reason.strip():
        raise ProductError("a regrade needs a reason (what was corrected)", field="reason")
    attempts = list(attempts)
    if requested_by is not None:
        for attempt in attempts:
            not_for_oneself(
                user=requested_by, trainee_id=attempt.trainee_id, doing="regrades their own attempt"
            )
    return grading_request_batch(
        attempts=attempts,
        trigger=RunTrigger.REGRADE,
        reason=reason.strip(),
        requested_by=requested_by,
    )
