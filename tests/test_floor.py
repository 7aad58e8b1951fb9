"""The floor bench at a small size: simulated trainees against gunicorn, a prefork Celery
worker, PostgreSQL and Redis, then the reconciliation (bench/floor.py exits 1 when an
accepted answer is missing or doubled, a ledger entry is missing or doubled, a submitted
attempt is not graded, verify_audit_log fails or any request met a 500).

Needs PostgreSQL (the bench makes a scratch database beside the test database, on the
server DATABASE_URL names) and Redis (it starts a redis-server of its own, so that no
other worker takes its tasks and it may kill it). CI sets both; elsewhere these skip.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATABASE_URL = os.environ.get("DATABASE_URL", "")

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(
        not DATABASE_URL.startswith(("postgres://", "postgresql://")),
        reason="needs PostgreSQL (DATABASE_URL=postgres://...): the floor bench runs "
        "gunicorn and Celery in their own processes on a database of its own; CI sets it",
    ),
    pytest.mark.skipif(
        not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://")
        or shutil.which("redis-server") is None,
        reason="needs Redis (CELERY_BROKER_URL=redis://... and Debian's redis-server): the "
        "floor bench starts a redis-server of its own; CI sets it",
    ),
]

SMALL = ["--sizes", "5", "--duration", "45", "--think", "0.2", "0.6", "--ramp", "2"]
SMALL += ["--rounds", "2", "--web-workers", "2", "--concurrency", "2", "--grace", "120"]


def floor(*extra: str) -> subprocess.CompletedProcess[str]:
    # A scratch database of its own beside the test database (the bench drops it first).
    name = urlsplit(DATABASE_URL).path.lstrip("/") or "shoeschool"
    return subprocess.run(
        [sys.executable, "bench/floor.py", *SMALL, "--database", f"{name}_floor", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
    )


def test_five_trainees_lose_nothing_and_double_nothing():
    run = floor()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "floor bench passed" in run.stdout
    # The trainees got through whole attempts: answered, submitted and graded.
    submitted = re.search(r"attempts submitted\s+(\d+)", run.stdout)
    assert submitted is not None, run.stdout
    assert int(submitted[1]) > 0, run.stdout
    # The run after sign-in by ten seconds: its requests, the answers' latency, the cores.
    waves = re.search(
        r"after sign-in, by 10 s \(when sent\):\n\s+seconds +requests.*\n\s+\+0-10 +(\d+)",
        run.stdout,
    )
    assert waves is not None, run.stdout
    assert int(waves[1]) > 0, run.stdout


def test_a_killed_celery_worker_loses_no_grade_and_no_answer():
    run = floor("--fault", "worker", "--fault-at", "12")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "SIGKILL Celery worker" in run.stdout, run.stdout
    # The fault's report: the runs in flight at the kill, and the configured bound in which
    # the dead worker's runs are queued again: started ones after their lease, received and
    # not started ones after the grading timeout, then one sweep (10 + 5 s).
    assert re.search(r"fault: \d+ runs in flight \(\d+ being graded", run.stdout), run.stdout
    assert "lease 10 s; received and not started" in run.stdout, run.stdout
    assert "grading timeout 10 s; + sweep every 5 s = 15 s" in run.stdout, run.stdout
