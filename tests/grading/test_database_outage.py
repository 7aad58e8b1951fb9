"""A database outage during grading leaves the run retrying with no grade, then graded.

The worker runs in its own process, first with its database unreachable, then with it
back; so the test needs PostgreSQL (SQLite's test database lives in this process's memory)
and Redis (a broker both processes reach). The task goes to a queue of its own so no
other worker in the session can take it.
"""

from datetime import timedelta

from django.utils import timezone

from tests.answered import PLAYER_WINS, SOFT_17
from tests.grading.waiting import wait_for
from tests.grading.workers import Worker, database_url_of_this_test, worker_process_marks
from trainer.models import Attempt, Grade, GradingRun, GradingStatus, RunStatus
from trainer.tasks import grade_run

pytestmark = worker_process_marks(redis_because="shared with a worker process")

QUEUE = "grading-outage-test"
UNREACHABLE = "postgres://nobody@127.0.0.1:1/shoeschool"


def test_an_unreachable_database_leaves_the_run_pending_then_graded_after_recovery(
    attempt_of, tmp_path
):
    attempt = attempt_of([PLAYER_WINS, SOFT_17])
    run = GradingRun.objects.create(attempt=attempt, number=1, trigger="submit")
    Attempt.objects.filter(pk=attempt.pk).update(
        grading_status=GradingStatus.PENDING, grading_queued_at=timezone.now()
    )
    down = Worker(tmp_path / "down.log", database_url=UNREACHABLE, queues=QUEUE)
    up = None
    try:
        assert wait_for(lambda: " ready." in down.output(), seconds=120), down.output()
        grade_run.apply_async((run.pk,), queue=QUEUE)
        assert wait_for(lambda: "Retry in" in down.output(), seconds=120), down.output()
        run.refresh_from_db()
        attempt.refresh_from_db()
        assert run.status == RunStatus.PENDING
        assert attempt.grading_status == GradingStatus.PENDING
        assert not Grade.objects.filter(run=run).exists()

        # Recovery: the worker is restarted with its database back. Its warm shutdown hands
        # the waiting retry back to the broker.
        down.stop()
        up = Worker(tmp_path / "up.log", database_url=database_url_of_this_test(), queues=QUEUE)
        assert wait_for(
            lambda: GradingRun.objects.get(pk=run.pk).status == RunStatus.GRADED, seconds=180
        ), down.output() + up.output()
    finally:
        down.stop()
        if up is not None:
            up.stop()
    assert Grade.objects.filter(run=run).count() == 7
    attempt.refresh_from_db()
    assert attempt.grading_status == GradingStatus.GRADED
    assert attempt.grading_queued_at > timezone.now() - timedelta(hours=1)
