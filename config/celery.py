"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os
from pathlib import Path

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init
from django.db import close_old_connections

from config.probes import database_status
from core.collector import objects_kept_out_of_collection

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


@worker_init.connect
@worker_process_init.connect
def _start_up_kept_out_of_collection(**_: object) -> None:
    """What a worker built to start (and a pool's child inherited) is never garbage: the
    cycle collector need not walk it again at every full collection (core.collector)."""
    objects_kept_out_of_collection()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(sender: Task, **_: object) -> None:
    """A task's database connections as a request's: kept for CONN_MAX_AGE, closed after an
    error left them unusable, checked before first use (settings CELERY_DB_REUSE_MAX). Not
    for a task applied eagerly: it runs in its caller's transaction, as the fix-up knows."""
    if not getattr(sender.request, "is_eager", False):
        close_old_connections()


@app.task(name="shoeschool.worker_health")
def worker_health() -> dict[str, str]:
    """Answer from inside a worker: proves the broker delivers and the worker reaches the DB."""
    return {"worker": "ok", "database": database_status()}
