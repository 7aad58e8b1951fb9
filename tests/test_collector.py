"""core.collector: Python's cycle collector kept out of bulk work (issue #29), and the
worker's start-up set aside from it."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator

import pytest
from celery.signals import worker_init, worker_process_init

import config.celery
from core.collector import collection_paused, objects_kept_out_of_collection


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_in_the_block_and_back_after(collector_on):
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_comes_back_after_an_error(collector_on):
    with pytest.raises(RuntimeError), collection_paused():
        raise RuntimeError("a batch failed")
    assert gc.isenabled()


def test_a_collector_someone_turned_off_stays_off(collector_on):
    gc.disable()
    with collection_paused():
        pass
    assert not gc.isenabled()


def test_it_stays_off_until_the_last_of_two_threads_ends(collector_on):
    inside, leave = threading.Event(), threading.Event()

    def other_batch() -> None:
        with collection_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other_batch)
    thread.start()
    assert inside.wait(10)
    with collection_paused():
        pass
    # This thread's block ended; the other's has not: the collector waits for it.
    assert not gc.isenabled()
    leave.set()
    thread.join(10)
    assert gc.isenabled()


@pytest.mark.parametrize("signal", [worker_init, worker_process_init])
def test_a_worker_starting_sets_what_it_built_aside(signal):
    # Called here, not sent: the signal's other receivers (Celery's Django fix-up) would
    # act on this test process.
    receivers = [ref() if isinstance(ref, weakref.ref) else ref for _, ref in signal.receivers]
    assert config.celery._start_up_kept_out_of_collection in receivers
    before = gc.get_freeze_count()
    try:
        config.celery._start_up_kept_out_of_collection()
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


def test_objects_set_aside_are_not_walked_again():
    kept = [object() for _ in range(1000)]
    try:
        objects_kept_out_of_collection()
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()
