"""Waiting for a real worker to finish, without a timed assertion."""

import time
from collections.abc import Callable

from django.db import OperationalError


def wait_for(condition: Callable[[], bool], *, seconds: float = 60, every: float = 0.2) -> bool:
    """True once condition() holds; False if it still does not after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _holds(condition):
            return True
        time.sleep(every)
    return _holds(condition)


def _holds(condition: Callable[[], bool]) -> bool:
    try:
        return condition()
    except OperationalError:
        # SQLite's shared in-memory test database refuses a read while the worker thread
        # writes ("table is locked") instead of waiting: ask again on the next turn.
        return False
