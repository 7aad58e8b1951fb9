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
import statistics
import sys
import time
from collections import defaultdict
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench.common import QUERIES, django_ready, library_drill, timed  # noqa: E402

django_ready("api")

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from trainer.games.blackjack import answer_fields  # noqa: E402
from trainer.models import (  # noqa: E402
    Assignment,
    AttemptItem,
    Drill,
    Mode,
)

ROUNDS = 10


def setup(assignments: int) -> tuple[Client, Drill]:
    call_command("migrate", verbosity=0)
    # No password: the client signs in with force_login.
    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}")
    user.groups.add(Group.objects.get(name="trainee"))
    drill = library_drill(ROUNDS, user.username)
    Assignment.objects.bulk_create(
        Assignment(drill=drill, trainee=user, mode=Mode.PRACTICE) for _ in range(assignments)
    )
    client = Client()
    client.force_login(user)
    return client, drill


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
            partial(client.post, "/api/attempts/", body, content_type="application/json"),
        )
        url = f"/api/attempts/{started.json()['id']}"
        keys = {
            item.position: item.answer_key
            for item in AttemptItem.objects.filter(attempt_id=started.json()["id"])
        }
        while True:
            shown = timed(samples, "GET question", partial(client.get, f"{url}/question"))
            question = shown.json()["question"]
            if question is None:
                break
            expected = keys[question["position"]][question["n"] - 1]["expected"]
            # The right answer as a dealer sends it: only the fields an answer takes.
            fields = answer_fields(question["kind"])
            given = {
                "position": question["position"],
                "question": question["n"],
                "answer": {name: value for name, value in expected.items() if name in fields},
            }
            response = timed(
                samples,
                "POST answers",
                partial(client.post, f"{url}/answers", given, content_type="application/json"),
            )
            assert response.status_code == 201, response.content
            answers += 1
        timed(samples, "POST submit", partial(client.post, f"{url}/submit"))
        timed(samples, "GET results", partial(client.get, f"{url}/results"))
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
