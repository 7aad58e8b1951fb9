"""Celery tasks of the ledger: thin wrappers that call one service."""

import logging

from celery import shared_task

from ledger.services.anchors import ledger_checkpoint_write
from ledger.services.verify import ledger_verify

logger = logging.getLogger("ledger.verify")


@shared_task(name="ledger.tasks.checkpoint_ledger", acks_late=True)
def checkpoint_ledger() -> int | None:
    """Append the ledger's head, signed, to the checkpoint file; for the beat schedule.

    Returns the entry count recorded, or None when the file's last line already had it
    (so a redelivered task writes nothing twice).
    """
    checkpoint = ledger_checkpoint_write()
    return None if checkpoint is None else checkpoint.entries


@shared_task(name="ledger.tasks.verify_ledger_full", acks_late=True)
def verify_ledger_full() -> dict[str, object]:
    """Recompute the whole chain, for the beat schedule: the reports verify only the entries
    after the last checkpoint, so an entry changed in place before it is caught here.

    A ledger that fails is logged at ERROR (for the operator's alerting); reading only,
    so a redelivered task does no harm.
    """
    result = ledger_verify(full=True)
    if not result.ok:
        broken = result.first_break
        logger.error(
            "the ledger FAILS full verification: %s",
            f"entry {broken.sequence}: {broken.reason}"
            if broken is not None
            else "; ".join(result.problems),
        )
    return {"ok": result.ok, "entries": result.entries, "head_hash": result.head_hash}
