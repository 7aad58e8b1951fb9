"""A worker killed holding a task it received and had not started: its run, still pending,
is queued again by the sweep within the grading timeout plus one sweep interval (the
message itself stays in Redis' unacked set until the visibility timeout), graded once by
the next worker, and the late duplicate of the task, when it comes, grades nothing again.

That task is a wake-up (core.queue) still marked on its way: a submit after the kill sends
none, and its run is queued again by the sweep within the same bound.

The task is received and not started the way a retry is: it waits out a countdown in the
worker (an ETA: the message is taken from the queue, unacknowledged). Needs Redis and
PostgreSQL, as tests/grading/test_worker_kill.py does (CI runs it with both).
"""

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.answered import PLAYER_WINS, SOFT_17, make_attempts
from tests.grading.waiting import wait_for
from tests.grading.workers import Worker, worker_process_marks
from trainer.models import Attempt, Grade, GradingRun, RunStatus
from trainer.services.grading.lease import grading_fault_bound, grading_timeout
from trainer.services.grading.request import grading_request
from trainer.services.grading.sweep import grading_sweep

pytestmark = worker_process_marks(
    redis_because="only it keeps a killed worker's received task unacked"
)

# A queue of its own: only the workers started here take these tasks.
QUEUE = "worker-kill-received"
ROUNDS = [PLAYER_WINS, SOFT_17]


@pytest.fixture
def sent(monkeypatch):
    """Sends every task to QUEUE; the first one (the submit's) with an hour's countdown, so a
    worker receives it and holds it unstarted. Returns the tasks sent: (name, args)."""
    from config.celery import app

    tasks: list[tuple[str, tuple[object, ...]]] = []

    def send_task(name: str, *, args: tuple[object, ...], **options: Any) -> object:
        countdown = 3600 if not tasks else options.get("countdown")
        tasks.append((name, args))
        return app.send_task(name, args=args, queue=QUEUE, countdown=countdown)

    # The broker's settings too: a submit's wake-up marks itself on its way there.
    monkeypatch.setattr(
        "core.queue.current_app", SimpleNamespace(send_task=send_task, conf=app.conf)
    )
    return tasks


def test_a_killed_worker_s_received_task_is_graded_within_the_bound_and_once(
    trainee, tmp_path, sent
):
    attempt, later = make_attempts(trainee, 2, ROUNDS)
    questions = sum(len(item.answer_key) for item in attempt.items.all())
    # The message cannot come back from the broker during the test: only the sweep, through
    # the pending run's age, can have it graded.
    first = Worker(tmp_path / "first.log", queues=QUEUE, CELERY_VISIBILITY_TIMEOUT="3600")
    second = None
    try:
        run = grading_request(attempt=attempt)
        assert sent == [("trainer.tasks.grade_run", (run.pk,))]
        received = lambda: "trainer.tasks.grade_run[" in first.output()  # noqa: E731
        assert wait_for(received, seconds=120), first.output()
        first.kill()
        run.refresh_from_db()
        assert run.status == RunStatus.PENDING  # received, never started
        # A submit now: the killed worker's wake-up, never started, still marks one on its
        # way, so none is sent for it.
        later_run = grading_request(attempt=later)
        assert sent == [("trainer.tasks.grade_run", (run.pk,))]

        # Before the grading timeout the sweep leaves it (it may be waiting in a backlog);
        # once past it, the first sweep queues it again: within the bound of its queueing,
        # and so of the kill, which came after.
        queued = Attempt.objects.get(pk=attempt.pk).grading_queued_at
        assert grading_sweep(now=queued + grading_timeout() - timedelta(seconds=1)) == []
        due = queued + grading_timeout() + timedelta(microseconds=1)
        assert due - queued <= grading_fault_bound()
        assert grading_sweep(now=due) == [run.pk]
        assert sent[1:] == [("trainer.tasks.grade_run", (run.pk,))]
        # The later run too, within the bound of its own queueing.
        queued = Attempt.objects.get(pk=later.pk).grading_queued_at
        due = queued + grading_timeout() + timedelta(microseconds=1)
        assert grading_sweep(now=due) == [later_run.pk]
        assert sent[2:] == [("trainer.tasks.grade_run", (later_run.pk,))]

        second = Worker(tmp_path / "second.log", queues=QUEUE, CELERY_VISIBILITY_TIMEOUT="3600")
        graded = lambda: all(  # noqa: E731
            GradingRun.objects.get(pk=each.pk).status == RunStatus.GRADED
            for each in (run, later_run)
        )
        assert wait_for(graded, seconds=180), second.output()

        # The killed worker's message, redelivered after its visibility timeout, is the same
        # task for the same run: sent again here, it finds the run graded and stops.
        from config.celery import app

        app.send_task("trainer.tasks.grade_run", args=(run.pk,), queue=QUEUE)
        thrice = lambda: second.output().count("succeeded in") >= 3  # noqa: E731
        assert wait_for(thrice, seconds=120), second.output()
        assert "'graded'" in second.output().split("succeeded in")[3]
    finally:
        first.stop()
        if second is not None:
            second.stop()

    assert Grade.objects.filter(run=run).count() == questions
    assert GradingRun.objects.filter(attempt=attempt).count() == 1
    finished = LedgerEntry.objects.filter(event=Event.RUN_FINISHED, subject_id=str(run.pk))
    assert finished.count() == 1
    assert ledger_verify().ok
