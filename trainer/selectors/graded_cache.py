"""Figures cached per trainee under the version of that trainee's graded work.

A newly graded run recomputes its own trainee's figures only, and shows at once in every
process; the timeout only bounds how long figures nobody asks for again stay in memory.
Used by the dashboard figures and the certification evidence.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
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
