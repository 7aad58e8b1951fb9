"""Celery tasks of the ledger: thin wrappers that call one service."""

from celery import shared_task

from ledger.services.anchors import ledger_checkpoint_write


# Registered under the name it had in the audit app: the beat schedule (and a scheduler's
# database, and any message already queued) name the task by it.
@shared_task(name="audit.tasks.checkpoint_ledger", acks_late=True)
def checkpoint_ledger() -> int | None:
    """Append the ledger's head, signed, to the checkpoint file; for the beat schedule.

    Returns the entry count recorded, or None when the file's last line already had it
    (so a redelivered task writes nothing twice).
    """
    checkpoint = ledger_checkpoint_write()
    return None if checkpoint is None else checkpoint.entries
