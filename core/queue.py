"""Queueing a Celery task from a service, by its registered name, once the transaction commits.

Services queue tasks; tasks call services. Naming the task instead of importing it keeps the
arrow one way: a service module never imports its app's tasks module.
"""

from typing import Any

from celery import current_app
from django.db import transaction


def enqueue(task_name: str, *args: Any) -> None:
    """Send the task registered as `task_name` with `args` when the current transaction
    commits (at once outside one); nothing is sent if it rolls back.

    A broker that cannot be reached then is logged, not raised: the change is committed
    and its sweep sends the task again (grading runs and compliance reports are left
    pending), so the request that made it must not answer 500 as if it had failed.
    """

    def send() -> None:
        current_app.send_task(task_name, args=args)

    # A function of its own, not a partial: Django names the callback when it logs it.
    send.__qualname__ = f"enqueue({task_name})"
    transaction.on_commit(send, robust=True)
