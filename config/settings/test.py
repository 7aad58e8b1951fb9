"""Test settings: the base configuration with fast password hashing.

The database is SQLite unless DATABASE_URL is set (CI sets it to PostgreSQL); the broker
is the server-less filesystem transport in a throwaway folder of this test run unless
CELERY_BROKER_URL is set (CI sets it to Redis). The environment is set before the base
settings read it, so every test run has its own data folder and broker queue.
"""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("DJANGO_ENV", "test")
if "SHOESCHOOL_DATA_DIR" not in os.environ:
    # Processes the tests start inherit the folder; the run that made it removes it.
    _data_dir = tempfile.mkdtemp(prefix="shoeschool-test-")
    os.environ["SHOESCHOOL_DATA_DIR"] = _data_dir
    atexit.register(shutil.rmtree, _data_dir, ignore_errors=True)

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
