"""Benchmark of the pit's pages on PostgreSQL under concurrent load, on loopback.

usage: DATABASE_URL=postgres://... python bench/dashboard.py
           [--trainees 200] [--classes 10] [--decisions 1000000] [--skip-fill]
           [--concurrency 8] [--requests 200] [--seconds 60] [--port 8765] [--no-cache]
           [--grade-every SECONDS]

Fills the database (migrated first) with graded work: `--decisions` decisions, each with
its grade, across `--trainees` trainees in `--classes` classes, loaded with COPY. Then
starts the app under gunicorn on 127.0.0.1, logs in as a pit boss (one class) and as a
compliance officer (every class), and requests each pit page from a thread pool: at most
`--requests` requests or `--seconds` seconds per page. Prints p50/p95/p99 latency per page,
the gunicorn workers' CPU per request, and, one request at a time in this process, each
page's wall time, SQL time and query count three ways: with the cache emptied, just after
one trainee's run is graded, and with nothing new.

The figures are cached per trainee under the version of that trainee's graded work, so
the server computes a trainee's figures again only after one of their runs is graded.
`--no-cache` serves the pages with a cache that keeps nothing (every request computes
every figure); `--grade-every S` has a thread stand in for a graded run every S seconds
while the pages are measured. Standing in for a graded run (`grade_again`) adds a graded
run to one trainee's newest attempt with a copy of its summary: the figures stay the
same, but that trainee's cached figures are stale, as after a real grading.

The grades are loaded directly, not through the grading service, so their run summaries
are built after the fill (`build_run_summaries`, timed).
The database must be a throwaway one: the fill refuses to run if it already holds grades.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PASSWORD = "bench-password-not-secret"  # noqa: S105 - a throwaway database's accounts
QUESTIONS_PER_ROUND = 5
ROUNDS_PER_ATTEMPT = 50
SKILLS = ["natural-3to2", "rounding", "dealer-bust", "push", "soft-17", "split", "insurance"]
# In the pit boss's class, and not the trainee whose pages are measured.
REGRADED_TRAINEE = "trainee0010"
CATEGORIES = ["overpay", "underpay", "wrong_outcome", "procedure_error", "insurance_error"]


def stub_key(questions: int) -> str:
    """A round's stored answer key for the fill: one item per question (settle p1's hand,
    pay 15.00), so the run summaries read the key stored, as for a dealt round, instead of
    asking the engine for the key of the fill's stub document, which has no cards (an empty
    key is recomputed since issue #24)."""
    return json.dumps(
        [
            {"n": n, "kind": "settle_hand", "box": 1, "hand": 1, "player": "p1", "prompt": "",
             "expected": {"action": "pay", "amount": "15.00"}, "rule": "", "view": {}}
            for n in range(1, questions + 1)
        ]
    )  # fmt: skip


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_ENV", "development")
    import django

    django.setup()


