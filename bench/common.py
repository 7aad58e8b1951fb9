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
    """Django set up with the development settings; without DATABASE_URL, on a throwaway
    SQLite database of its own."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
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
