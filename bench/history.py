"""Five years of records: ten million graded decisions of 2,000 trainees, measured.

usage: DATABASE_URL=postgres://.../history python bench/history.py
           [--decisions 10000000] [--trainees 2000] [--classes 100] [--years 5]
           [--skip-fill] [--steps verify export dashboards cold] [--restart COMMAND]

Fills a throwaway PostgreSQL database (migrated first; refused if it already holds grades)
with COPY, streaming, so the fill's memory stays flat: trainees in classes (the same
accounts as bench/dashboard.py, so it can measure the pages on this data with
--skip-fill), one exam attempt of 50 rounds x 5 questions every ~hour over --years years,
each decision with its grade and its `decision.recorded` ledger entry (hash-chained as
ledger_append chains them, with the payload the trainer writes, the decision's digest
among its vouches). Then it writes a ledger
checkpoint (the hourly beat task's) and appends 1,000 entries after it, as a busy floor
would before the next one, and builds the run summaries (the COPY skips the grading
service that writes them). Before the checkpoint it vouches for the rows it wrote as the
backfill migrations do (`vouched.backfilled` entries; timed), since the COPY skips the
grading service that vouches for them.

Then, each as its own process, printing wall time, CPU time and peak memory:
- checkpoint (only when asked): the checkpoint and the entries after it, again;
- verify: `verify_audit_log` over the whole chain, and `--since-checkpoint`;
- export: `export_compliance_report --format csv` of the last whole year (rows, size);
- dashboards: bench/dashboard.py --skip-fill with 4 clients (pit boss and compliance);
- cold: --restart COMMAND (e.g. restarting PostgreSQL, so its buffers are empty), a fresh
  gunicorn with an empty cache, and the first request of each pit page, then the second.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ROUNDS = 50
QUESTIONS = 5
PER_ATTEMPT = ROUNDS * QUESTIONS
SKILLS = ["natural-3to2", "rounding", "dealer-bust", "push", "soft-17", "split", "insurance"]
CATEGORIES = ["overpay", "underpay", "wrong_outcome", "procedure_error", "insurance_error"]
# The checkpoint file is the database's own: one per database (see django_setup).
ANCHORS = Path(tempfile.gettempdir()) / "shoeschool-history" / "anchors.jsonl"
AFTER_CHECKPOINT = 1_000


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
    global ANCHORS
    database = os.environ["DATABASE_URL"].rsplit("/", 1)[-1]
    ANCHORS = ANCHORS.with_name(f"anchors-{database}.jsonl")
    os.environ["SHOESCHOOL_LEDGER_ANCHOR_FILE"] = str(ANCHORS)
    import django

    django.setup()


class Plan:
    """Who sat which attempt when: the same rows on every pass, from the seed."""

    def __init__(self, *, decisions: int, trainees: list[int], years: int, seed: int) -> None:
        self.attempts = max(1, decisions // PER_ATTEMPT)
        self.trainees = trainees
        self.seed = seed
        end = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(days=1)
        start = end - dt.timedelta(days=365 * years)
        span = int((end - start).total_seconds())
        rng = random.Random(seed)
        self.submitted = sorted(
            start + dt.timedelta(seconds=rng.randrange(span)) for _ in range(self.attempts)
        )

    def trainee(self, attempt: int) -> int:
        return self.trainees[(attempt - 1) % len(self.trainees)]

    def decisions(self) -> Iterator[tuple[Any, ...]]:
        """(attempt, item, position, question, decision id, answered at, ms, right, diff,
        category) for every decision, in the order they were answered."""
        decision = 0
        for attempt in range(1, self.attempts + 1):
            rng = random.Random(self.seed * 1_000_003 + attempt)
            rate = rng.uniform(0.85, 0.99)
            at = self.submitted[attempt - 1] - dt.timedelta(minutes=25)
            for position in range(1, ROUNDS + 1):
                item = (attempt - 1) * ROUNDS + position
                for question in range(1, QUESTIONS + 1):
                    decision += 1
                    ms = int(rng.lognormvariate(8.3, 0.5))
                    at += dt.timedelta(milliseconds=ms)
                    right = rng.random() < rate
                    diff = Decimal(0) if right else Decimal(rng.choice([-500, -250, 100, 250]))
                    category = "" if right else rng.choice(CATEGORIES)
                    yield (attempt, item, position, question, decision, at, ms, right,
                           diff / 100, category)  # fmt: skip


def copy_rows(table: str, columns: Sequence[str], rows: Iterator[Sequence[Any]]) -> int:
    from django.db import connection

    count = 0
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def fill(*, decisions: int, trainees: int, classes: int, years: int, seed: int) -> None:
    from django.core.management import call_command
    from django.db import connection, transaction

    from bench.dashboard import accounts
    from ledger.chain import GENESIS_HASH, canonical_json, entry_hash
    from ledger.events import Event
    from ledger.models import LedgerHead
    from ledger.services.vouch import VOUCHES, row_digest
    from trainer.models import Drill, Grade, RuleProfileVersion
    from trainer.services.vouched import DECISIONS

    call_command("migrate", verbosity=0)
    if Grade.objects.exists():
        sys.exit("the database already holds grades: use a throwaway one, or --skip-fill")
    started = time.perf_counter()
    people = accounts(trainees=trainees, classes=classes)
    versions = list(RuleProfileVersion.objects.filter(version=1).order_by("pk"))
    drill = Drill.objects.create(title="Bench exam", kind="generated", profile_version=versions[0])
    plan = Plan(decisions=decisions, trainees=[p.pk for p in people], years=years, seed=seed)
    expected = {"action": "pay", "amount": "15.00"}
    expected_json = json.dumps(expected)
    counted: dict[str, Any] = {}
    scores: dict[int, Decimal] = {}

    def runs() -> Iterator[Sequence[Any]]:
        right = 0
        for row in plan.decisions():
            right += row[7]
            if row[2] == ROUNDS and row[3] == QUESTIONS:
                attempt, when = row[0], plan.submitted[row[0] - 1]
                score = (Decimal(100 * right) / PER_ATTEMPT).quantize(Decimal("0.01"))
                scores[attempt] = score
                yield (attempt, attempt, 1, "submit", "", "graded", "", when, when, when,
                       PER_ATTEMPT, right, score, score >= 90, "0.00", "0.00", "{}")  # fmt: skip
                right = 0

    def attempts() -> Iterator[Sequence[Any]]:
        # After runs(), which scores them.
        for attempt, when in enumerate(plan.submitted, start=1):
            yield (attempt, plan.trainee(attempt), drill.pk, "exam", attempt, "submitted",
                   "graded", "", when - dt.timedelta(minutes=25), when, when, when,
                   scores[attempt], scores[attempt] >= 90)  # fmt: skip

    key = stub_key(QUESTIONS)

    def items() -> Iterator[Sequence[Any]]:
        for attempt in range(1, plan.attempts + 1):
            rng = random.Random(seed * 7 + attempt)
            version = versions[attempt % len(versions)].pk
            when = plan.submitted[attempt - 1]
            for position in range(1, ROUNDS + 1):
                document = {"format": "blackjack-scenario/1", "skills": rng.sample(SKILLS, 2)}
                yield ((attempt - 1) * ROUNDS + position, attempt, position, version,
                       json.dumps(document), key, "{}", when, when)  # fmt: skip

    def answer(diff: Decimal) -> dict[str, str]:
        return {"action": "pay", "amount": str(Decimal("15.00") + diff)}

    def decision_rows() -> Iterator[Sequence[Any]]:
        for _, item, _, question, pk, at, ms, _, diff, _ in plan.decisions():
            shown = at - dt.timedelta(milliseconds=ms)
            yield (pk, item, question, "settle_hand", json.dumps(answer(diff)), "{}", shown, at,
                   ms, at, False, 60_000)  # fmt: skip

    def grade_rows() -> Iterator[Sequence[Any]]:
        for attempt, item, _, question, pk, _, ms, right, diff, category in plan.decisions():
            given = json.dumps(answer(diff))
            yield (pk, attempt, item, question, pk, "settle_hand", right, expected_json, given,
                   diff, category, "Blackjack pays 3 to 2", ms)  # fmt: skip

    def ledger_rows() -> Iterator[Sequence[Any]]:
        previous, sequence = GENESIS_HASH, 0
        for attempt, item, position, question, pk, at, ms, _, diff, _ in plan.decisions():
            sequence += 1
            shown = at - dt.timedelta(milliseconds=ms)
            given = answer(diff)
            # The decision's digest, as the answer service puts it in its entry (the row
            # decision_rows writes: nothing shown, the limit 60 s, not late).
            row: tuple[Any, ...] = (
                item,
                question,
                "settle_hand",
                given,
                {},
                shown,
                at,
                ms,
                60_000,
                False,
            )
            payload = {
                "attempt": attempt,
                "round": position,
                "question": question,
                "kind": "settle_hand",
                "answer": given,
                "shown_at": shown.isoformat(),
                "answered_at": at.isoformat(),
                "response_ms": ms,
                "time_limit_ms": 60_000,
                "late": False,
                VOUCHES: {DECISIONS.key(pk): row_digest(row)},
            }
            content = {
                "sequence": sequence,
                "recorded_at": at.isoformat(),
                "event": Event.DECISION_RECORDED,
                "actor_id": None,
                "actor_name": "",
                "subject_type": "decision",
                "subject_id": str(pk),
                "payload": payload,
            }
            digest = entry_hash(previous, content)
            yield (sequence, at, Event.DECISION_RECORDED, "", "decision", str(pk),
                   canonical_json(payload).decode(), previous, digest)  # fmt: skip
            previous = digest
        counted["head"] = (sequence, previous)

    tables = [
        ("trainer_gradingrun", runs,
         ["id", "attempt_id", "number", "trigger", "reason", "status", "error", "created_at",
          "started_at", "finished_at", "questions", "correct", "score", "passed", "overpaid",
          "underpaid", "basis"]),
        ("trainer_attempt", attempts,
         ["id", "trainee_id", "drill_id", "mode", "seed", "status", "grading_status",
          "grading_error", "started_at", "submitted_at", "grading_queued_at", "graded_at",
          "score", "passed"]),
        ("trainer_attemptitem", items,
         ["id", "attempt_id", "position", "profile_version_id", "document", "answer_key",
          "questions_shown", "shown_at", "completed_at"]),
        ("trainer_decision", decision_rows,
         ["id", "item_id", "question", "kind", "answer", "shown", "shown_at", "answered_at",
          "response_ms", "created_at", "late", "time_limit_ms"]),
        ("trainer_grade", grade_rows,
         ["id", "run_id", "item_id", "question", "decision_id", "kind", "correct", "expected",
          "given", "money_diff", "category", "rule", "response_ms"]),
        ("audit_ledgerentry", ledger_rows,
         ["sequence", "recorded_at", "event", "actor_name", "subject_type", "subject_id",
          "payload", "previous_hash", "hash"]),
    ]  # fmt: skip
    for table, rows, columns in tables:
        began = time.perf_counter()
        with transaction.atomic():
            # Consistent by construction: no per-row foreign-key triggers (a superuser's
            # setting, which a throwaway cluster has), for this transaction only.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
            count = copy_rows(table, columns, rows())
        print(f"  {table}: {count:,} rows in {time.perf_counter() - began:.0f} s", flush=True)
    sequence, head = counted["head"]
    LedgerHead.objects.update_or_create(id=1, defaults={"sequence": sequence, "hash": head})
    with connection.cursor() as cursor:
        for table, _, _ in tables:
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608 - ours
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute("ANALYZE")
    print(
        f"filled {decisions:,} decisions, grades and ledger entries of {trainees:,} trainees "
        f"({plan.attempts:,} attempts over {years} years) in "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )


def checkpoint_then_more() -> None:
    """The hourly checkpoint, then entries appended after it through the ledger service."""
    from ledger.events import Event, Subject
    from ledger.services.anchors import ledger_checkpoint_write
    from ledger.services.append import PendingEntry, ledger_append_many

    ANCHORS.parent.mkdir(parents=True, exist_ok=True)
    ANCHORS.unlink(missing_ok=True)
    ledger_checkpoint_write()
    ledger_append_many(
        entries=[
            PendingEntry(Event.DECISION_RECORDED, Subject.DECISION, f"after-{n}", {"question": n})
            for n in range(AFTER_CHECKPOINT)
        ]
    )
    print(f"checkpoint written, then {AFTER_CHECKPOINT:,} entries appended", flush=True)


def vouch() -> None:
    """The graded rows the fill wrote, vouched for as the backfill migrations vouch for an
    existing installation's (the COPY skips the grading service that vouches for them):
    what migrating a filled database to vouching costs. The decisions' own entries vouch for
    them, as the answer service's do."""
    from ledger.services.vouch import vouched_models
    from ledger.services.vouch_check import vouch_backfill
    from trainer.models import Decision

    started = time.perf_counter()
    written = vouch_backfill(
        specs=[(spec, None) for spec in vouched_models() if spec.model is not Decision]
    )
    print(
        f"vouched.backfilled: {written:,} entries in {time.perf_counter() - started:.1f} s",
        flush=True,
    )


