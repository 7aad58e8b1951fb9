"""Benchmark of grading end to end: submitted decisions in PostgreSQL, graded by one worker.

usage: DATABASE_URL=postgres://... [CELERY_BROKER_URL=redis://...] \
       python bench/grading.py [--decisions 100000] [--rounds 10] [--in-process] [--profile]
                               [--reuse] [--limit N] [--path bulk|submit|trainee] [--distinct]
                               [--submitters N]

The database named by DATABASE_URL is migrated and filled with attempts made of the
scenario library's casino-shoe rounds (each round's answer key stored, as dealing does),
about one answer in ten wrong and one question in fifty skipped. Then one `celery worker`
process is started, every attempt is submitted as one batch, and the time from the
request to the last run graded is measured. --in-process grades in this process instead
(no broker, no worker) and --profile prints where that time goes. --reuse skips the load
and submits again the attempts of the newest bench drill (a new run each, graded the
same way), so two builds of the code are compared on the same data; --limit takes only
the first N attempts. Use a scratch database: the bench adds rows and deletes none. After a
fresh load the loaded tables are vacuumed and analyzed, so that autovacuum's first pass
over them does not run in the measurement.

--path submit measures the path a training floor takes: every attempt submitted on its
own (one run and one task each, as a trainee's submit queues), all at once, as a class
finishing an exam together does. --path trainee loads the attempts in progress and submits
each through the submit service the API calls (trainer.services.attempts.attempt_submit:
the attempt closed, its run and ledger entry written, its task queued), each in its own
transaction, one after another (--submitters N: from N processes at once, as the floor's N
web workers serve a class's Submits): what a class's submits cost the server, graded as
they commit. --path bulk (the
default) requests every run at once, as a regrade does. --distinct deals every round fresh
from the generator (as generated exams are) instead of drawing the library's rounds, so no
two rounds share a document and the per-batch caches help less.

A little over 400 lines: one bench, whose load, three paths and figures read best together.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As production runs (the worker started below inherits it): Django's debug cursor, which
# logs every query, cost the worker about 30 % more CPU.
os.environ.setdefault("DEBUG", "false")

import django  # noqa: E402 - the repository root goes on the path first

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from trainer import rules  # noqa: E402
from trainer.games.blackjack.blueprints import table_test_skills  # noqa: E402
from trainer.games.blackjack.generator import generate_round  # noqa: E402
from trainer.models import (  # noqa: E402
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    GradingRun,
    Mode,
    RuleProfileVersion,
    RunStatus,
)
from trainer.services.attempts import attempt_submit  # noqa: E402
from trainer.services.grading.coalesce import grading_run_execute_coalesced  # noqa: E402
from trainer.services.grading.execute import grading_runs_execute  # noqa: E402
from trainer.services.grading.request import (  # noqa: E402
    RUNS_PER_TASK,
    grading_request,
    grading_request_batch,
)

LIBRARY = ROOT / "fixtures" / "scenarios" / "casino-shoe.jsonl"
LOADED = (Attempt, AttemptItem, Decision, get_user_model())


def wrong(expected: dict[str, Any]) -> dict[str, Any]:
    if "amount" in expected:
        return {**expected, "amount": "1.00" if expected["amount"] != "1.00" else "2.00"}
    return {**expected, "answer": "stand" if expected["answer"] != "stand" else "hit"}


def fresh_rounds(rng: random.Random, version: RuleProfileVersion) -> Iterator[dict[str, Any]]:
    """Rounds dealt by the generator, every one new (a generated exam's corpus)."""
    profile = cast(rules.Profile, version.engine_profile)  # blackjack's benchmark
    skills = list(table_test_skills(profile))
    number = 0
    while True:
        number += 1
        yield generate_round(
            rng=rng,
            profile=profile,
            skills=skills,
            min_stake=Decimal("5"),
            max_stake=Decimal("100"),
            max_boxes=3,
            round_id=f"bench-{number}",
        )


def load(
    decisions: int, rounds: int, seed: int, *, distinct: bool = False, submitted: bool = True
) -> list[Attempt]:
    """Attempts of `rounds` rounds each, holding about `decisions` answered questions:
    submitted, or still in progress for their trainee to submit (`submitted=False`)."""
    rng = random.Random(seed)
    documents = [json.loads(line)["scenario"] for line in LIBRARY.read_text().splitlines()]
    keys = [rules.answer_key(doc) for doc in documents]
    version = RuleProfileVersion.objects.filter(profile__name="casino-shoe").order_by("-version")[0]
    fresh = fresh_rounds(rng, version) if distinct else None
    user_model = get_user_model()
    trainee, _ = user_model.objects.get_or_create(username="bench-trainee")
    drill = Drill.objects.create(title="Grading bench", pass_mark=90)
    now = timezone.now()
    made = 0
    attempts: list[Attempt] = []
    while made < decisions:
        # An attempt in progress is its own trainee's (one open attempt a drill each).
        owners = [trainee] * 200
        if not submitted:
            owners = user_model.objects.bulk_create(
                user_model(username=f"bench-{drill.pk}-{len(attempts) + n}") for n in range(200)
            )
        batch = [
            Attempt(
                trainee=owner,
                drill=drill,
                mode=Mode.EXAM,
                status=AttemptStatus.SUBMITTED if submitted else AttemptStatus.IN_PROGRESS,
                submitted_at=now if submitted else None,
            )
            for owner in owners
        ]
        Attempt.objects.bulk_create(batch)
        items: list[AttemptItem] = []
        for attempt in batch:
            for position in range(1, rounds + 1):
                if fresh is not None:
                    document = next(fresh)
                    key = rules.answer_key(document)
                else:
                    i = rng.randrange(len(documents))
                    document, key = documents[i], keys[i]
                items.append(
                    AttemptItem(
                        attempt=attempt,
                        position=position,
                        profile_version=version,
                        document=document,
                        answer_key=key,
                    )
                )
        AttemptItem.objects.bulk_create(items, batch_size=2000)
        answers: list[Decision] = []
        for item in items:
            for question in item.answer_key:
                roll = rng.random()
                if roll < 0.02:
                    continue
                given = wrong(question["expected"]) if roll < 0.12 else question["expected"]
                answers.append(
                    Decision(
                        item=item,
                        question=question["n"],
                        kind=question["kind"],
                        answer=given,
                        shown={},
                        shown_at=now,
                        answered_at=now,
                        response_ms=rng.randrange(800, 9000),
                    )
                )
        Decision.objects.bulk_create(answers, batch_size=5000)
        made += len(answers)
        attempts.extend(batch)
    return attempts


def start_worker(log: Path, concurrency: int = 1) -> subprocess.Popen[bytes]:
    """One `celery worker`: the solo pool, or prefork with that many child processes."""
    out = log.open("wb")
    pool = ("--pool", "solo") if concurrency == 1 else ("--concurrency", str(concurrency))
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", *pool),
            *("--loglevel", "WARNING", "--without-gossip", "--without-mingle"),
        ],
        cwd=ROOT,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    time.sleep(8)  # start-up is not what is measured
    return worker


