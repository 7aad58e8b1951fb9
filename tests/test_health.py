import pytest

from config.celery import app as celery_app


@pytest.mark.django_db
def test_it_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_it_answers_503_naming_the_broker_when_the_broker_is_down(client, monkeypatch):
    # Nothing listens on port 1 of loopback: a real connection failure, not a mock.
    # Celery reads CELERY_BROKER_URL from the environment before its own settings.
    dead_broker = "redis://127.0.0.1:1/0"
    monkeypatch.setenv("CELERY_BROKER_URL", dead_broker)
    monkeypatch.setitem(celery_app.conf, "broker_url", dead_broker)
    monkeypatch.setitem(celery_app.conf, "broker_transport_options", {})
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


@pytest.mark.django_db
def test_it_only_allows_get(client):
    assert client.post("/healthz").status_code == 405
