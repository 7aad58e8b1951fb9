"""Test settings: the base configuration with fast password hashing.

The database is SQLite unless DATABASE_URL is set (CI sets it to PostgreSQL); the broker
is the server-less filesystem transport in a throwaway folder of this test run unless
CELERY_BROKER_URL is set (CI sets it to Redis). The environment is set before the base
settings read it, so every test run has its own data folder and broker queue.
"""

import os
import tempfile

os.environ.setdefault("DJANGO_ENV", "test")
os.environ.setdefault("SHOESCHOOL_DATA_DIR", tempfile.mkdtemp(prefix="shoeschool-test-"))

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