def summaries() -> None:
    from django.core.management import call_command

    started = time.perf_counter()
    message = call_command("build_run_summaries")
    print(f"build_run_summaries: {message} in {time.perf_counter() - started:.0f} s", flush=True)


def measure(label: str, command: list[str]) -> subprocess.CompletedProcess[str]:
    """A command in a process of its own, under /usr/bin/time: wall, CPU and peak memory."""
    report = tempfile.NamedTemporaryFile("r", suffix=".time")  # noqa: SIM115 - read below
    result = subprocess.run(
        ["/usr/bin/time", "-o", report.name, "-f", "%e %U %S %M", *command],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DEBUG": "false"},
        check=False,
    )
    wall, user, system, rss_kb = report.read().split()[-4:]
    print(
        f"{label}: {float(wall):.1f} s wall, {float(user) + float(system):.1f} s CPU, "
        f"peak RSS {int(rss_kb) / 1024:.0f} MB, exit {result.returncode}",
        flush=True,
    )
    for line in (result.stdout.strip().splitlines() + result.stderr.strip().splitlines())[:9]:
        print(f"    {line}")
    return result


def manage(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "manage.py"), *args]


def step_verify() -> None:
    measure("verify_audit_log (the whole chain)", manage("verify_audit_log"))
    measure(
        "verify_audit_log --since-checkpoint",
        manage("verify_audit_log", "--since-checkpoint"),
    )


