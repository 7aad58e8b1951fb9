"""The backfill of vouches reads the rows only once it holds the ledger's head.

A change being written when the backfill runs (a worker's grading, which appends its
entries last in its transaction) must not be vouched as it was after it commits: found by
the tests' own backfill racing the demo's grading on a live worker.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction

from ledger.services.append import ledger_hold
from ledger.services.verify import ledger_verify
from tests.graded import RIGHT, make_attempt
from tests.vouching import vouch_rows
from trainer.models import GradingRun

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks between two connections"
    ),
]


def test_a_change_committing_while_the_backfill_waits_is_vouched_as_committed(trainee):
    run = GradingRun.objects.get(attempt=make_attempt(trainee=trainee, answers=[RIGHT]))
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        # A grading about to append: its change written, the ledger's head taken.
        try:
            with transaction.atomic():
                GradingRun.objects.filter(pk=run.pk).update(score=Decimal("12.50"))
                ledger_hold()
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(10)
    # The backfill waits for the head; the writer commits meanwhile.
    timer = threading.Timer(0.5, release.set)
    timer.start()
    vouch_rows()
    thread.join(10)
    timer.join()
    assert GradingRun.objects.get(pk=run.pk).score == Decimal("12.50")
    verification = ledger_verify()
    assert verification.ok, verification.problems
