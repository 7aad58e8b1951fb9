"""The audit side's records: the ledger, reviews, retraining flags, certifications and
compliance reports. All are append-only: a correction is a new row pointing at the old."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class AppendOnly(models.Model):
    """A record that is written once: saving an existing row or deleting one is refused."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValidationError(f"{self.__class__.__name__} is append-only: write a new entry")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValidationError(f"{self.__class__.__name__} is append-only and is never deleted")


def entry_content(
    *,
    sequence: int,
    recorded_at: datetime,
    event: str,
    actor_id: int | None,
    actor_name: str,
    subject_type: str,
    subject_id: str,
    payload: Any,
) -> dict[str, Any]:
    """What a ledger entry's hash covers: everything but the hashes themselves."""
    return {
        "sequence": sequence,
        "recorded_at": recorded_at.isoformat(),
        "event": event,
        "actor_id": actor_id,
        "actor_name": actor_name,
        "subject_type": subject_type,
        "subject_id": subject_id,
        "payload": payload,
    }


class LedgerEntry(AppendOnly):
    """One link of the tamper-evident chain (see audit.chain).

    The database refuses UPDATE and DELETE on this table: PostgreSQL through a trigger
    (migration 0002; TRUNCATE too, migration 0003), SQLite through triggers (migration 0003).
    """

    sequence = models.PositiveBigIntegerField(unique=True)
    recorded_at = models.DateTimeField()
    event = models.CharField(max_length=64)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    subject_type = models.CharField(max_length=64)
    subject_id = models.CharField(max_length=64)
    payload = models.JSONField()
    previous_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["sequence"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["subject_type", "subject_id"])]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.event} {self.subject_type}:{self.subject_id}"

    def content(self) -> dict[str, Any]:
        """What the hash covers: everything but the hashes themselves."""
        return entry_content(
            sequence=self.sequence,
            recorded_at=self.recorded_at,
            event=self.event,
            actor_id=self.actor_id,
            actor_name=self.actor_name,
            subject_type=self.subject_type,
            subject_id=self.subject_id,
            payload=self.payload,
        )


class LedgerHead(models.Model):
    """A single row locked while appending, so concurrent writers extend the chain in turn.

    It also says how long the chain is, so that entries cut from its end are noticed. Each
    append moves it, so it cannot be append-only: the database lets it move forward only,
    to an entry of the ledger, and refuses its deletion (migration 0003). Whoever can lift
    that can set it back too, which is why verification also checks anchors kept outside.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    sequence = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"ledger head #{self.sequence}"


class Review(AppendOnly):
    """A pit boss's review of one graded mistake. A correction is a new review pointing back."""

    grade = models.ForeignKey("trainer.Grade", on_delete=models.PROTECT, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews_written"
    )
    comment = models.TextField()
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"review of grade {self.grade_id} by {self.reviewer}"


class RetrainingFlag(AppendOnly):
    """A pit boss's call that a trainee needs retraining (or, as a correction, no longer does)."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="retraining_flags"
    )
    flagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    skills = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True, help_text="False on an entry that lifts a flag.")
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"retraining {'flag' if self.active else 'lifted'} for {self.trainee}"


class Certification(AppendOnly):
    """A signed statement that a trainee is ready to deal a game under a rule profile.

    A signature: the signer re-entered their password; their full name, the time and the
    exact statement and evidence signed are recorded. A withdrawal is a new row that
    points at the one it withdraws.
    """

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="certifications"
    )
    profile = models.ForeignKey(
        "trainer.RuleProfile", on_delete=models.PROTECT, related_name="certifications"
    )
    attempt = models.ForeignKey(
        "trainer.Attempt", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="certifications_signed"
    )
    signer_full_name = models.CharField(max_length=300)
    # The role the signer signed in (trainer.roles.Role's value): a pit boss or an admin.
    signer_role = models.CharField(max_length=32, blank=True)
    signed_at = models.DateTimeField()
    # When the certification lapses (SHOESCHOOL_CERT_VALID_MONTHS after signing); a
    # withdrawal has none.
    expires_at = models.DateTimeField(null=True, blank=True)
    statement = models.TextField()
    evidence = models.JSONField(default=dict)
    # Signed while a retraining flag was in force: why the signer signed regardless, and
    # which flags (ids) that answers.
    override_reason = models.TextField(blank=True)
    flags_overridden = models.JSONField(default=list, blank=True)
    # The warnings the signer acknowledged before signing (e.g. answers faster than
    # plausible), as they were worded to them.
    acknowledged = models.JSONField(default=list, blank=True)
    withdrawn = models.BooleanField(default=False)
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )

    class Meta:
        ordering = ["-signed_at"]

    def __str__(self) -> str:
        return f"certification of {self.trainee} by {self.signer_full_name}"


class ReportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"


class ComplianceReport(models.Model):
    """A compliance report produced for a period, and the file it was stored as."""

    period_start = models.DateField()
    period_end = models.DateField()
    format = models.CharField(max_length=8, choices=[("csv", "CSV"), ("pdf", "PDF")])
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=16, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    error = models.TextField(blank=True)
    file = models.FileField(upload_to="reports/", blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    ledger_head_hash = models.CharField(max_length=64, blank=True)
    # The entry the head hash belongs to: with it the report is an anchor that verification
    # checks the ledger against (an entry with that hash must still be at that position).
    ledger_entries = models.PositiveBigIntegerField(null=True, blank=True)
    ledger_ok = models.BooleanField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.format} report {self.period_start} to {self.period_end}"
