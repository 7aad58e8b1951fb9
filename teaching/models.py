"""Teaching's own rows: a pit boss's request for another class's trainee, and the e-mails
sent to people (assignments, flags, certifications), each recorded once.

Their tables were made by trainer's migrations, when these models lived there; teaching's
0001 took them over in Django's state only (trainer 0025 let them go), so no data moved.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from trainer.models import TrainingClass


class JoinRequestStatus(models.TextChoices):
    PENDING = "pending", "Waiting for an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"


class ClassJoinRequest(models.Model):
    """A pit boss asks for a trainee who is on another instructor's class: the trainee
    joins ``training_class`` only once an instructor of every class they are on (that the
    requester does not teach) accepts (teaching.services.classes.requests)."""

    training_class = models.ForeignKey(
        TrainingClass, on_delete=models.CASCADE, related_name="join_requests"
    )
    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=500, blank=True)
    status = models.CharField(
        max_length=16, choices=JoinRequestStatus.choices, default=JoinRequestStatus.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "trainer_classjoinrequest"  # made by trainer's migrations, kept
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["training_class", "trainee"],
                condition=models.Q(status="pending"),
                name="one_pending_join_request",
            )
        ]

    def __str__(self) -> str:
        return f"join request {self.pk} ({self.status})"


class NotificationKind(models.TextChoices):
    ASSIGNED = "assigned", "A drill was assigned"
    DUE_SOON = "due_soon", "An assignment is due within a day"
    RETRAINING = "retraining", "A retraining flag"
    CERTIFIED = "certified", "A certification was signed"
    EXPIRING = "expiring", "A certification expires within 30 days"


class Notification(models.Model):
    """An e-mail sent to someone, recorded once: the unique key (kind, the object it is
    about, the recipient) is written in the transaction that decides to send, so a task
    run twice, or two workers at once, send it once."""

    kind = models.CharField(max_length=16, choices=NotificationKind.choices)
    key = models.CharField(max_length=200, unique=True)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="notifications"
    )
    subject = models.CharField(max_length=300)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "trainer_notification"  # made by trainer's migrations, kept
        ordering = ["-sent_at"]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient}: {self.subject}"
