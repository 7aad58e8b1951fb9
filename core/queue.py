"""Queueing a Celery task from a service, by its registered name, once the transaction commits.

Services queue tasks; tasks call services. Naming the task instead of importing it keeps the
arrow one way: a service module never imports its app's tasks module.
"""

from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction


def enqueue(task_name: str, *args: Any) -> None:
    """Send the task registered as `task_name` with `args` when the current transaction
    commits (at once outside one); nothing is sent if it rolls back."""
    transaction.on_commit(partial(current_app.send_task, task_name, args=args))
