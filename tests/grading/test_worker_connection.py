"""A worker process keeps its database connection from one task to the next, and replaces it
when the database has dropped it.

Celery's Django fix-up closes a worker's connections around every task unless
CELERY_DB_REUSE_MAX is set; config.celery then treats each task as Django treats a
request. The worker runs in its own process, as in production; so the test needs
PostgreSQL (its sessions are visible in pg_stat_activity) and Redis (a broker both
processes reach). The tasks go to a queue of their own so no other worker takes them.
"""

from django.db import connection

from tests.grading.waiting import wait_for
from tests.grading.workers import Worker, worker_process_marks
from trainer.models import GradingRun, RunStatus
from trainer.services.grading.request import grading_request
from trainer.tasks import grade_run

pytestmark = worker_process_marks(redis_because="shared with a worker process")

QUEUE = "grading-connection-test"


def others_sessions() -> list[int]:
    """The client sessions on this test's database other than this process's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND pid <> pg_backend_pid() ORDER BY pid"
        )
        return [pid for (pid,) in cursor.fetchall()]


def graded_by_the_worker(attempt) -> bool:
    run = grading_request(attempt=attempt)
    grade_run.apply_async((run.pk,), queue=QUEUE)
    return wait_for(
        lambda: GradingRun.objects.get(pk=run.pk).status == RunStatus.GRADED, seconds=60
    )


def test_a_worker_grades_on_one_connection_and_reconnects_when_it_is_dropped(attempt_of, tmp_path):
    worker = Worker(tmp_path / "worker.log", queues=QUEUE)
    try:
        assert wait_for(lambda: " ready." in worker.output(), seconds=120), worker.output()
        assert graded_by_the_worker(attempt_of()), worker.output()
        first = others_sessions()
        assert len(first) == 1, first  # the worker's, left open after its task
        assert graded_by_the_worker(attempt_of()), worker.output()
        assert others_sessions() == first

        # The database drops the worker's session between tasks (a restart, an idle
        # timeout): the next task finds it gone before using it and opens another.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [first[0]])
        assert wait_for(lambda: others_sessions() == [], seconds=30)
        assert graded_by_the_worker(attempt_of()), worker.output()
        assert "Retry in" not in worker.output()
        assert len(others_sessions()) == 1
    finally:
        worker.stop()
