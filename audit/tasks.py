"""Celery tasks of the audit side: thin wrappers that take an id and call one service."""

from celery import shared_task
from django.db import DatabaseError

from audit.services.anchors import ledger_checkpoint_write
from audit.services.reports import compliance_report_produce, compliance_report_sweep


@shared_task(acks_late=True, autoretry_for=(DatabaseError,), retry_backoff=2, max_retries=5)
def produce_compliance_report(report_id: int) -> str:
    """Produce a requested report; running it twice leaves one stored file and one log entry."""
    return str(compliance_report_produce(report_id=report_id).status)


@shared_task
def sweep_compliance_reports() -> list[int]:
    """Queue again the reports whose task was lost (a killed worker); for the beat schedule."""
    return compliance_report_sweep()


@shared_task(acks_late=True)
def checkpoint_ledger() -> int | None:
    """Append the ledger's head, signed, to the checkpoint file; for the beat schedule.

    Returns the entry count recorded, or None when the file's last line already had it
    (so a redelivered task writes nothing twice).
    """
    checkpoint = ledger_checkpoint_write()
    return None if checkpoint is None else checkpoint.entries
