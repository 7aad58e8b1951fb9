"""A wake-up bell (core.queue) as if none was ever sent, for tests that count sends."""

from __future__ import annotations

import contextlib

import redis

from core.queue import _broker_redis, _hurry_key, _sent_key, wake_up_started


def forget(bell: str) -> None:
    """None on its way, none sent lately, no hurry. Quiet when the broker's Redis does not
    answer (a test of just that may have pointed it nowhere)."""
    wake_up_started(bell)
    client = _broker_redis()
    if client is not None:
        with contextlib.suppress(redis.RedisError):
            client.delete(_sent_key(bell), _hurry_key(bell))
