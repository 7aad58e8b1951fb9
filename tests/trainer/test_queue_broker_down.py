"""A task queued on commit while the broker is down: what was stored stands, the request
that stored it succeeds, and the sweep sends the task once the broker is back.

Found by the floor bench (bench/floor.py --fault redis): a trainee who submitted while
Redis restarted was answered 500, though the submission was stored and its grading run
waited for the sweep.
"""

import socket
from collections.abc import Iterator

import pytest

from config.celery import app
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import AttemptStatus, GradingRun, GradingStatus, Mode, RunStatus
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db(transaction=True)


def _reset_producers() -> None:
    # The app keeps its connection pool and producers; new ones read broker_url again.
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@pytest.fixture
def broker_down() -> Iterator[None]:
    """The Celery app pointed at a port of 127.0.0.1 where nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    saved = app.conf.broker_url
    app.conf.update(broker_url=f"redis://127.0.0.1:{port}/0")
    _reset_producers()
    try:
        yield
    finally:
        app.conf.update(broker_url=saved)
        _reset_producers()


def test_a_submit_while_the_broker_is_down_is_a_202_and_its_run_stays_pending_for_the_sweep(
    api, trainee, broker_down
):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)

    response = api.post(f"/api/attempts/{attempt.pk}/submit")

    assert response.status_code == 202, response.content
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.SUBMITTED
    assert attempt.grading_status == GradingStatus.PENDING
    run = GradingRun.objects.get(attempt=attempt)
    assert run.status == RunStatus.PENDING
