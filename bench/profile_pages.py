"""The work a pit page does, counted: Python function calls per request, not seconds.

usage: DATABASE_URL=postgres://... python bench/profile_pages.py fill    (a scratch database)
       DATABASE_URL=... python bench/profile_pages.py prof PATH USERNAME

`fill` loads 30,000 graded decisions of 50 trainees with bench/dashboard.py's fill; `prof`
requests PATH (e.g. /pit/) as USERNAME (bench-boss, bench-compliance) ten times through
Django's test client with the cached figures emptied each time, under cProfile, and prints
the calls a request makes, the median CPU milliseconds and the costliest functions. Call
counts do not move with the machine's load, so two trees compare on a shared machine where
their timings cannot (docs/benchmarks.md, "Issue 25, re-measured").
"""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import bench.dashboard as dashboard  # noqa: E402

REQUESTS = 10


def profile(path: str, username: str) -> None:
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username=username))
    for _ in range(3):  # warm: templates compiled, the games loaded
        cache.clear()
        client.get(path, HTTP_HOST="127.0.0.1")
    profiler = cProfile.Profile()
    cpu = []
    for _ in range(REQUESTS):
        cache.clear()
        started = time.process_time()
        profiler.enable()
        response = client.get(path, HTTP_HOST="127.0.0.1")
        profiler.disable()
        cpu.append((time.process_time() - started) * 1000)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    print(
        f"{path} as {username} ({response.status_code}): "
        f"{stats.total_calls / REQUESTS:,.0f} calls a request (primitive "  # type: ignore[attr-defined]
        f"{stats.prim_calls / REQUESTS:,.0f}), "  # type: ignore[attr-defined]
        f"median CPU {statistics.median(cpu):.0f} ms profiled"
    )
    stats.sort_stats("tottime").print_stats(20)
    print(out.getvalue())


def main() -> None:
    dashboard.django_setup()
    if sys.argv[1:2] == ["fill"]:
        dashboard.fill(trainees=50, classes=5, decisions=30_000, seed=7)
        dashboard.summarize()
    elif sys.argv[1:2] == ["prof"] and len(sys.argv) == 4:
        profile(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
