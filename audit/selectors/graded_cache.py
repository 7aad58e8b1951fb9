"""Figures cached per trainee under the version of that trainee's graded work.

A newly graded run recomputes its own trainee's figures only, and shows at once in every
process; the timeout only bounds how long figures nobody asks for again stay in memory.
Used by the dashboard figures and the certification evidence.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max

from trainer.models import GradingRunSummary

FIGURES_CACHE_SECONDS = 6 * 3600
# The prefix of every figures key; its number changes with the shape of what is cached
# (v2: tallies hold the chip questions' figures), so no process reads an older shape.
FIGURES_KEY = "shoeschool:stats:v2"
_T = TypeVar("_T")
log = logging.getLogger(__name__)


def graded_versions(trainee_ids: Sequence[int]) -> dict[int, str]:
    """For each of these trainees with graded work, a text that changes whenever one of
    their runs is graded: summaries are only ever inserted, never changed or deleted, so
    their count and newest key tell every version apart. One query."""
    rows = (
        GradingRunSummary.objects.filter(trainee_id__in=trainee_ids)
        .order_by()
        .values_list("trainee_id")
        .annotate(n=Count("pk"), last=Max("pk"))
    )
    return {trainee_id: f"{n}.{last}" for trainee_id, n, last in rows}


def graded_generation() -> str:
    """A text that changes whenever anybody's run is graded: the count and newest key of
    all the summaries (only ever inserted, as above), read from the primary key's index.

    A few milliseconds however many trainees are in view, where graded_versions over
    two thousand of them costs tens: what keys a figure over many trainees. It is the
    database's, so a grading in any process shows in every other at once, whatever wrote
    the summary (the grading service, a backfill, a benchmark's COPY)."""
    row = GradingRunSummary.objects.order_by().aggregate(n=Count("pk"), last=Max("pk"))
    return f"{row['n']}.{row['last']}"


_turns: dict[str, tuple[threading.Lock, int]] = {}
_turns_guard = threading.Lock()


@contextmanager
def taking_turns(key: str) -> Iterator[None]:
    """Threads of this process working out what is to be kept under ``key`` go one at a
    time: the first computes and keeps it, the next finds it kept (read the cache again
    inside). A page's first showings come several at once, and each thread adding up the
    same two thousand trainees side by side made every one of them wait for all."""
    with _turns_guard:
        lock, waiting = _turns.get(key) or (threading.Lock(), 0)
        _turns[key] = (lock, waiting + 1)
    try:
        with lock:
            yield
    finally:
        with _turns_guard:
            lock, waiting = _turns[key]
            if waiting == 1:
                del _turns[key]
            else:
                _turns[key] = (lock, waiting - 1)


def cache_get(key: str) -> object:
    """What the cache holds under ``key`` (None when nothing, or the cache is unreachable)."""
    try:
        return cache.get(key)
    except Exception:  # any cache backend's failure to connect
        log.warning("figures cache unreachable: %s read without it", key, exc_info=True)
        return None


def cache_set(key: str, value: object) -> None:
    try:
        cache.set(key, value, FIGURES_CACHE_SECONDS)
    except Exception:  # as above
        log.warning("figures cache unreachable: %s not kept", key, exc_info=True)


def per_trainee(
    name: str,
    versions: Mapping[int, str],
    params: object,
    compute: Callable[[list[int]], Mapping[int, _T]],
    nothing: _T,
) -> dict[int, _T]:
    """``compute(trainee_ids)`` for each trainee, reusing what the cache holds for the same
    trainee, graded work and parameters; ``nothing`` for a trainee compute leaves out."""
    digest = hashlib.sha256(repr(params).encode()).hexdigest()[:32]
    keys = {
        trainee_id: f"{FIGURES_KEY}:{name}:{trainee_id}:{version}:{digest}"
        for trainee_id, version in versions.items()
    }
    # The cache only saves work: while it is unreachable (Redis restarting), the figures
    # are computed as if nothing were cached, and the page still answers.
    try:
        found = cache.get_many(list(keys.values()))
    except Exception:  # any cache backend's failure to connect
        log.warning("figures cache unreachable: computing %s without it", name, exc_info=True)
        found = {}
    result = {trainee_id: found[key] for trainee_id, key in keys.items() if key in found}
    missing = sorted(set(keys) - set(result))
    if missing:
        computed = compute(missing)
        fresh = {trainee_id: computed.get(trainee_id, nothing) for trainee_id in missing}
        try:
            cache.set_many({keys[t]: v for t, v in fresh.items()}, FIGURES_CACHE_SECONDS)
        except Exception:  # as above
            log.warning("figures cache unreachable: %s not kept", name, exc_info=True)
        result.update(fresh)
    return result