def accounts(*, trainees: int, classes: int) -> list[Any]:
    """The pit boss (teaching the first class), the compliance officer and the trainees,
    dealt into the classes in turn; every password is PASSWORD."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group, User

    from trainer.models import TrainingClass

    hashed = make_password(PASSWORD)
    groups = {g.name: g for g in Group.objects.all()}
    boss = User.objects.create(
        username="bench-boss", first_name="Bench", last_name="Boss", password=hashed
    )
    boss.groups.add(groups["pit_boss"])
    officer = User.objects.create(
        username="bench-compliance", first_name="Bench", last_name="Officer", password=hashed
    )
    officer.groups.add(groups["compliance"])
    people = User.objects.bulk_create(
        User(
            username=f"trainee{n:04d}", first_name="Trainee", last_name=f"{n:04d}", password=hashed
        )
        for n in range(trainees)
    )
    groups["trainee"].user_set.add(*people)
    for c in range(classes):
        training_class = TrainingClass.objects.create(name=f"Bench class {c + 1}")
        training_class.trainees.add(*people[c::classes])
        if c == 0:
            training_class.instructors.add(boss)
    return people


def fill(*, trainees: int, classes: int, decisions: int, seed: int) -> None:
    """Users, classes and graded attempts, written with COPY in a few large statements."""
    from django.core.management import call_command
    from django.db import connection

    from trainer.models import (
        Attempt,
        AttemptItem,
        Decision,
        Drill,
        Grade,
        GradingRun,
        RuleProfileVersion,
    )

    call_command("migrate", verbosity=0)
    if Grade.objects.exists():
        print("the database already holds grades: skipping the fill")
        return
    rng = random.Random(seed)
    started = time.perf_counter()
    people = accounts(trainees=trainees, classes=classes)
    versions = list(RuleProfileVersion.objects.filter(version=1))
    drill = Drill.objects.create(title="Bench exam", kind="generated", profile_version=versions[0])

    per_attempt = ROUNDS_PER_ATTEMPT * QUESTIONS_PER_ROUND
    attempts_total = max(1, decisions // per_attempt)
    now = datetime.now(UTC)
    attempt_rows: list[tuple[Any, ...]] = []
    run_rows: list[tuple[Any, ...]] = []
    item_rows: list[tuple[Any, ...]] = []
    decision_rows: list[tuple[Any, ...]] = []
    grade_rows: list[tuple[Any, ...]] = []
    item_id = decision_id = 0
    for attempt_id in range(1, attempts_total + 1):
        trainee = people[(attempt_id - 1) % trainees]
        when = now - timedelta(days=rng.randint(0, 180), seconds=rng.randint(0, 86400))
        skill_rate = rng.uniform(0.85, 0.99)
        version = rng.choice(versions)
        right_total = 0
        grades_here = []
        for position in range(1, ROUNDS_PER_ATTEMPT + 1):
            item_id += 1
            skills = rng.sample(SKILLS, 2)
            item_rows.append((item_id, attempt_id, position, version.pk, skills))
            for question in range(1, QUESTIONS_PER_ROUND + 1):
                decision_id += 1
                ms = int(rng.lognormvariate(8.3, 0.5))
                right = rng.random() < skill_rate
                right_total += right
                diff = "0.00" if right else f"{rng.choice([-5, -2.5, -1, 1, 2.5, 5]):.2f}"
                category = "" if right else rng.choice(CATEGORIES)
                decision_rows.append((decision_id, item_id, question, ms, when))
                grades_here.append((item_id, question, decision_id, right, diff, category, ms))
        score = round(100 * right_total / per_attempt, 2)
        attempt_rows.append((attempt_id, trainee.pk, drill.pk, when, score))
        run_rows.append((attempt_id, attempt_id, when, per_attempt, right_total, score))
        grade_rows.extend((attempt_id, *g) for g in grades_here)

    document = json.dumps({"format": "blackjack-scenario/1", "skills": []})
    key = stub_key(QUESTIONS_PER_ROUND)
    with connection.cursor() as cursor:
        raw = cursor.connection
        with raw.cursor().copy(
            f"COPY {Attempt._meta.db_table} (id, trainee_id, drill_id, mode, status, "
            "grading_status, grading_error, started_at, submitted_at, graded_at, score, passed) "
            "FROM STDIN"
        ) as copy:
            for pk, trainee_id, drill_id, when, score in attempt_rows:
                copy.write_row(
                    (
                        pk,
                        trainee_id,
                        drill_id,
                        "exam",
                        "submitted",
                        "graded",
                        "",
                        when,
                        when,
                        when,
                        score,
                        score >= 95,
                    )
                )
        with raw.cursor().copy(
            f"COPY {GradingRun._meta.db_table} (id, attempt_id, number, trigger, reason, status, "
            "error, created_at, finished_at, questions, correct, score, passed, overpaid, "
            "underpaid, basis) FROM STDIN"
        ) as copy:
            for pk, attempt_id, when, questions, correct, score in run_rows:
                copy.write_row(
                    (
                        pk,
                        attempt_id,
                        1,
                        "submit",
                        "",
                        "graded",
                        "",
                        when,
                        when,
                        questions,
                        correct,
                        score,
                        score >= 95,
                        "0.00",
                        "0.00",
                        "{}",
                    )
                )
        with raw.cursor().copy(
            f"COPY {AttemptItem._meta.db_table} (id, attempt_id, position, profile_version_id, "
            "document, answer_key, questions_shown) FROM STDIN"
        ) as copy:
            for pk, attempt_id, position, version_id, skills in item_rows:
                doc = document.replace('"skills": []', f'"skills": {json.dumps(skills)}')
                copy.write_row((pk, attempt_id, position, version_id, doc, key, "{}"))
        with raw.cursor().copy(
            f"COPY {Decision._meta.db_table} (id, item_id, question, kind, answer, shown, "
            "shown_at, answered_at, response_ms, created_at, late) FROM STDIN"
        ) as copy:
            answer = json.dumps({"action": "pay", "amount": "15.00"})
            for pk, item, question, ms, when in decision_rows:
                copy.write_row(
                    (pk, item, question, "settle_hand", answer, "{}", when, when, ms, when, False)
                )
        with raw.cursor().copy(
            f"COPY {Grade._meta.db_table} (run_id, item_id, question, decision_id, kind, "
            "correct, expected, given, money_diff, category, rule, response_ms) FROM STDIN"
        ) as copy:
            expected = json.dumps({"action": "pay", "amount": "15.00"})
            for run_id, item, question, decision, right, diff, category, ms in grade_rows:
                copy.write_row(
                    (
                        run_id,
                        item,
                        question,
                        decision,
                        "settle_hand",
                        right,
                        expected,
                        expected,
                        diff,
                        category,
                        "Blackjack pays 3 to 2",
                        ms,
                    )
                )
        for model in (Attempt, GradingRun, AttemptItem, Decision, Grade):
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute("ANALYZE")
    print(
        f"filled {len(decision_rows):,} decisions and grades, {len(item_rows):,} rounds, "
        f"{len(attempt_rows):,} attempts, {trainees} trainees in {classes} classes "
        f"in {time.perf_counter() - started:.0f} s"
    )


def summarize() -> None:
    """Migrate, then build the summaries of runs that have none (the COPY skipped them)."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    cpu = time.process_time()
    message = call_command("build_run_summaries", stdout=io.StringIO())
    print(
        f"build_run_summaries: {message} (wall {time.perf_counter() - started:.1f} s, "
        f"this process's CPU {time.process_time() - cpu:.1f} s)"
    )


