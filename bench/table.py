"""Benchmark of the trainee's table pages: the time each page of the answering loop takes.

usage: python bench/table.py [--attempts 5] [--rounds 10]
       DATABASE_URL=postgres://... python bench/table.py   (a scratch database)

Without DATABASE_URL a throwaway SQLite database in a temporary folder is used. A trainee
takes --attempts practice attempts of a casino-shoe drill of --rounds rounds from the
scenario library through Django's test client and the HTML forms (the full middleware
stack, session auth, CSRF off as in the test client, templates rendered), answering every
question right: GET the table, POST the answer, GET the feedback page after each round.
It prints each page's median, 90th percentile and maximum latency and its SQL query count,
and the time to deal a start of 10 and 100 rounds. The bench adds rows and deletes none.
"""

from __future__ import annotations

import argparse
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
from bench.common import QUERIES, django_ready, library_drill, timed  # noqa: E402

django_ready("table")

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from trainer.models import (  # noqa: E402
    AttemptItem,
    Drill,
    Mode,
)
from trainer.rules import MONEY_KINDS  # noqa: E402
from trainer.services.attempts import attempt_start  # noqa: E402


def form_of(expected: dict[str, Any], kind: str) -> dict[str, str]:
    """The HTML form's fields that give the expected answer."""
    if kind in MONEY_KINDS:
        return {"action": expected["action"], "amount": expected["amount"]}
    if kind == "peek":
        return {"answer": "peek:natural" if expected["dealer_blackjack"] else "peek:clear"}
    return {"answer": expected["answer"]}


def one_attempt(client: Client, drill: Drill, rounds: int, samples: dict[str, list[float]]) -> int:
    """Start an attempt through the home page's form and answer it all right; the answers."""
    started = timed(
        samples,
        f"POST start ({rounds} rounds)",
        lambda: client.post("/train/start/", {"drill": drill.pk, "mode": "practice"}),
    )
    table = started["Location"]
    attempt_id = int(table.strip("/").split("/")[-1])
    keys = {
        item.position: item.answer_key for item in AttemptItem.objects.filter(attempt_id=attempt_id)
    }
    answers = 0
    for position, key in sorted(keys.items()):
        for item in key:
            page = timed(samples, "GET table", lambda: client.get(table))
            assert page.status_code == 200, page.status_code
            fields = {"position": position, "question": item["n"]}
            fields.update(form_of(item["expected"], item["kind"]))
            answered = timed(
                samples, "POST answer", partial(client.post, f"{table}answer/", fields)
            )
            assert answered.status_code == 302, answered.content
            answers += 1
        timed(samples, "GET feedback", partial(client.get, f"{table}rounds/{position}/feedback/"))
    timed(samples, "POST submit", lambda: client.post(f"{table}submit/"))
    timed(samples, "GET results (pending)", lambda: client.get(f"{table}results/"))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    tag = f"bench-{time.time_ns()}"
    user = get_user_model().objects.create_user(tag)
    user.groups.add(Group.objects.get(name="trainee"))
    client = Client()
    client.force_login(user)
    drill = library_drill(args.rounds, tag)

    samples: dict[str, list[float]] = defaultdict(list)
    answers = 0
    loop_start = time.perf_counter()
    for _ in range(args.attempts):
        answers += one_attempt(client, drill, args.rounds, samples)
    loop = time.perf_counter() - loop_start
    timed(samples, "GET /train/ (home)", lambda: client.get("/train/"))

    deals = {}
    for rounds in (10, 100):
        big = library_drill(rounds, f"{tag}-deal{rounds}")
        start = time.perf_counter()
        attempt_start(trainee=user, drill=big, mode=Mode.PRACTICE)
        deals[rounds] = (time.perf_counter() - start) * 1000

    print(
        f"database: {connection.vendor}; {args.attempts} attempts of {args.rounds} rounds, "
        f"{answers} answers"
    )
    print(f"answering loop: {loop:.1f} s, {answers / loop:.1f} answers/s (page + answer)")
    print(f"{'page':32} {'n':>5} {'median':>8} {'p90':>8} {'max':>8} (ms) {'queries':>8}")
    for name, values in samples.items():
        values.sort()
        p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
        print(
            f"{name:32} {len(values):5d} {statistics.median(values):8.1f} {p90:8.1f} "
            f"{values[-1]:8.1f}      {QUERIES[name]:8d}"
        )
    for rounds, ms in deals.items():
        print(f"attempt_start, {rounds} rounds dealt and keyed: {ms:.0f} ms")


if __name__ == "__main__":
    main()
