"""Grading's wake-ups (core.queue, trainer.services.grading.coalesce): while a run's task is
on its way and has not started, a submit sends none, since that task takes every run
waiting; a batch that comes out full sends one for the runs it left; a batch that fails
grades each run it took alone. On PostgreSQL with Redis; elsewhere every submit sends its
own task (both asserted: the product runs on either).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import connection

from tests.grading.submits import statuses, submitted
from trainer.models import Grade, GradingRun, RunStatus
from trainer.services.grading.coalesce import grading_run_execute_coalesced
from trainer.tasks import grade_run

pytestmark = pytest.mark.django_db(transaction=True)


def wakes_up() -> bool:
    return connection.features.has_select_for_update_skip_locked and (
        settings.CELERY_BROKER_URL.startswith("redis://")
    )


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent, as (name, args): recorded, not given to a worker (this test runs
    them)."""
    from config.celery import app

    tasks: list[tuple[str, tuple[object, ...]]] = []
    recorder = SimpleNamespace(
        conf=app.conf, send_task=lambda name, *, args: tasks.append((name, args))
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