def grade_again(username: str) -> None:
    """Stand in for a run graded: a new graded run of the trainee's newest attempt, with a
    copy of the current run's summary (same figures, no grades of its own). It changes the
    trainee's graded-data version as grading does, and the data only by that copy."""
    from trainer.models import GradingRun, GradingRunSummary, RunStatus
    from trainer.selectors.runs import current_summaries

    summary = current_summaries().filter(trainee__username=username).order_by("-pk").first()
    assert summary is not None
    current = summary.run
    run = GradingRun.objects.create(
        attempt_id=current.attempt_id,
        number=current.number + 1,
        trigger=current.trigger,
        status=RunStatus.GRADED,
        questions=current.questions,
        correct=current.correct,
        score=current.score,
        passed=current.passed,
        overpaid=current.overpaid,
        underpaid=current.underpaid,
    )
    summary.run = run
    summary.number = run.number
    GradingRunSummary.objects.bulk_create([summary])


class _Grading:
    """A thread standing in for the grading workers: grade_again every ``every`` seconds."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.count = 0
        self._stop = threading.Event()
        self._running = threading.Event()
        self._running.set()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        from django.db import connection

        while not self._stop.wait(self.every):
            if self._running.is_set():
                grade_again(REGRADED_TRAINEE)
                self.count += 1
        connection.close()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        self._running.clear()
        try:
            yield
        finally:
            self._running.set()

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.count


def in_process(username: str, path: str, *, repeat: int = 3) -> str:
    """One request at a time through Django's test client, in this process: with the
    cached figures emptied first, after one trainee's run is graded (see grade_again) and
    with nothing new, each the last of ``repeat`` requests' wall time, SQL time and query
    count."""
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(User.objects.get(username=username))
    figures = []
    for case in ("not cached", "after a grading", "cached"):
        for _ in range(repeat):
            if case == "not cached":
                cache.clear()
            elif case == "after a grading":
                grade_again(REGRADED_TRAINEE)
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(path, HTTP_HOST="127.0.0.1")
            wall = (time.perf_counter() - started) * 1000
        sql = sum(float(q["time"]) for q in queries.captured_queries) * 1000
        figures.append(
            f"{case} {wall:.0f} ms, SQL {sql:.0f} ms in "
            f"{len(queries.captured_queries)} queries ({response.status_code})"
        )
    return "one at a time: " + "; ".join(figures)


def _cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU of these processes so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


class Session:
    """A logged-in browser session on loopback: the session cookie, nothing else."""

    def __init__(self, port: int, username: str) -> None:
        self.port = port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/accounts/login/")
        response = conn.getresponse()
        body = response.read().decode()
        cookies = _cookies(response)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert token, "no CSRF token on the login page"
        form = urlencode(
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
        )
        conn.request(
            "POST",
            "/accounts/login/",
            body=form,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                "Referer": f"http://127.0.0.1:{port}/accounts/login/",
            },
        )
        response = conn.getresponse()
        response.read()
        cookies |= _cookies(response)
        assert "sessionid" in cookies, f"log-in as {username} failed ({response.status})"
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())

    def get(self, path: str) -> tuple[int, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        started = time.perf_counter()
        conn.request("GET", path, headers={"Cookie": self.cookie})
        response = conn.getresponse()
        response.read()
        elapsed = time.perf_counter() - started
        conn.close()
        return response.status, elapsed * 1000


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    found = {}
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            found[name] = rest.split(";", 1)[0]
    return found


def measure(
    session: Session,
    path: str,
    *,
    concurrency: int,
    count: int,
    seconds: float,
    workers: list[int] | None = None,
) -> None:
    from bench.common import warm_workers

    # Every web worker serves the page once before it is measured: a worker's first showing
    # (its connection, caches, imports: 1.5 s at ten million decisions) is not the page's p99.
    session.get(path)
    if workers:
        cold = warm_workers(lambda: session.get(path), workers, at_once=concurrency * 2)
        if cold:
            print(f"{path:<44} {cold} of {len(workers)} web workers still cold after warming")
    deadline = time.monotonic() + seconds
    cpu_before = _cpu_seconds(workers or [])

    def one(_: int) -> tuple[int, float] | None:
        if time.monotonic() > deadline:
            return None
        return session.get(path)

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        results = [r for r in pool.map(one, range(count)) if r is not None]
    cpu_ms = (_cpu_seconds(workers or []) - cpu_before) * 1000 / max(1, len(results))
    times = sorted(ms for _, ms in results)
    if not times:
        print(f"{path:<44} no request finished within {seconds:.0f} s")
        return
    bad = sum(1 for status, _ in results if status != 200)
    q = statistics.quantiles(times, n=100, method="inclusive") if len(times) > 1 else times * 99
    print(
        f"{path:<44} n={len(times):<4} p50={q[49]:7.0f} ms  p95={q[94]:7.0f} ms  "
        f"p99={q[98]:7.0f} ms  non-200={bad}  server CPU {cpu_ms:5.0f} ms/request"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trainees", type=int, default=200)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip-fill", action="store_true")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument(
        "--grade-every",
        type=float,
        default=0,
        metavar="SECONDS",
        help=f"while measuring, stand in for a graded run of {REGRADED_TRAINEE} this often",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="serve with a cache that keeps nothing: every request computes its figures",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL to a throwaway PostgreSQL database")
    django_setup()
    if not args.skip_fill:
        fill(trainees=args.trainees, classes=args.classes, decisions=args.decisions, seed=args.seed)
    summarize()

    from django.contrib.auth.models import User

    from trainer.models import Grade

    trainee = User.objects.get(username="trainee0000")
    grade = Grade.objects.filter(run__attempt__trainee=trainee, correct=False).first()
    assert grade is not None

    env = {**os.environ, "DEBUG": "false", "DJANGO_SETTINGS_MODULE": "config.settings"}
    if args.no_cache:
        env["CACHE_URL"] = "dummycache://"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait_for(args.port)
        workers = _workers(server.pid)
        print(
            f"gunicorn: {args.workers} workers x 4 threads, cache "
            f"{'off' if args.no_cache else os.environ.get('CACHE_URL', 'in each process')}; "
            f"{args.concurrency} concurrent "
            f"clients; up to {args.requests} requests or {args.seconds:.0f} s per page; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        pages = {
            "bench-boss": [
                "/pit/",
                "/pit/?profile=casino-shoe&skill=rounding",
                f"/pit/trainees/{trainee.pk}/",
                f"/pit/grades/{grade.pk}/",
            ],
            "bench-compliance": ["/pit/", f"/pit/trainees/{trainee.pk}/"],
        }
        grading = _Grading(args.grade_every) if args.grade_every > 0 else None
        for username, paths in pages.items():
            session = Session(args.port, username)
            print(f"as {username}:")
            for path in paths:
                measure(
                    session,
                    path,
                    concurrency=args.concurrency,
                    count=args.requests,
                    seconds=args.seconds,
                    workers=workers,
                )
                if grading is not None:
                    with grading.paused():
                        print(f"{'':<44} {in_process(username, path)}")
                else:
                    print(f"{'':<44} {in_process(username, path)}")
        if grading is not None:
            print(f"runs graded while measuring: {grading.stop()}")
        print(f"load average {os.getloadavg()[0]:.1f}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def _wait_for(port: int) -> None:
    for _ in range(100):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not start")


if __name__ == "__main__":
    main()
