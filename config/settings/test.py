"""Test settings: the base configuration with fast password hashing.

The database is SQLite unless DATABASE_URL is set (CI sets it to PostgreSQL); the broker
is the server-less filesystem transport in a throwaway folder unless CELERY_BROKER_URL is
set (CI sets it to Redis).
"""

import os
import tempfile

os.environ.setdefault("DJANGO_ENV", "test")
os.environ.setdefault("SHOESCHOOL_DATA_DIR", tempfile.mkdtemp(prefix="shoeschool-test-"))

from . import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