def submit_all(attempts: list[Attempt], submitters: int) -> float:
    """Every attempt submitted by the submit service, each in its own transaction, from
    `submitters` processes at once (as a floor's web workers serve a class's Submits), each
    taking every n-th attempt in turn; returns those processes' CPU seconds (none for one:
    this process submits, and its CPU is counted already)."""
    if submitters == 1:
        for attempt in attempts:
            attempt_submit(attempt=attempt.pk, user=attempt.trainee)
        return 0.0
    connection.close()  # each child opens its own
    children = []
    for n in range(submitters):
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                for attempt in attempts[n::submitters]:
                    attempt_submit(attempt=attempt.pk, user=attempt.trainee)
            except BaseException:
                traceback.print_exc()
                status = 1
            finally:
                os._exit(status)
        children.append(pid)
    cpu = 0.0
    failed = 0
    for pid in children:
        _, status, usage = os.wait4(pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        failed += status != 0
    if failed:
        sys.exit(f"{failed} of {submitters} submitting processes failed")
    return cpu


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=10, help="rounds per attempt")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--in-process", action="store_true", help="no worker, no broker")
    parser.add_argument("--profile", action="store_true", help="cProfile the in-process run")
    parser.add_argument("--reuse", action="store_true", help="grade the loaded attempts again")
    parser.add_argument("--limit", type=int, default=0, help="only the first N attempts")
    parser.add_argument(
        "--concurrency", type=int, default=1, help="worker processes (1: the solo pool)"
    )
    parser.add_argument(
        "--path",
        choices=("bulk", "submit", "trainee"),
        default="bulk",
        help="bulk: every run requested at once; submit: one run (and task) per attempt, in "
        "one transaction; trainee: each attempt submitted by the submit service in its own",
    )
    parser.add_argument("--distinct", action="store_true", help="fresh generated rounds")
    parser.add_argument(
        "--submitters",
        type=int,
        default=1,
        help="--path trainee: processes submitting at once (a floor's web workers; 1: one "
        "after another)",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a scratch PostgreSQL database")
    call_command("migrate", verbosity=0)

    started = time.perf_counter()
    if args.reuse and args.path == "trainee":
        sys.exit("--path trainee submits attempts in progress: load them afresh (no --reuse)")
    if args.reuse:
        drill = Drill.objects.filter(title="Grading bench").latest("pk")
        attempts = list(Attempt.objects.filter(drill=drill).order_by("pk"))
    else:
        attempts = load(
            args.decisions,
            args.rounds,
            args.seed,
            distinct=args.distinct,
            submitted=args.path != "trainee",
        )
    if args.limit:
        attempts = attempts[: args.limit]
    ids = [a.pk for a in attempts]
    decisions = Decision.objects.filter(item__attempt_id__in=ids).count()
    print(
        f"loaded {decisions:,} decisions in {len(ids):,} attempts "
        f"({time.perf_counter() - started:.1f} s)"
    )
    if not args.reuse:
        # Autovacuum's first pass over the tables just filled would otherwise fall in the
        # measurement, on the same two cores (a floor's tables are not loaded a second ago).
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(m._meta.db_table for m in LOADED)}")
        print(f"vacuumed and analyzed the loaded tables ({time.perf_counter() - started:.1f} s)")

    worker = None
    if not args.in_process:
        log = Path(os.environ.get("BENCH_WORKER_LOG", ROOT / "var" / "bench-grading.log"))
        log.parent.mkdir(parents=True, exist_ok=True)
        worker = start_worker(log, args.concurrency)
    cpu = 0.0
    try:
        started = time.perf_counter()
        cpu_started = time.process_time()
        submitters_cpu = 0.0
        if args.path == "trainee":
            # Each trainee's Submit as the API serves it (the attempt closed, its run and
            # ledger entry written, its task queued on commit): the worker grades the first
            # while the later ones are still coming.
            submitters_cpu = submit_all(attempts, args.submitters)
            runs = list(GradingRun.objects.filter(attempt_id__in=ids))
        elif args.path == "submit":
            # Every trainee of a class pressing Submit at once: one run and one task each,
            # all queued when the transaction commits.
            with transaction.atomic():
                runs = [grading_request(attempt=attempt) for attempt in attempts]
        else:
            with transaction.atomic():
                runs = grading_request_batch(attempts=attempts)
        requested = time.perf_counter() - started
        run_ids = [r.pk for r in runs]
        if args.in_process:
            profiler = cProfile.Profile() if args.profile else None
            if profiler:
                profiler.enable()
            if args.path in ("submit", "trainee"):
                for run_id in run_ids:
                    grading_run_execute_coalesced(run_id=run_id)
            else:
                for start in range(0, len(run_ids), RUNS_PER_TASK):
                    grading_runs_execute(run_ids=run_ids[start : start + RUNS_PER_TASK])
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        else:
            while GradingRun.objects.filter(pk__in=run_ids, status=RunStatus.GRADED).count() < len(
                run_ids
            ):
                time.sleep(0.25)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started + submitters_cpu
        if worker is not None:
            # Includes its start-up, a second or two; prefork children are still running.
            cpu += cpu_seconds(worker.pid) + sum(
                cpu_seconds(int(pid))
                for pid in Path(f"/proc/{worker.pid}/task/{worker.pid}/children")
                .read_text()
                .split()
            )
    finally:
        if worker is not None:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=60)
    graded = GradingRun.objects.filter(pk__in=run_ids, status=RunStatus.GRADED).count()
    grades = sum(GradingRun.objects.filter(pk__in=run_ids).values_list("questions", flat=True))
    where = "in process" if args.in_process else "one worker"
    where += f", {args.path} path{', distinct rounds' if args.distinct else ''}"
    if args.path == "trainee":
        where += f", {args.submitters} submitting at once"
    print(f"requested {len(run_ids):,} runs in {requested:.2f} s")
    print(
        f"graded {graded:,} runs, {grades:,} questions ({decisions:,} decisions) {where} "
        f"in {elapsed:.2f} s: {decisions / elapsed:,.0f} decisions/s, "
        f"{graded / elapsed:,.1f} runs/s"
    )
    after = elapsed - requested
    if args.path == "trainee":
        # The worker grades while the submits come: no rate of its own to single out.
        print(
            f"the submits: one every {1000 * requested / max(1, len(run_ids)):.1f} ms; the last "
            f"run graded {after:.2f} s after the last submit committed"
        )
    else:
        print(
            f"after the request committed: {after:.2f} s, {decisions / after:,.0f} decisions/s "
            "(the worker's own rate: the request's time is the submits', not grading's)"
        )
    print(
        f"CPU of this process{' and the worker' if worker else ''}"
        f"{' and the submitting processes' if args.submitters > 1 else ''}: {cpu:.1f} s "
        f"(wall {elapsed:.1f} s)"
    )


if __name__ == "__main__":
    main()
