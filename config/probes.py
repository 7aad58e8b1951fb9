"""What the probes check: the web's /healthz (config.health) and the worker's health task
(config.celery) both ask the database here, so neither imports the other."""

from django.db import connection


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the message says why
        return f"error: {exc.__class__.__name__}: {exc}".strip()
    return "ok"
