import pytest

from config.celery import worker_health


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_task_through_the_configured_broker(celery_worker):
    result = worker_health.delay()
    assert result.get(timeout=30) == {"worker": "ok", "database": "ok"}
