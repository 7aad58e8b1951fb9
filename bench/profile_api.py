"""The answering loop's work, counted: queries and Python function calls per request.

usage: python bench/profile_api.py [--attempts 3] [--sql]
       DATABASE_URL=postgres://... python bench/profile_api.py   (a scratch database)

A trainee takes --attempts practice attempts of bench/api.py's ten-round drill through
Django's test client (the full middleware stack, session auth, the ledger per answer).
Every request of the loop (the start, each question and answer, the submit, and the
results once graded) and the grading of the submitted run, as a worker's task grades it,
run under cProfile and CaptureQueriesContext. It prints, per step, the queries it makes
(the median; the attempt's first question also
starts its clock), the Python function calls a request makes and its CPU time (under the
profiler: a guide, which moves with the machine); --sql lists the statements of a request
of each endpoint for each count seen, --top N the N functions heaviest (--sort cumulative
or tottime) over all of an endpoint's requests. Neither count moves with the machine's
load, so two trees compare on a shared machine where their timings cannot
(docs/benchmarks.md, "Issue 29: the answer path, counted").
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.api import setup  # noqa: E402  (sets Django up)
from trainer.games.blackjack import answer_fields  # noqa: E402
from trainer.models import AttemptItem, GradingRun  # noqa: E402
from trainer.services.grading.coalesce import grading_run_execute_coalesced  # noqa: E402

QUERIES: dict[str, list[int]] = defaultdict(list)
CALLS: dict[str, list[int]] = defaultdict(list)
# CPU milliseconds of this process (under cProfile, so inflated): moves with the machine.
CPU: dict[str, list[float]] = defaultdict(list)
SQL: dict[str, dict[int, list[str]]] = defaultdict(dict)
# Every counted request's profile, by endpoint, for --top.
PROFILES: dict[str, list[cProfile.Profile]] = defaultdict(list)


def counted(name: str, call: Any) -> Any:
    profiler = cProfile.Profile()
    with CaptureQueriesContext(connection) as queries:
        began = time.process_time()
        profiler.enable()
        response = call()
        profiler.disable()
        CPU[name].append(1000 * (time.process_time() - began))
    QUERIES[name].append(len(queries))
    CALLS[name].append(pstats.Stats(profiler).total_calls)  # type: ignore[attr-defined]
    SQL[name].setdefault(len(queries), [q["sql"] for q in queries.captured_queries])
    PROFILES[name].append(profiler)
    return response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=3)
    parser.add_argument("--sql", action="store_true")
    parser.add_argument(
        "--top", type=int, default=0, help="list each endpoint's N heaviest functions"
    )
    parser.add_argument(
        "--sort",
        choices=("cumulative", "tottime"),
        default="cumulative",
        help="--top's order: time with what a function calls, or its own time",
    )
    args = parser.parse_args()
    client, drill = setup(1)
    for n in range(args.attempts + 1):  # the first attempt warms: not counted
        label = "" if n else "warm "
        body = {"drill": drill.pk, "mode": "practice"}
        started = counted(
            f"{label}POST start",
            partial(client.post, "/api/attempts/", body, content_type="application/json"),
        )
        url = f"/api/attempts/{started.json()['id']}"
        keys = {
            item.position: item.answer_key
            for item in AttemptItem.objects.filter(attempt_id=started.json()["id"])
        }
        while True:
            shown = counted(f"{label}GET question", partial(client.get, f"{url}/question"))
            question = shown.json()["question"]
            if question is None:
                break
            expected = keys[question["position"]][question["n"] - 1]["expected"]
            fields = answer_fields(question["kind"])
            given = {
                "position": question["position"],
                "question": question["n"],
                "answer": {k: v for k, v in expected.items() if k in fields},
            }
            response = counted(
                f"{label}POST answers",
                partial(client.post, f"{url}/answers", given, content_type="application/json"),
            )
            assert response.status_code == 201, response.content
        counted(f"{label}POST submit", partial(client.post, f"{url}/submit"))
        # Graded here, as a worker would, so that the results are the feedback a trainee
        # reads (before grading they are a pending status).
        run = GradingRun.objects.get(attempt_id=started.json()["id"])
        counted(f"{label}grade (worker)", partial(grading_run_execute_coalesced, run_id=run.pk))
        counted(f"{label}GET results", partial(client.get, f"{url}/results"))
    print(f"database: {connection.vendor}; {args.attempts} attempts of 10 rounds counted")
    print(
        f"{'endpoint':20} {'n':>5} {'queries (median, min-max)':>28} {'calls/request':>14}"
        f" {'CPU ms (median)':>16}"
    )
    for name in QUERIES:
        if name.startswith("warm "):
            continue
        q = QUERIES[name]
        print(
            f"{name:20} {len(q):5d} {statistics.median(q):>14.0f} ({min(q)}-{max(q)})"
            f"{' ' * 8}{statistics.mean(CALLS[name]):>12,.0f}"
            f" {statistics.median(CPU[name]):>16.1f}"
        )
        if args.sql:
            for size in sorted(SQL[name]):
                print(f"   a request of {size} queries:")
                for sql in SQL[name][size]:
                    print("    ", sql[:230])
        if args.top:
            stats = pstats.Stats(PROFILES[name][0])
            for profile in PROFILES[name][1:]:
                stats.add(profile)
            stats.sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
