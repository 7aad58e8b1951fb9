"""Test settings: the base configuration with fast password hashing.

The database is SQLite unless DATABASE_URL is set (CI sets it to PostgreSQL); the broker
is the server-less filesystem transport in a throwaway folder of this test run unless
CELERY_BROKER_URL is set (CI sets it to Redis). The environment is set before the base
settings read it, so every test run has its own data folder and broker queue.

Under pytest-xdist (scripts/test runs two workers) each worker is a test run of its own:
its own data folder (reports and media are named by primary keys, which both workers'
databases hand out alike) and its own Redis database, so one worker's Celery worker never
takes the other's tasks. pytest-django already gives each its own test database.
"""

import atexit
import os
import re
import shutil
import tempfile

os.environ.setdefault("DJANGO_ENV", "test")
_xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if (
    "SHOESCHOOL_DATA_DIR" not in os.environ
    or os.environ.get("SHOESCHOOL_TEST_DATA_DIR_OF", "") != _xdist_worker
):
    # Processes the tests start inherit the folder (and the worker's name, so they keep
    # it); the run that made it removes it.
    _data_dir = tempfile.mkdtemp(prefix=f"shoeschool-test-{_xdist_worker}")
    os.environ["SHOESCHOOL_DATA_DIR"] = _data_dir
    os.environ["SHOESCHOOL_TEST_DATA_DIR_OF"] = _xdist_worker
    atexit.register(shutil.rmtree, _data_dir, ignore_errors=True)

from .base import *  # noqa: E402, F403
from .base import CELERY_BROKER_URL as _BROKER  # noqa: E402

# The run's own broker URL, kept for the processes its workers start, which compute theirs
# from it again.
_BROKER = os.environ.setdefault("SHOESCHOOL_TEST_BROKER_OF_RUN", _BROKER)
_database = re.fullmatch(r"(redis://.*?)(?:/(\d+))?", _BROKER)
if _xdist_worker.startswith("gw") and _database:
    # Database n of the run -> n+1 for gw0, n+2 for gw1...; Celery reads the environment
    # before these settings, so the environment says it too.
    _number = int(_database[2] or 0) + 1 + int(_xdist_worker[2:])
    CELERY_BROKER_URL = f"{_database[1]}/{_number}"
    os.environ["CELERY_BROKER_URL"] = CELERY_BROKER_URL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False

# A second game, never shipped, that proves the seam: the tests deal, grade, review and
# report it as they do blackjack (tests/seam_game, docs/architecture.md's new-game recipe).
SHOESCHOOL_GAMES = [*SHOESCHOOL_GAMES, "tests.seam_game"]  # noqa: F405
