import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core.errors import ConflictError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from trainer.models import Attempt, GradingRun, GradingStatus, RunStatus, RunTrigger
from trainer.services.attempts import attempt_submit
from trainer.services.grading.request import grading_request, grading_request_batch
from trainer.services.grading.sweep import grading_sweep

pytestmark = pytest.mark.django_db


def test_it_creates_a_pending_run_and_marks_the_attempt_pending(attempt_of, trainee):
    attempt = attempt_of()
    run = grading_request(attempt=attempt)
    assert (run.number, run.trigger, run.status) == (1, RunTrigger.SUBMIT, RunStatus.PENDING)
    attempt.refresh_from_db()
    assert attempt.grading_status == GradingStatus.PENDING
    assert attempt.grading_queued_at is not None


def test_it_records_the_submission_in_the_ledger_as_the_trainee(attempt_of, trainee):
    attempt = attempt_of()
    run = grading_request(attempt=attempt)
    entry = LedgerEntry.objects.get(event=Event.ATTEMPT_SUBMITTED)
    assert entry.subject_id == str(attempt.pk)
    assert entry.payload["run"] == run.pk
    assert entry.actor_id == trainee.pk
    assert ledger_verify().ok


def test_it_numbers_each_new_run_after_the_last(attempt_of, pit_boss):
    attempt = attempt_of()
    grading_request(attempt=attempt)
    second = grading_request(
        attempt=attempt, trigger=RunTrigger.REGRADE, reason="fix", requested_by=pit_boss
    )
    assert second.number == 2
    assert LedgerEntry.objects.get(event=Event.REGRADE_REQUESTED).actor_id == pit_boss.pk


def test_it_refuses_an_attempt_that_is_not_submitted(attempt_of):
    attempt = attempt_of(submitted=False)
    with pytest.raises(ConflictError, match="not submitted"):
        grading_request(attempt=attempt)
    assert not GradingRun.objects.exists()


def test_it_refuses_an_unknown_trigger(attempt_of):
    with pytest.raises(ProductError, match="trigger"):
        grading_request(attempt=attempt_of(), trigger="whim")


def test_a_batch_is_all_or_nothing(attempt_of):
    good = attempt_of()
    bad = attempt_of(submitted=False)
    with pytest.raises(ConflictError):
        grading_request_batch(attempts=[good, bad])
    assert not GradingRun.objects.exists()
    assert Attempt.objects.get(pk=good.pk).grading_status == GradingStatus.NOT_SUBMITTED


def test_it_queues_the_run_only_when_the_transaction_commits(
    attempt_of, django_capture_on_commit_callbacks
):
    attempt = attempt_of()
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        grading_request(attempt=attempt)
        assert callbacks == []
    assert len(callbacks) == 1


def test_the_sweep_leaves_runs_queued_recently_alone(attempt_of):
    grading_request(attempt=attempt_of())
    assert grading_sweep() == []


def test_a_submit_takes_the_ledgers_head_last(attempt_of, trainee):
    # Every writer of the ledger waits for its head: the submit saves the attempt first and
    # locks the head with its entry, its last statement, so it holds the head only until
    # the commit (issue #29: submits waited 12 ms on average for it beside the worker).
    attempt = attempt_of(submitted=False)
    with CaptureQueriesContext(connection) as queries:
        attempt_submit(attempt=attempt.pk, user=trainee)
    statements = [query["sql"] for query in queries.captured_queries]
    head = next(n for n, s in enumerate(statements) if 'FROM "audit_ledgerhead"' in s)
    saved = next(n for n, s in enumerate(statements) if s.startswith('UPDATE "trainer_attempt"'))
    assert saved < head
    after = [s for s in statements[head + 1 :] if not s.startswith(("RELEASE", "COMMIT"))]
    # Nothing but the entry and the head's move: on PostgreSQL in the statement that takes
    # the head, elsewhere after it.
    assert all("audit_ledger" in s for s in after), after
    assert any('INSERT INTO "audit_ledgerentry"' in s for s in [statements[head], *after])
    assert len(after) == (0 if connection.vendor == "postgresql" else 2)
    attempt.refresh_from_db()
    assert (attempt.status, attempt.grading_status) == ("submitted", GradingStatus.PENDING)
    assert ledger_verify().ok
