"""The ledger's records: its entries, each hash-chained to the one before, and its head.

The tables keep the names they had when the ledger lived in the audit app (audit_ledgerentry,
audit_ledgerhead). The ledger owns its schema: its own migrations make the tables and the
database's triggers (ledger migration 0001).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models

from core.models import AppendOnly


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


def recorded_at_sql(timestamp: str) -> str:
    """PostgreSQL's text for a timestamptz expression that entry_content gives for it:
    datetime.isoformat() of the UTC instant, with microseconds only when not zero."""
    utc = f"({timestamp} AT TIME ZONE 'UTC')"
    return (
        f"to_char({utc}, 'YYYY-MM-DD\"T\"HH24:MI:SS') || "
        f"CASE WHEN mod(date_part('microseconds', {utc})::bigint, 1000000) = 0 "
        f"THEN '' ELSE to_char({utc}, '.US') END || '+00:00'"
    )


class LedgerEntry(AppendOnly):
    """One link of the tamper-evident chain (see ledger.chain).

    The database refuses UPDATE and DELETE on this table: PostgreSQL through a trigger
    (TRUNCATE too), SQLite through triggers (ledger migration 0001).
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
        db_table = "audit_ledgerentry"
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
    to an entry of the ledger, and refuses its deletion (ledger migration 0001). Whoever can
    lift that can set it back too, which is why verification also checks anchors kept outside.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    sequence = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64)

    class Meta:
        db_table = "audit_ledgerhead"

    def __str__(self) -> str:
        return f"ledger head #{self.sequence}"


class CheckpointTally(models.Model):
    """How many lines have been written to the checkpoint file: the database's side of the
    count (each line states its own number on the file's side). A file holding fewer lines,
    or missing, was emptied, cut short or replaced, and verification says so
    (ledger.services.anchors.checkpoint_file_problems). A single row."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    lines = models.PositiveBigIntegerField(default=0)

    class Meta:
        db_table = "ledger_checkpointtally"

    def __str__(self) -> str:
        return f"{self.lines} checkpoint lines written"
