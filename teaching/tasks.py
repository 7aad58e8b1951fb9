"""Celery tasks of teaching: the assignment e-mails, thin wrappers over one service each.

They keep the names they were registered under in trainer (trainer.tasks.*): services queue
them and the beat schedules them by name, and messages already queued must still find them.
Each e-mail is sent once however often a task runs.
"""

from __future__ import annotations

from celery import shared_task

from teaching.services.notifications import assignment_notify, assignments_notify_sweep


@shared_task(name="trainer.tasks.notify_assignment")
def notify_assignment(assignment_id: int) -> int:
    """E-mail each trainee concerned that a drill was assigned (once each, however often
    this runs)."""
    return assignment_notify(assignment_id=assignment_id)


@shared_task(name="trainer.tasks.send_assignment_notifications")
def send_assignment_notifications() -> int:
    """Beat: the reminders a day before due, and any assignment e-mail not yet sent."""
    return assignments_notify_sweep()
