"""Services queue tasks by their registered names (core.queue.enqueue) and beat schedules
them by name: a misspelt or renamed task would only fail in a worker, so the names are
checked here against the tasks the Celery app registers."""

import re
from pathlib import Path

from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parent.parent
QUEUED = re.compile(r"""\benqueue\(\s*["']([\w.]+)["']""")


def _registered() -> set[str]:
    app.loader.import_default_modules()
    return set(app.tasks)


def test_every_task_a_service_queues_by_name_is_registered():
    queued = {
        name
        for package in ("core", "ledger", "trainer", "teaching", "audit")
        for path in (ROOT / package).rglob("*.py")
        for name in QUEUED.findall(path.read_text(encoding="utf-8"))
    }
    assert queued >= {
        "trainer.tasks.grade_run",
        "trainer.tasks.grade_runs",
        "audit.tasks.produce_compliance_report",
    }
    assert queued <= _registered()


def test_every_task_the_beat_schedule_names_is_registered():
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled <= _registered()


def test_the_ledgers_tasks_are_registered_under_the_ledgers_name():
    """The ledger owns its tasks: each is named ledger.tasks.<function> (the checkpoint was
    once audit.tasks.checkpoint_ledger), and the beat schedule names them so."""
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"ledger.tasks.checkpoint_ledger", "ledger.tasks.verify_ledger_full"} <= scheduled
    ledgers = (
        {
            name: task.run.__name__
            for name, task in app.tasks.items()
            if task.run.__module__ == "ledger.tasks"
        }
        if _registered()
        else {}
    )
    assert ledgers
    assert all(name == f"ledger.tasks.{function}" for name, function in ledgers.items())
    assert not any(name.startswith("audit.") and "ledger" in name for name in _registered())
