"""Celery tasks of the audit side: thin wrappers that take an id and call one service."""

from celery import shared_task
from django.db import DatabaseError

from audit.services.notifications import audit_notify_sweep
from audit.services.reports.lifecycle import compliance_report_produce, compliance_report_sweep


# Names spelled out: services queue these by name (core.queue.enqueue), beat schedules them.
@shared_task(
    name="audit.tasks.produce_compliance_report",
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=2,
    max_retries=5,
)
def produce_compliance_report(report_id: int) -> str:
    """Produce a requested report; running it twice leaves one stored file and one log entry."""
    return str(compliance_report_produce(report_id=report_id).status)


@shared_task(name="audit.tasks.sweep_compliance_reports")
def sweep_compliance_reports() -> list[int]:
    """Queue again the reports whose task was lost (a killed worker); for the beat schedule."""
    return compliance_report_sweep()


@shared_task(name="audit.tasks.send_audit_notifications")
def send_audit_notifications() -> int:
    """Beat: e-mails on retraining flags, certifications signed and certifications expiring
    within 30 days, each once however often this runs."""
    return audit_notify_sweep()
