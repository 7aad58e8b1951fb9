"""Verifying the ledger while grading goes on (a compliance officer's check on a live floor):
a run graded between the chain's walk and the rows' check is not reported as changed
behind the application. On PostgreSQL, where the verification reads one snapshot."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from ledger.services import verify
from ledger.services.verify import ledger_verify
from tests.grading.submits import statuses
from trainer.models import GradingRun, RunStatus
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.request import grading_request

pytestmark = pytest.mark.django_db(transaction=True)


def _graded_elsewhere(run_id: int) -> None:
    """The worker grades the run on a connection of its own, and commits."""

    def grade() -> None:
        try:
            grading_runs_execute(run_ids=[run_id])
        finally:
            connection.close()

    worker = threading.Thread(target=grade)
    worker.start()
    worker.join()


def test_a_run_graded_while_the_ledger_is_verified_is_not_taken_for_tampering(
    attempt_of, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("one snapshot on PostgreSQL only (SQLite's transactions lock for writing)")
    with transaction.atomic():
        run = grading_request(attempt=attempt_of())
    walked_then_graded = []
    check_rows = verify.records_verify

    def grading_meanwhile(**given: object) -> object:
        # The chain is walked; before the rows are compared with it, the run is graded.
        _graded_elsewhere(run.pk)
        walked_then_graded.append(True)
        return check_rows(**given)

    monkeypatch.setattr(verify, "records_verify", grading_meanwhile)
    result = ledger_verify(full=True)
    assert walked_then_graded
    assert statuses([run]) == [RunStatus.GRADED]
    assert result.ok, result.problems
    # And verified again, the run and its entry are both there.
    monkeypatch.setattr(verify, "records_verify", check_rows)
    assert ledger_verify(full=True).ok
    assert GradingRun.objects.get(pk=run.pk).status == RunStatus.GRADED
