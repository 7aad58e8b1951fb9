"""E-mail notifications, each sent once.

The decision to send is a Notification row with a unique key (kind, the object, the
recipient), written in the same transaction as the send: a second run finds the key and
sends nothing; a send that fails rolls the row back, so the next run tries again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from teaching.models import Notification, NotificationKind
from trainer.models import Assignment, Attempt

# Events older than this are not announced by the sweeps (a new installation, a long
# outage): a notification is news or nothing.
LOOKBACK = timedelta(days=2)
DUE_SOON = timedelta(days=1)


def notification_send(*, kind: str, about: str, recipient: User, subject: str, body: str) -> bool:
    """Send ``subject``/``body`` to the recipient unless this (kind, about, recipient) was
    sent before; True when it was sent now. A recipient without an address gets nothing
    (and nothing is recorded, so adding one later still brings it)."""
    if not recipient.email or not recipient.is_active:
        return False
    key = f"{kind}:{about}:{recipient.pk}"[:200]
    if Notification.objects.filter(key=key).exists():
        return False
    try:
        with transaction.atomic():
            Notification.objects.create(
                kind=kind, key=key, recipient=recipient, subject=subject[:300]
            )
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [recipient.email])
    except IntegrityError:
        return False  # another worker recorded (and sent) it first
    return True


def _trainees_of(assignment: Assignment) -> Iterable[User]:
    if assignment.trainee_id is not None:
        return get_user_model().objects.filter(pk=assignment.trainee_id)
    return get_user_model().objects.filter(classes_attended=assignment.training_class_id)


def _due_words(due_at: datetime | None) -> str:
    if due_at is None:
        return "It has no due date."
    local = timezone.localtime(due_at)
    return f"It is due {local:%A %d %B %Y at %H:%M} ({local.tzname()})."


def assignment_notify(*, assignment_id: int) -> int:
    """The e-mail that a drill was assigned, to each trainee concerned; how many were sent."""
    assignment = (
        Assignment.objects.select_related("drill")
        .filter(pk=assignment_id, cancelled_at__isnull=True)
        .first()
    )
    if assignment is None:
        return 0
    sent = 0
    for trainee in _trainees_of(assignment):
        sent += notification_send(
            kind=NotificationKind.ASSIGNED,
            about=f"assignment:{assignment.pk}",
            recipient=trainee,
            subject=f"New drill assigned: {assignment.drill.title}",
            body=(
                f'You have been assigned "{assignment.drill.title}" '
                f"({assignment.get_mode_display().lower()}). {_due_words(assignment.due_at)}\n\n"
                "Open My training to start it."
            ),
        )
    return sent


def assignments_notify_sweep(*, now: datetime | None = None) -> int:
    """The beat task's work: assignment e-mails a lost queued task never sent, and the
    reminder a day before an assignment is due to each trainee who has not passed it."""
    now = now or timezone.now()
    sent = 0
    recent = Assignment.objects.filter(
        cancelled_at__isnull=True, created_at__gte=now - LOOKBACK, drill__is_active=True
    ).values_list("pk", flat=True)
    for assignment_id in recent:
        sent += assignment_notify(assignment_id=assignment_id)
    due = Assignment.objects.filter(
        cancelled_at__isnull=True,
        drill__is_active=True,
        due_at__gt=now,
        due_at__lte=now + DUE_SOON,
    ).select_related("drill")
    for assignment in due:
        passed = set(
            Attempt.objects.filter(assignment=assignment, passed=True).values_list(
                "trainee_id", flat=True
            )
        )
        assert assignment.due_at is not None
        for trainee in _trainees_of(assignment):
            if trainee.pk in passed:
                continue
            sent += notification_send(
                kind=NotificationKind.DUE_SOON,
                # A new due date (a reassignment) is a new reminder.
                about=f"assignment:{assignment.pk}:{int(assignment.due_at.timestamp())}",
                recipient=trainee,
                subject=f"Due tomorrow: {assignment.drill.title}",
                body=(
                    f'"{assignment.drill.title}" is due within a day and you have not '
                    f"passed it yet. {_due_words(assignment.due_at)}\n\nOpen My training."
                ),
            )
    return sent
