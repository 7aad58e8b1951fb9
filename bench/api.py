"""Benchmark of the trainee API: the time each request of the answering loop takes.

usage: python bench/api.py [--attempts 20] [--assignments 200]
       DATABASE_URL=postgres://... python bench/api.py   (a scratch database)

Without DATABASE_URL a throwaway SQLite database in a temporary folder is used. A trainee
takes --attempts practice attempts of a ten-round casino-shoe drill from the scenario
library through Django's test client (the full middleware stack, session auth, JSON in
and out, the ledger written per answer), answering every question right. It prints the
median, 90th percentile and maximum of each endpoint's latency in milliseconds, and the
time to list --assignments assignments. The bench adds rows and deletes none.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["SHOESCHOOL_DATA_DIR"] = tempfile.mkdtemp(prefix="shoeschool-bench-api-")

import django  # noqa: E402 - the repository root goes on the path first

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from trainer.models import (  # noqa: E402
    Assignment,
    AttemptItem,
    Drill,
    DrillScenario,
    Mode,
    RuleProfileVersion,
    Scenario,
)

LIBRARY = ROOT / "fixtures" / "scenarios" / "casino-shoe.jsonl"
ROUNDS = 10
# SQL queries the last request of each endpoint made.
QUERIES: dict[str, int] = {}


def setup(assignments: int) -> tuple[Client, Drill]:
    call_command("migrate", verbosity=0)
    # No password: the client signs in with force_login.
    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}")
    user.groups.add(Group.objects.get(name="trainee"))
    version = RuleProfileVersion.objects.filter(profile__name="casino-shoe").latest("version")
    drill = Drill.objects.create(title=f"bench {user.username}")
    with LIBRARY.open() as lines:
        for position, line in enumerate(lines, start=1):
            if position > ROUNDS:
                break
            entry = json.loads(line)
            document = entry.get("scenario", entry)
            scenario = Scenario.objects.create(
                slug=f"{user.username}-{position}",
                title=document.get("title", "bench"),
                profile_version=version,
                document=document,
            )
            DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    Assignment.objects.bulk_create(
        Assignment(drill=drill, trainee=user, mode=Mode.PRACTICE) for _ in range(assignments)
    )
    client = Client()
    client.force_login(user)
    return client, drill


def timed(samples: dict[str, list[float]], name: str, call: object) -> object:
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = call()  # type: ignore[operator]
        samples[name].append((time.perf_counter() - start) * 1000)
    QUERIES[name] = len(queries)
    return response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=20)
    parser.add_argument("--assignments", type=int, default=200)
    args = parser.parse_args()
    client, drill = setup(args.assignments)
    samples: dict[str, list[float]] = defaultdict(list)
    answers = 0
    loop_start = time.perf_counter()
    for _ in range(args.attempts):
        body = {"drill": drill.pk, "mode": "practice"}
        started = timed(
            samples,
            "POST attempts/",
            lambda body=body: client.post("/api/attempts/", body, content_type="application/json"),
        )
        url = f"/api/attempts/{started.json()['id']}"  # type: ignore[attr-defined]
        keys = {
            item.position: item.answer_key
            for item in AttemptItem.objects.filter(
                attempt_id=started.json()["id"]  # type: ignore[attr-defined]
            )
        }
        while True:
            shown = timed(samples, "GET question", lambda url=url: client.get(f"{url}/question"))
            question = shown.json()["question"]  # type: ignore[attr-defined]
            if question is None:
                break
            expected = keys[question["position"]][question["n"] - 1]["expected"]
            given = {
                "position": question["position"],
                "question": question["n"],
                "answer": expected,
            }
            response = timed(
                samples,
                "POST answers",
                lambda url=url, given=given: client.post(
                    f"{url}/answers", given, content_type="application/json"
                ),
            )
            assert response.status_code == 201, response.content  # type: ignore[attr-defined]
            answers += 1
        timed(samples, "POST submit", lambda url=url: client.post(f"{url}/submit"))
        timed(samples, "GET results", lambda url=url: client.get(f"{url}/results"))
    loop = time.perf_counter() - loop_start
    timed(
        samples,
        f"GET assignments/ ({args.assignments}, page 1)",
        lambda: client.get("/api/assignments/"),
    )

    engine = connection.vendor
    print(f"database: {engine}; {args.attempts} attempts of {ROUNDS} rounds, {answers} answers")
    print(f"answering loop: {loop:.1f} s, {answers / loop:.0f} answers/s (question + answer)")
    print(f"{'endpoint':44} {'n':>5} {'median':>8} {'p90':>8} {'max':>8} (ms) {'queries':>8}")
    for name, values in samples.items():
        values.sort()
        p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
        median = statistics.median(values)
        print(
            f"{name:44} {len(values):5d} {median:8.1f} {p90:8.1f} {values[-1]:8.1f}"
            f"      {QUERIES[name]:8d}"
        )


if __name__ == "__main__":
    main()
