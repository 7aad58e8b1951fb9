"""Celery workers in their own processes, for tests that kill one or starve it of its database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def worker_process_marks(*, redis_because: str) -> list[pytest.MarkDecorator]:
    """The marks of a test with a worker in its own process: it needs Redis (why, in
    `redis_because`) and PostgreSQL, whose test database another process can see."""
    return [
        pytest.mark.worker,
        pytest.mark.django_db(transaction=True),
        pytest.mark.skipif(
            not settings.CELERY_BROKER_URL.startswith("redis://"),
            reason=f"needs Redis (CELERY_BROKER_URL=redis://...): {redis_because}; CI sets it",
        ),
        pytest.mark.skipif(
            connection.vendor != "postgresql",
            reason="needs PostgreSQL (DATABASE_URL): a worker process cannot see SQLite's "
            "in-memory test database; CI sets it",
        ),
    ]


def database_url_of_this_test() -> str:
    """The URL of the database this test runs on (pytest-django's test_<name>)."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """`celery -A config worker` on one process, logging to a file the test can read."""

    def __init__(
        self, log: Path, *, database_url: str | None = None, queues: str = "celery", **env: str
    ) -> None:
        self.log = log
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url or database_url_of_this_test(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            **env,
        }
        self._out = log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--queues",
                queues,
            ],
            cwd=ROOT,
            env=environment,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-task with no chance to ack, requeue or clean up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._out.close()

    def stop(self) -> None:
        """A warm shutdown (SIGTERM): unstarted messages go back to the broker."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        self._out.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")
