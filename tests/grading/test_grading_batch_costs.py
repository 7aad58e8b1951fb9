"""What a grading batch spends besides grading (issue #29): Python's cycle collector, the
deferred foreign-key checks, and the runs' start."""

from __future__ import annotations

import gc

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.postgres import deferred_checks_run
from trainer.models import Attempt, GradingRun, GradingStatus, RunStatus
from trainer.services.grading import execute
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.lease import grading_lease
from trainer.services.grading.request import grading_request
from trainer.services.grading.start import grading_runs_mark_started

pytestmark = pytest.mark.django_db


def test_a_batch_is_graded_with_the_collector_waiting(attempt_of, monkeypatch):
    seen: list[bool] = []
    save = execute.run_summaries_save

    def summaries_save(**kwargs):
        seen.append(gc.isenabled())
        return save(**kwargs)

    monkeypatch.setattr(execute, "run_summaries_save", summaries_save)
    was = gc.isenabled()
    gc.enable()
    try:
        run = grading_run_execute(run_id=grading_request(attempt=attempt_of()).pk)
        assert run.status == RunStatus.GRADED
        assert seen == [False]
        assert gc.isenabled()
    finally:
        if not was:
            gc.disable()


def test_deferred_checks_run_at_once_after_it(attempt_of):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite checks foreign keys at once whatever is asked")
    attempt = attempt_of()
    missing = Attempt.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
    # Deferred, as Django makes every foreign key: a run of no attempt is refused only at
    # the commit (here a savepoint rolled back before then).
    with transaction.atomic():
        sid = transaction.savepoint()
        GradingRun.objects.create(attempt_id=missing, number=1, trigger="submit")
        transaction.savepoint_rollback(sid)
        deferred_checks_run()
        with pytest.raises(IntegrityError), transaction.atomic():
            GradingRun.objects.create(attempt_id=missing, number=1, trigger="submit")
        # A right one still goes in.
        GradingRun.objects.create(attempt=attempt, number=9, trigger="submit")


def test_starting_runs_marks_them_and_their_attempts_where_the_run_is_newest(attempt_of, pit_boss):
    older, only = attempt_of(), attempt_of()
    first = grading_request(attempt=older)
    grading_request(attempt=older, trigger="regrade", reason="fix", requested_by=pit_boss)
    alone = grading_request(attempt=only)
    Attempt.objects.filter(pk=older.pk).update(grading_status=GradingStatus.GRADED)
    before = timezone.now()
    with transaction.atomic():
        grading_runs_mark_started(runs=[first, alone])
    for run in (first, alone):
        run.refresh_from_db()
        assert run.status == RunStatus.GRADING
        assert before + grading_lease() <= run.claimed_until
    # The older attempt's newest run (the regrade) is not among them: its status stays.
    assert Attempt.objects.get(pk=older.pk).grading_status == GradingStatus.GRADED
    assert Attempt.objects.get(pk=only.pk).grading_status == GradingStatus.GRADING
