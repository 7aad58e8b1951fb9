"""Fixtures shared by every test: one user per role, and a real Celery worker."""

import importlib
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError

# Playwright's sync API runs an event loop in the test thread that also uses the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def restore_migrated_reference_data() -> None:
    """Put back what the data migrations load: the role groups and the built-in profiles.

    A transactional test empties every table when it ends, so the tests after it would
    otherwise meet a database without roles or rule profiles.
    """
    from django.contrib.auth.models import Group

    from core.roles import Role
    from trainer import rules
    from trainer.models import RuleProfile, RuleProfileVersion

    # The titles a pit calls the tables, as migration 0010 gave them.
    titles = importlib.import_module("trainer.migrations.0010_profile_titles").TITLES
    if Group.objects.count() < len(Role) or not RuleProfileVersion.objects.exists():
        for role in Role:
            Group.objects.get_or_create(name=role.value)
        for name, engine in rules.PROFILES.items():
            title = titles.get(name, name)
            profile, _ = RuleProfile.objects.get_or_create(name=name, defaults={"title": title})
            if not profile.versions.exists():
                RuleProfileVersion.objects.create(
                    profile=profile,
                    version=1,
                    parameters=rules.profile_to_dict(engine),
                    source=engine.source,
                    assumed=list(engine.assumed),
                    notes="As published in rule-profiles.md.",
                )
        # The other games' shipped tables, as their migrations froze them (Scarne's Casino).
        from tests.factories import casino_migration

        casino = importlib.import_module(casino_migration())
        for row in casino.SHIPPED:
            profile, _ = RuleProfile.objects.get_or_create(
                name=row["name"], defaults={"title": row["title"], "game": row["game"]}
            )
            if not profile.versions.exists():
                RuleProfileVersion.objects.create(
                    profile=profile,
                    version=1,
                    parameters=dict(row["parameters"]),
                    source=row["source"],
                    assumed=list(row["assumed"]),
                    notes="Scarne's rules for two-handed Casino, as published.",
                )


@pytest.fixture(autouse=True, scope="session")
def _flush_lifts_the_ledger_protection() -> Iterator[None]:
    """A transactional test ends with a flush that empties every table: the ledger's
    triggers rightly refuse that, so the flush lifts them, as a DBA would, and puts them
    back in the same transaction."""
    from django.db import transaction
    from django.db.backends.base.operations import BaseDatabaseOperations

    from tests.ledger_protection import protection_lifted

    flush = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        with transaction.atomic(using=self.connection.alias), protection_lifted(self.connection):
            flush(self, sql_list)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseOperations, "execute_sql_flush", execute_sql_flush)
        yield


def _uses_the_database(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db", "live_server"} & set(request.fixturenames)
    )


@pytest.fixture(autouse=True)
def _own_checkpoint_file(request: pytest.FixtureRequest) -> None:
    """Each database test has a ledger checkpoint file of its own: a checkpoint another
    test left would be an anchor this test's ledger does not hold."""
    if _uses_the_database(request):
        settings = request.getfixturevalue("settings")
        folder = request.getfixturevalue("tmp_path")
        settings.SHOESCHOOL_LEDGER_ANCHOR_FILE = folder / "ledger-anchors.jsonl"