def step_export() -> None:
    from trainer.models import Attempt

    last = Attempt.objects.order_by("-submitted_at").values_list("submitted_at", flat=True)[0]
    assert last is not None  # every attempt of the fill is submitted
    year = last.year - 1
    out = Path(tempfile.gettempdir()) / "shoeschool-history" / f"compliance-{year}.csv"
    period = ["--from", f"{year}-01-01", "--to", f"{year}-12-31"]
    measure(
        f"export_compliance_report --format csv, {year}-01-01 to {year}-12-31",
        manage("export_compliance_report", *period, "--format", "csv", "--out", str(out)),
    )
    with out.open("rb") as handle:
        rows = sum(1 for _ in handle) - 1
    print(f"    {rows:,} lines after the header, {out.stat().st_size / 2**20:.0f} MiB")


def step_dashboards(clients: int) -> None:
    command = [sys.executable, str(ROOT / "bench" / "dashboard.py"), "--skip-fill",
               "--concurrency", str(clients), "--requests", "100", "--seconds", "60"]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, text=True, capture_output=True, check=False)
    print(result.stdout + result.stderr[-3000:], flush=True)


def step_cold(restart: str | None) -> None:
    """The pit's pages first thing after a restart: empty buffers (with --restart), a new
    server process with an empty cache."""
    import signal

    from django.contrib.auth.models import User

    from bench.dashboard import Session, _wait_for

    if restart:
        began = time.perf_counter()
        subprocess.run(restart, shell=True, check=True)  # noqa: S602 - the operator's own command
        print(f"restarted ({restart}) in {time.perf_counter() - began:.1f} s", flush=True)
        from django.db import connection

        connection.close()  # the server it was open to is gone
    trainee = User.objects.get(username="trainee0000").pk
    port = 8766
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--threads", "4", "--log-level", "warning"],
        cwd=ROOT, env={**os.environ, "DEBUG": "false"},
    )  # fmt: skip
    try:
        _wait_for(port)
        for username, path in (
            ("bench-boss", "/pit/"),
            ("bench-compliance", "/pit/"),
            ("bench-compliance", f"/pit/trainees/{trainee}/"),
        ):
            session = Session(port, username)
            first = session.get(path)
            second = session.get(path)
            print(
                f"cold {username} {path}: first {first[1]:.0f} ms ({first[0]}), "
                f"then {second[1]:.0f} ms ({second[0]})",
                flush=True,
            )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=10_000_000)
    parser.add_argument("--trainees", type=int, default=2_000)
    parser.add_argument("--classes", type=int, default=100)
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--skip-fill", action="store_true")
    parser.add_argument("--clients", type=int, default=4, help="concurrent dashboard clients")
    parser.add_argument(
        "--steps", nargs="+", default=["verify", "export", "dashboards", "cold"],
        choices=["checkpoint", "verify", "export", "dashboards", "cold"],
        help="checkpoint: write the checkpoint and the entries after it again (the fill does)",
    )  # fmt: skip
    parser.add_argument("--restart", help="a shell command run before the cold step")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL to a throwaway PostgreSQL database")
    django_setup()
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    if not args.skip_fill:
        fill(decisions=args.decisions, trainees=args.trainees, classes=args.classes,
             years=args.years, seed=args.seed)  # fmt: skip
        vouch()
        checkpoint_then_more()
        summaries()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        print(f"database size {cursor.fetchone()[0]}", flush=True)
    connection.close()
    for step in args.steps:
        print(f"== {step} (load average {os.getloadavg()[0]:.1f})", flush=True)
        if step == "checkpoint":
            checkpoint_then_more()
        elif step == "verify":
            step_verify()
        elif step == "export":
            step_export()
        elif step == "dashboards":
            step_dashboards(args.clients)
        else:
            step_cold(args.restart)


if __name__ == "__main__":
    main()
