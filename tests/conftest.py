"""Fixtures shared by every test: one user per role, and a real Celery worker."""

import os
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in the test thread that also uses the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def trainee(db):
    from tests.factories import UserFactory

    return UserFactory(username="tina", roles=["trainee"])


@pytest.fixture
def other_trainee(db):
    from tests.factories import UserFactory

    return UserFactory(username="otto", roles=["trainee"])


@pytest.fixture
def pit_boss(db):
    from tests.factories import UserFactory

    return UserFactory(username="boss", roles=["pit_boss"])


@pytest.fixture
def compliance_officer(db):
    from tests.factories import UserFactory

    return UserFactory(username="carla", roles=["compliance"])


@pytest.fixture
def admin_user(db):
    from tests.factories import UserFactory

    return UserFactory(username="root", roles=["admin"], is_staff=True, is_superuser=True)


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker) -> Iterator[object]:
    """A real Celery worker consuming the configured broker, shared by the whole session.

    It runs in a thread of this process with its own database connection, so tests that
    use it must be marked ``django_db(transaction=True)``.
    """
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    with (
        django_db_blocker.unblock(),
        start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker,
    ):
        yield worker


@pytest.fixture
def celery_worker(celery_worker_session, transactional_db):
    return celery_worker_session
