"""Grading's wake-ups (core.queue, trainer.services.grading.coalesce): while a run's task is
on its way and has not started, a submit sends none, since that task takes every run
waiting; one sent soon after the last gathers the submits behind it; a batch that comes
out full sends one for the runs it left; a batch that fails grades each run it took alone.
On PostgreSQL with Redis; elsewhere every submit sends its own task (both asserted: the
product runs on either).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import connection

from tests.grading.submits import statuses, submitted
from trainer.models import Grade, GradingRun, RunStatus
from trainer.services.grading.coalesce import grading_run_execute_coalesced
from trainer.services.grading.request import GRADING_GATHER_SECONDS
from trainer.tasks import grade_run

pytestmark = pytest.mark.django_db(transaction=True)


def wakes_up() -> bool:
    return connection.features.has_select_for_update_skip_locked and (
        settings.CELERY_BROKER_URL.startswith("redis://")
    )


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent, as (name, args): recorded, not given to a worker (this test runs
    them); a countdown (a wake-up gathering) is not recorded."""
    from config.celery import app

    tasks: list[tuple[str, tuple[object, ...]]] = []
    recorder = SimpleNamespace(
        conf=app.conf, send_task=lambda name, *, args, **_: tasks.append((name, args))
    )
    monkeypatch.setattr("core.queue.current_app", recorder)
    return tasks


def test_submits_behind_a_wake_up_not_started_send_none_and_are_graded_by_it(attempt_of, sent):
    runs = submitted(attempt_of, 5)
    if not wakes_up():
        assert sent == [("trainer.tasks.grade_run", (run.pk,)) for run in runs]
        return
    assert sent == [("trainer.tasks.grade_run", (runs[0].pk,))]
    assert grade_run.run(runs[0].pk) == RunStatus.GRADED
    assert statuses(runs) == [RunStatus.GRADED] * 5
    assert Grade.objects.filter(run__in=runs).count() == 5 * 7
    # Once it started, the next submit sends its own.
    (later,) = submitted(attempt_of, 1)
    assert sent[1:] == [("trainer.tasks.grade_run", (later.pk,))]


def test_a_full_batch_sends_a_wake_up_for_the_runs_it_left(attempt_of, sent):
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no SKIP LOCKED: a task grades its own run only")
    # Made without tasks, as submits behind a wake-up are.
    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(3)
    ]
    done = grading_run_execute_coalesced(run_id=runs[0].pk, most=2)
    assert sorted(done) == [runs[0].pk, runs[1].pk]
    assert sent == [("trainer.tasks.grade_run", (runs[1].pk,))]
    # That task, its run graded already, takes the one left.
    assert grade_run.run(runs[1].pk) == RunStatus.GRADED
    assert statuses(runs) == [RunStatus.GRADED] * 3
    # A batch with room to spare sent nothing more.
    assert len(sent) == 1


def test_a_batch_that_fails_grades_each_run_it_took_alone(attempt_of, sent, monkeypatch):
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no SKIP LOCKED: a task grades its own run only")
    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(3)
    ]

    def fails(**_: object) -> None:
        raise ValueError("a bug in one round")

    # The batch fails; each run graded alone (trainer.tasks) goes another way.
    monkeypatch.setattr("trainer.services.grading.coalesce.grading_runs_execute", fails)
    assert grade_run.run(runs[1].pk) == RunStatus.GRADED
    assert statuses(runs) == [RunStatus.GRADED] * 3
    assert Grade.objects.filter(run__in=runs).count() == 3 * 7


def test_submits_coming_fast_are_gathered_into_one_batch_and_a_first_goes_at_once(
    attempt_of, monkeypatch
):
    if not wakes_up():
        pytest.skip("the marks live in Redis and the batches need SKIP LOCKED")
    from config.celery import app

    options: list[dict[str, object]] = []
    recorder = SimpleNamespace(
        conf=app.conf, send_task=lambda name, *, args, **given: options.append(given)
    )
    monkeypatch.setattr("core.queue.current_app", recorder)
    (first,) = submitted(attempt_of, 1)
    assert options == [{}]  # nothing sent lately: at once
    assert grade_run.run(first.pk) == RunStatus.GRADED
    # The next submit, a moment after: its wake-up waits for the ones behind it, which
    # send none and are graded with it, in one batch.
    runs = submitted(attempt_of, 3)
    assert options[1:] == [{"countdown": GRADING_GATHER_SECONDS}]
    assert grade_run.run(runs[0].pk) == RunStatus.GRADED
    assert statuses(runs) == [RunStatus.GRADED] * 3
    started = {GradingRun.objects.get(pk=run.pk).started_at for run in runs}
    assert len(started) == 1


def test_a_full_batch_queues_the_runs_it_left_at_once_even_behind_a_wake_up(
    attempt_of, sent, monkeypatch
):
    if not wakes_up():
        pytest.skip("the marks live in Redis and the batches need SKIP LOCKED")
    from trainer.services.grading import coalesce

    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(3)
    ]
    grade = coalesce.grading_runs_execute

    def while_the_class_submits(**given: object) -> dict[int, str]:
        # A submit while the batch is graded: its wake-up goes on its way (and, coming soon
        # after another, would gather for half a second).
        submitted(attempt_of, 1)
        return grade(**given)

    monkeypatch.setattr(coalesce, "grading_runs_execute", while_the_class_submits)
    done = grading_run_execute_coalesced(run_id=runs[0].pk, most=2)
    assert sorted(done) == [runs[0].pk, runs[1].pk]
    # The runs left are there already: their task is sent, the wake-up on its way or not.
    assert len(sent) == 2
    assert sent[1] == ("trainer.tasks.grade_run", (runs[1].pk,))


def test_a_big_batch_puts_the_wake_ups_in_a_hurry_and_a_small_one_does_not(
    attempt_of, sent, monkeypatch
):
    if not wakes_up():
        pytest.skip("the marks live in Redis and the batches need SKIP LOCKED")
    from core.queue import _broker_redis, _hurry_key
    from trainer.services.grading import coalesce

    monkeypatch.setattr(coalesce, "GRADING_HURRY_AT", 3)
    hurry = _hurry_key(coalesce.GRADING_BELL)
    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(2)
    ]
    grading_run_execute_coalesced(run_id=runs[0].pk)
    assert statuses(runs) == [RunStatus.GRADED] * 2
    assert not _broker_redis().exists(hurry)
    runs = [
        GradingRun.objects.create(attempt=attempt_of(), number=1, trigger="submit")
        for _ in range(3)
    ]
    grading_run_execute_coalesced(run_id=runs[0].pk)
    assert statuses(runs) == [RunStatus.GRADED] * 3
    assert _broker_redis().exists(hurry)  # what it does: tests/test_queue.py