@pytest.fixture(autouse=True)
def _practical_sheet_asked_only_where_marked(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A certification needs a passed practical evaluation sheet (audit.services.practical),
    as in production, in the tests marked `practical`: the many tests of the knowledge
    sitting's sign-off sign without one."""
    if request.node.get_closest_marker("practical"):
        return
    from audit.services import practical

    monkeypatch.setattr(practical, "practical_required", lambda profile: False)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with no cached figures: a rolled-back test's keys may come back
    (SQLite hands out the same primary keys again) with other data behind them."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _migrated_reference_data(request: pytest.FixtureRequest) -> None:
    if not _uses_the_database(request):
        return
    request.getfixturevalue("_django_db_helper")
    # SQLite's shared in-memory test database answers "table is locked" at once, instead of
    # waiting, while the worker thread starting up holds it: try again for a while.
    deadline = time.monotonic() + 30
    while True:
        try:
            restore_migrated_reference_data()
            return
        except OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def trainee(db):
    from tests.factories import UserFactory

    return UserFactory(username="tina", roles=["trainee"])


@pytest.fixture
def api(trainee):
    """The API as the trainee, logged in (the trainer's and teaching's API tests)."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(trainee)
    return client


@pytest.fixture
def other_trainee(db):
    from tests.factories import UserFactory

    return UserFactory(username="otto", roles=["trainee"])


@pytest.fixture
def pit_boss(db):
    from tests.factories import UserFactory

    return UserFactory(username="boss", roles=["pit_boss"])


@pytest.fixture
def pit(db, trainee, other_trainee, pit_boss):
    """Two classes: the pit boss teaches tina's "Morning"; another pit boss otto's "Evening"."""
    from tests.audit.factories import TrainingClassFactory
    from tests.factories import UserFactory

    # Named, not left to Faker: a page they read must not spell "tina" by chance (Christina).
    other_boss = UserFactory(
        username="other-boss", first_name="Olga", last_name="Other", roles=["pit_boss"]
    )
    mine = TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    theirs = TrainingClassFactory(
        name="Evening", trainees=[other_trainee], instructors=[other_boss]
    )
    return {"mine": mine, "theirs": theirs, "other_boss": other_boss}


@pytest.fixture
def other_boss(pit):
    return pit["other_boss"]


@pytest.fixture
def compliance_officer(db):
    from tests.factories import UserFactory

    return UserFactory(username="carla", roles=["compliance"])


@pytest.fixture
def admin_user(db):
    from tests.factories import UserFactory

    return UserFactory(username="root", roles=["admin"], is_staff=True, is_superuser=True)


_WORKER: dict[str, object] = {}


def _worker_busy() -> bool:
    """Whether the session's worker holds a task (a gathering wake-up waiting out its
    countdown among them), or one waits for it in the broker."""
    from celery.worker import state

    from config.celery import app

    scheduled = state.scheduled_requests  # type: ignore[attr-defined]  # not in the stubs
    if state.active_requests or state.reserved_requests or scheduled:
        return True
    try:
        with app.connection_for_read() as connection:
            # kombu's channel types name only the common methods; every transport has this.
            queue = connection.default_channel.queue_declare(  # type: ignore[attr-defined]
                queue=app.conf.task_default_queue, passive=True
            )
            return bool(queue.message_count)
    except Exception:
        return False


@pytest.fixture(autouse=True)
def _worker_idle_before_the_flush() -> Iterator[None]:
    """A task a test queued but did not wait for (an assignment's e-mail, a grading run)
    must not run while the database is flushed after the test: the worker's queries and
    the flush's TRUNCATE deadlock. Set up after pytest-django's database fixture (plugin
    autouse fixtures come first), so this waits before the flush."""
    yield
    if not _WORKER:
        return
    deadline = time.monotonic() + 30
    idle_since: float | None = None
    while time.monotonic() < deadline:
        if _worker_busy():
            idle_since = None
        elif idle_since is None:
            idle_since = time.monotonic()
        elif time.monotonic() - idle_since > 0.3:
            return
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _no_grading_wake_up_on_its_way() -> None:
    """A grading wake-up an earlier test sent and no worker took (core.queue) would keep
    this test's submits from sending their own, and one sent lately (or a hurry) would
    change whether its first gathers: its runs, like its database, start anew."""
    from tests.wake_ups import forget
    from trainer.services.grading.request import GRADING_BELL

    forget(GRADING_BELL)


@pytest.fixture
def tasks_to_a_queue_nobody_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks this test sends (the live server's too: a thread of this process) go to a queue
    no worker reads: the test does their work itself, at the moment it chooses, even when an
    earlier test of the session started the session's worker."""
    from celery import current_app

    send = current_app.send_task

    def to_nobody(name: str, *args: Any, **kwargs: Any) -> Any:
        return send(name, *args, **{**kwargs, "queue": "tests-nobody-reads"})

    monkeypatch.setattr(current_app, "send_task", to_nobody)


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker) -> Iterator[object]:
    """A real Celery worker consuming the configured broker, shared by the whole session.

    It runs in a thread of this process with its own database connection, so tests that
    use it must be marked ``django_db(transaction=True)``.
    """
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connections

    from config.celery import app

    tests_thread = threading.current_thread()

    def close_worker_connections(**_: object) -> None:
        # In the worker's thread: its connection would otherwise stay open past the
        # session and keep PostgreSQL from dropping the test database. A task a test runs
        # eagerly (task.apply()) ends in the test's own thread, inside its transaction:
        # that connection stays.
        if threading.current_thread() is not tests_thread:
            connections.close_all()

    task_postrun.connect(close_worker_connections, weak=False)
    try:
        with (
            django_db_blocker.unblock(),
            start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30) as worker,
        ):
            _WORKER["worker"] = worker
            yield worker
    finally:
        _WORKER.clear()
        task_postrun.disconnect(close_worker_connections)


@pytest.fixture
def celery_worker(celery_worker_session, transactional_db):
    return celery_worker_session


@pytest.fixture
def session_activity_unwritten(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests that count queries: the session's activity is written at most every 30 s
    (config.sessions.RESOLUTION), so on a loaded machine a set-up that outlasts that adds
    the session's write to the count. Counting tests count the page, not the clock."""
    monkeypatch.setattr("config.sessions.RESOLUTION", 10**9)
