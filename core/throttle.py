"""A count of requests per client address in a window, in the cache (the public verify
page's limit: docs/security.md, *The public verify page*).

`throttle_hit` counts one request of `scope` from the request's client address (the
address the password lockout counts against, `core.lockout.client_address`) and says how
many seconds it must wait when it is over `limit` in the current window of `window`
seconds; None when it may go on. Fixed windows: a burst at a window's end and the next's
start gets at most twice the limit, which is enough to stop guessing.
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache
from django.http import HttpRequest

from core.lockout import client_address


def throttle_hit(request: HttpRequest, *, scope: str, limit: int, window: int) -> int | None:
    """Count this request; the seconds to wait if it is over the limit, else None."""
    now = int(time.time())
    start = now - now % window
    address = client_address(request) or "unknown"
    digest = hashlib.sha256(address.encode()).hexdigest()[:32]
    key = f"throttle:{scope}:{digest}:{start}"
    cache.add(key, 0, timeout=window + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 5)
        count = 1
    if count > limit:
        return max(start + window - now, 1)
    return None
