"""core.queue's wake-ups: one on its way and not started stands for the ones after it.

Against the broker's real Redis (CI sets it); the sends are recorded instead of reaching a
worker. On any other broker every wake-up is sent.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.conf import settings

from core.queue import enqueue_wake_up, wake_up_hurry, wake_up_started
from tests.wake_ups import forget

# The wake-ups are sent when the transaction commits (outside one, at once): no test-wide
# transaction around them.
pytestmark = pytest.mark.django_db(transaction=True)

BELL = "test-bell"
needs_redis = pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith("redis://"),
    reason="needs Redis (CELERY_BROKER_URL=redis://...): the mark lives there; CI sets it",
)


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent, as (name, args, *options), through a broker at `broker_url` (the
    configured one unless a test changes it)."""
    tasks: list[tuple[str, tuple[object, ...]]] = []
    app = SimpleNamespace(
        conf=SimpleNamespace(broker_url=settings.CELERY_BROKER_URL),
        send_task=lambda name, *, args, **options: tasks.append((name, args, *options.items())),
    )
    monkeypatch.setattr("core.queue.current_app", app)
    forget(BELL)
    yield tasks
    forget(BELL)


@needs_redis
def test_a_wake_up_on_its_way_stands_for_the_later_ones_until_it_starts(sent):
    for n in range(3):
        enqueue_wake_up("some.task", n, bell=BELL, lasting=60)
    assert sent == [("some.task", (0,))]
    wake_up_started(BELL)
    enqueue_wake_up("some.task", 3, bell=BELL, lasting=60)
    enqueue_wake_up("some.task", 4, bell=BELL, lasting=60)
    assert sent == [("some.task", (0,)), ("some.task", (3,))]


@needs_redis
def test_each_bell_has_its_own_wake_up(sent):
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=60)
    enqueue_wake_up("other.task", 2, bell=f"{BELL}-other", lasting=60)
    wake_up_started(f"{BELL}-other")
    assert sent == [("some.task", (1,)), ("other.task", (2,))]


@needs_redis
def test_a_wake_up_lost_holds_back_the_next_ones_no_longer_than_it_lasts(sent):
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=1)
    enqueue_wake_up("some.task", 2, bell=BELL, lasting=1)
    assert len(sent) == 1
    time.sleep(2.1)  # Redis expires the mark (whole seconds)
    enqueue_wake_up("some.task", 3, bell=BELL, lasting=1)
    assert sent == [("some.task", (1,)), ("some.task", (3,))]


def test_a_wake_up_is_sent_only_once_its_transaction_commits(sent):
    from django.db import transaction

    with transaction.atomic():
        enqueue_wake_up("some.task", 1, bell=BELL, lasting=60)
        transaction.set_rollback(True)
    assert sent == []
    with transaction.atomic():
        enqueue_wake_up("some.task", 2, bell=BELL, lasting=60)
        assert sent == []
    assert sent == [("some.task", (2,))]


def test_a_redis_that_does_not_answer_is_passed_over_and_the_wake_up_sent(sent, caplog):
    from core import queue

    queue.current_app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=60)
    enqueue_wake_up("some.task", 2, bell=BELL, lasting=60)
    assert sent == [("some.task", (1,)), ("some.task", (2,))]
    assert "sending it" in caplog.text
    wake_up_started(BELL)  # nor does clearing the mark raise
    assert "could not clear" in caplog.text


def test_on_a_broker_other_than_redis_every_wake_up_is_sent(sent):
    from core import queue

    queue.current_app.conf.broker_url = "filesystem://"
    for n in range(3):
        enqueue_wake_up("some.task", n, bell=BELL, lasting=60)
    assert sent == [("some.task", (n,)) for n in range(3)]


@needs_redis
def test_a_wake_up_the_broker_refused_is_not_marked_on_its_way(sent):
    from core import queue

    record = queue.current_app.send_task

    def refused(name, *, args):
        raise ConnectionError("the broker is down")

    queue.current_app.send_task = refused
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=60)  # logged by on_commit, not raised
    queue.current_app.send_task = record
    enqueue_wake_up("some.task", 2, bell=BELL, lasting=60)
    assert sent == [("some.task", (2,))]


@needs_redis
def test_a_wake_up_sent_soon_after_the_last_gathers_and_one_alone_goes_at_once(sent):
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=60, gather=0.5)
    assert sent == [("some.task", (1,))]  # the first: nothing sent lately, at once
    wake_up_started(BELL)
    # Work coming fast: the next wake-up waits half a second for what follows it,
    enqueue_wake_up("some.task", 2, bell=BELL, lasting=60, gather=0.5)
    # and what follows waits for it.
    enqueue_wake_up("some.task", 3, bell=BELL, lasting=60, gather=0.5)
    assert sent[1:] == [("some.task", (2,), ("countdown", 0.5))]
    wake_up_started(BELL)
    # Each one sent renews the window (twice the gather): still fast, still gathered.
    time.sleep(0.6)
    enqueue_wake_up("some.task", 4, bell=BELL, lasting=60, gather=0.5)
    assert sent[2:] == [("some.task", (4,), ("countdown", 0.5))]
    wake_up_started(BELL)
    # After a quiet second, work comes alone again: at once.
    time.sleep(1.1)
    enqueue_wake_up("some.task", 5, bell=BELL, lasting=60, gather=0.5)
    assert sent[3:] == [("some.task", (5,))]


@needs_redis
def test_without_gather_a_wake_up_is_never_late(sent):
    for n in range(3):
        enqueue_wake_up("some.task", n, bell=BELL, lasting=60)
        wake_up_started(BELL)
    assert sent == [("some.task", (n,)) for n in range(3)]


@needs_redis
def test_a_bell_in_a_hurry_sends_its_wake_ups_at_once_and_gathers_again_after(sent):
    enqueue_wake_up("some.task", 1, bell=BELL, lasting=60, gather=1.0)
    wake_up_started(BELL)
    # Its batch came out big: the work is coming fast enough to batch itself.
    wake_up_hurry(BELL, lasting=0.5)
    enqueue_wake_up("some.task", 2, bell=BELL, lasting=60, gather=1.0)
    assert sent[1:] == [("some.task", (2,))]
    wake_up_started(BELL)
    time.sleep(0.6)  # the hurry is over; a wake-up was sent less than two seconds ago
    enqueue_wake_up("some.task", 3, bell=BELL, lasting=60, gather=1.0)
    assert sent[2:] == [("some.task", (3,), ("countdown", 1.0))]
