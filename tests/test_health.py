import pytest

from config.celery import app as celery_app


@pytest.mark.django_db
def test_it_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_it_answers_503_naming_the_broker_when_the_broker_is_down(client):
    saved = celery_app.conf.broker_url, celery_app.conf.broker_transport_options
    # Nothing listens on port 1 of loopback: a real connection failure, not a mock.
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    celery_app.conf.broker_transport_options = {}
    try:
        response = client.get("/healthz")
    finally:
        celery_app.conf.broker_url, celery_app.conf.broker_transport_options = saved
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


@pytest.mark.django_db
def test_it_only_allows_get(client):
    assert client.post("/healthz").status_code == 405
