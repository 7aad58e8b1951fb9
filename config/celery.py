"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os
from pathlib import Path

from celery import Celery

from config.probes import database_status

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("shoeschool")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def ensure_filesystem_broker_folders() -> None:
    """Create the filesystem transport's folders, which must exist before a worker starts."""
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)


@app.on_after_configure.connect
def _make_broker_folders(**_: object) -> None:
    ensure_filesystem_broker_folders()


@app.task(name="shoeschool.worker_health")
def worker_health() -> dict[str, str]:
    """Answer from inside a worker: proves the broker delivers and the worker reaches the DB."""
    return {"worker": "ok", "database": database_status()}
