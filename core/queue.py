"""Queueing a Celery task from a service, by its registered name, once the transaction commits.

Services queue tasks; tasks call services. Naming the task instead of importing it keeps the
arrow one way: a service module never imports its app's tasks module.

A wake-up (`enqueue_wake_up`) is a task that takes whatever work is waiting when it starts,
not just its own: grading on the submission path, where a class's submits come faster than
one at a time. While one sent for the same bell has not started yet, sending another would
only give a worker a task that finds its work done, so it is not sent (on a Redis broker,
where a key marks it on its way; on any other broker every wake-up is sent).

A wake-up may also gather: sent within a moment of the bell's previous one, it is sent that
moment late, so the work arriving meanwhile is taken with it in one go. A batch's fixed cost
(a task, its queries, its commit) is then paid once for many, while work that comes alone is
still taken at once, and so is work coming so fast that its batches come out big anyway.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from celery import current_app
from django.db import InterfaceError, OperationalError, transaction

logger = logging.getLogger(__name__)

# A database that cannot be reached: what the tasks retry, and what a service a task calls
# lets through untouched for it.
DATABASE_ERRORS = (OperationalError, InterfaceError)


def enqueue(task_name: str, *args: Any) -> None:
    """Send the task registered as `task_name` with `args` when the current transaction
    commits (at once outside one); nothing is sent if it rolls back.

    A broker that cannot be reached then is logged, not raised: the change is committed
    and its sweep sends the task again (grading runs and compliance reports are left
    pending), so the request that made it must not answer 500 as if it had failed.
    """

    def send() -> None:
        current_app.send_task(task_name, args=args)

    # A function of its own, not a partial: Django names the callback when it logs it.
    send.__qualname__ = f"enqueue({task_name})"
    transaction.on_commit(send, robust=True)


def enqueue_wake_up(
    task_name: str, *args: Any, bell: str, lasting: float, gather: float = 0.0
) -> None:
    """As `enqueue`, unless a wake-up sent for `bell` has not started yet: that one, when it
    starts (`wake_up_started`), takes the work this transaction commits, which is committed
    before the check. The mark lasts `lasting` seconds at most, so a wake-up lost with its
    worker holds back the later ones no longer than that (the work's own sweep covers it
    meanwhile). The task must call `wake_up_started(bell)` before it looks for work.

    With `gather` (seconds), a wake-up sent less than twice that after the bell's previous
    one is sent `gather` seconds late (Celery's countdown), and the work committed meanwhile
    waits for it instead of sending wake-ups of its own: work arriving faster than that is
    taken in batches, work arriving alone at once. Not while the bell is in a hurry
    (`wake_up_hurry`: its batches come out big without waiting). Only on a Redis broker, as
    the mark.
    """

    def send() -> None:
        client = _broker_redis()
        late: dict[str, Any] = {}
        if client is not None:
            try:
                if not client.set(_key(bell), 1, nx=True, ex=max(1, round(lasting))):
                    return
                if gather:
                    # Each wake-up sent renews the window; one already there says the work
                    # is coming fast. SET ... GET and the hurry's check: one round trip.
                    window = max(1, round(2000 * gather))
                    both = client.pipeline(transaction=False)
                    both.set(_sent_key(bell), 1, px=window, get=True)
                    both.exists(_hurry_key(bell))
                    recent, hurry = both.execute()
                    if recent and not hurry:
                        late["countdown"] = gather
            except redis.RedisError:
                logger.warning("could not mark a wake-up for %s on its way; sending it", bell)
        try:
            current_app.send_task(task_name, args=args, **late)
        except Exception:
            # Not on its way after all: the next one is sent (on_commit logs this one).
            wake_up_started(bell)
            raise

    send.__qualname__ = f"enqueue_wake_up({task_name})"
    transaction.on_commit(send, robust=True)


def wake_up_started(bell: str) -> None:
    """Called by a wake-up task before it looks for work: a wake-up sent from now on is sent
    (the work committed before it may be after this one's look)."""
    client = _broker_redis()
    if client is None:
        return
    try:
        client.delete(_key(bell))
    except redis.RedisError:
        # The mark runs out on its own: the work waits at most that long, or its sweep.
        logger.warning("could not clear the wake-up mark of %s", bell)


def wake_up_hurry(bell: str, *, lasting: float) -> None:
    """Called by a wake-up task whose batch came out big: the work waiting is already
    enough to batch, so for `lasting` seconds the bell's wake-ups are sent at once, not
    gathered (gathering longer would only leave the worker idle behind a queue)."""
    client = _broker_redis()
    if client is None:
        return
    try:
        client.set(_hurry_key(bell), 1, px=max(1, round(1000 * lasting)))
    except redis.RedisError:
        # The wake-ups gather meanwhile: a little later, never lost.
        logger.warning("could not mark %s in a hurry", bell)


def _key(bell: str) -> str:
    return f"shoeschool:wake-up:{bell}"


def _sent_key(bell: str) -> str:
    """Present while a wake-up of the bell was sent within its gather window."""
    return f"shoeschool:wake-up:{bell}:sent"


def _hurry_key(bell: str) -> str:
    """Present while the bell's wake-ups go at once (`wake_up_hurry`)."""
    return f"shoeschool:wake-up:{bell}:hurry"


_clients: dict[str, redis.Redis] = {}


def _broker_redis() -> redis.Redis | None:
    """A client of the broker's Redis (one a process: redis-py's pool opens connections
    anew in a forked child), or None for any other broker."""
    url = str(current_app.conf.broker_url or "")
    if not url.startswith(("redis://", "rediss://")):
        return None
    client = _clients.get(url)
    if client is None:
        # A submit waits on this in its request: a Redis that does not answer is passed
        # over (the wake-up is sent) within seconds, not waited for.
        client = _clients[url] = redis.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2
        )
    return client
