"""What the benchmarks that drive Django in their own process share: setting it up, a
drill from the scenario library, and timing a request with its query count."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trainer.models import Drill

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "fixtures" / "scenarios" / "casino-shoe.jsonl"
# SQL queries the last timed call of each name made.
QUERIES: dict[str, int] = {}


def django_ready(name: str) -> None:
    """Django set up with the development settings, DEBUG off as in production (its cursor
    logs every query); without DATABASE_URL, on a throwaway SQLite database of its own."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "false")
    if "DATABASE_URL" not in os.environ:
        os.environ["SHOESCHOOL_DATA_DIR"] = tempfile.mkdtemp(prefix=f"shoeschool-bench-{name}-")
    import django

    django.setup()


def library_drill(rounds: int, tag: str) -> Drill:
    """A drill of ``rounds`` casino-shoe scenarios from the library, in its order (again
    from the start when the library runs out), its scenarios' slugs made from ``tag``."""
    from trainer.models import Drill, DrillScenario, RuleProfileVersion, Scenario

    version = RuleProfileVersion.objects.filter(profile__name="casino-shoe").latest("version")
    drill = Drill.objects.create(title=f"bench {tag}")
    with LIBRARY.open() as lines:
        documents = [entry.get("scenario", entry) for entry in map(json.loads, lines)]
    for position in range(1, rounds + 1):
        document = documents[(position - 1) % len(documents)]
        scenario = Scenario.objects.create(
            slug=f"{tag}-{position}",
            title=document.get("title", "bench"),
            profile_version=version,
            document=document,
        )
        DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    return drill


def timed(samples: dict[str, list[float]], name: str, call: Callable[[], Any]) -> Any:
    """``call()``, its milliseconds added to ``samples[name]``, its queries to QUERIES."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = call()
        samples[name].append((time.perf_counter() - start) * 1000)
    QUERIES[name] = len(queries)
    return response


def process_cpu(pid: int) -> float:
    """User plus system CPU seconds of one process so far (0 if it is gone), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm_workers(
    request: Callable[[], Any], pids: list[int], *, at_once: int, rounds: int = 20
) -> int:
    """Call ``request`` ``at_once`` at a time until every web worker in ``pids`` has served
    some (its CPU moved), so that no worker's first, cold request lands in what is measured;
    at most ``rounds`` rounds. Returns how many workers are still cold (0 when all warmed)."""
    from concurrent.futures import ThreadPoolExecutor

    cold = set(pids)
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        for _ in range(rounds):
            if not cold:
                break
            before = {pid: process_cpu(pid) for pid in cold}
            list(pool.map(lambda _: request(), range(at_once)))
            cold = {pid for pid in cold if process_cpu(pid) <= before[pid]}
    return len(cold)
