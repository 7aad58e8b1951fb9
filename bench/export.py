"""Benchmark of the compliance CSV export over a million graded decisions, on PostgreSQL.

usage: DATABASE_URL=postgres://... python bench/export.py [--decisions 1000000] [--reuse]

Migrates the database named by DATABASE_URL (use a throwaway one: the bench adds rows),
bulk-loads trainees, attempts, decisions, one grading run per attempt with a grade per
decision, and a ledger entry per decision (hash-chained as ledger_append would), all with
COPY. Then runs `manage.py export_compliance_report --format csv` as a subprocess and prints
its wall time and peak memory (ru_maxrss of the child), the rows written and the file size;
and the PDF export and `verify_audit_log` the same way. Target: CSV under 60 s, 300 MB.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import resource
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

QUESTIONS_PER_ROUND = 10
ROUNDS_PER_ATTEMPT = 4
TRAINEES = 300
PERIOD_START = dt.date(2026, 1, 1)
PERIOD_DAYS = 31
CATEGORIES = ("overpay", "underpay", "wrong_outcome", "insurance_error", "procedure_error")


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "false")
    import django

    django.setup()


def copy_rows(table: str, columns: Sequence[str], rows: Iterator[Sequence[Any]]) -> int:
    from django.db import connection

    count = 0
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def reset_sequence(table: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608 - our table names
            f"COALESCE((SELECT MAX(id) FROM {table}), 1))"
        )


def load(decisions: int, seed: int) -> None:
    """Bulk-load `decisions` graded decisions and their ledger entries."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection, transaction

    from ledger.chain import GENESIS_HASH, canonical_json, entry_hash
    from ledger.events import Event
    from ledger.models import LedgerHead
    from ledger.services.vouch import VOUCHES, row_digest
    from trainer.models import Drill, RuleProfileVersion, TrainingClass
    from trainer.services.vouched import DECISIONS

    rng = random.Random(seed)
    per_attempt = QUESTIONS_PER_ROUND * ROUNDS_PER_ATTEMPT
    attempts = decisions // per_attempt
    user_model = get_user_model()
    trainee_group = Group.objects.get(name="trainee")
    trainees = []
    for n in range(TRAINEES):
        user = user_model.objects.create(
            username=f"bench{n:04d}", first_name=f"Trainee{n}", last_name="Bench"
        )
        user.groups.add(trainee_group)
        trainees.append(user.pk)
    classes = [TrainingClass.objects.create(name=f"Bench class {n}") for n in range(10)]
    for index, training_class in enumerate(classes):
        training_class.trainees.add(*trainees[index::10])
    version = RuleProfileVersion.objects.get(profile__name="casino-shoe", version=1)
    drill = Drill.objects.create(title="Bench exam", kind="generated", profile_version=version)

    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM trainer_attempt")
        base = cursor.fetchone()[0]
    document = json.dumps({"format": "blackjack-scenario/1", "id": "bench"})
    expected = {"action": "pay", "amount": "10.00"}
    expected_json = json.dumps(expected)
    start = dt.datetime.combine(PERIOD_START, dt.time(9), tzinfo=dt.UTC)
    submitted = [
        start + dt.timedelta(seconds=rng.randrange(PERIOD_DAYS * 86400 - 36000))
        for _ in range(attempts)
    ]

    def attempt_rows() -> Iterator[Sequence[Any]]:
        for a in range(attempts):
            at = submitted[a]
            yield (
                base + a + 1, trainees[a % TRAINEES], drill.pk, "exam", a, "submitted", "graded",
                "", at - dt.timedelta(minutes=10), at, at, Decimal("90.00"), False, at,
            )  # fmt: skip

    def item_rows() -> Iterator[Sequence[Any]]:
        for a in range(attempts):
            for r in range(ROUNDS_PER_ATTEMPT):
                yield (
                    (base + a) * ROUNDS_PER_ATTEMPT + r + 1, base + a + 1, r + 1, version.pk,
                    document, "[]", "{}", submitted[a], submitted[a],
                )  # fmt: skip

    def run_rows() -> Iterator[Sequence[Any]]:
        for a in range(attempts):
            at = submitted[a]
            yield (
                base + a + 1, base + a + 1, 1, "submit", "", "graded", "", at, at, at,
                per_attempt, per_attempt, Decimal("100.00"), True, Decimal("0.00"),
                Decimal("0.00"), "{}",
            )  # fmt: skip

    def decision_and_grade() -> Iterator[tuple[Sequence[Any], Sequence[Any], dict[str, Any]]]:
        for a in range(attempts):
            at = submitted[a]
            for r in range(ROUNDS_PER_ATTEMPT):
                item = (base + a) * ROUNDS_PER_ATTEMPT + r + 1
                for q in range(1, QUESTIONS_PER_ROUND + 1):
                    ident = (item - 1) * QUESTIONS_PER_ROUND + q
                    right = rng.random() > 0.1
                    diff = Decimal(0) if right else Decimal(rng.randrange(-2000, 2000)) / 100
                    given = {"action": "pay", "amount": str(Decimal("10.00") + diff)}
                    given_json = json.dumps(given)
                    ms = rng.randrange(800, 9000)
                    decision = (
                        ident, item, q, "settle_hand", given_json, "{}",
                        at - dt.timedelta(milliseconds=ms), at, ms, at, False,
                    )  # fmt: skip
                    grade = (
                        ident, base + a + 1, item, q, ident, "settle_hand", right, expected_json,
                        given_json, diff, "" if right else rng.choice(CATEGORIES), "", ms,
                    )  # fmt: skip
                    # The decision's digest, as the answer service puts it in its entry.
                    row: tuple[Any, ...] = (
                        item,
                        q,
                        "settle_hand",
                        given,
                        {},
                        decision[6],
                        at,
                        ms,
                        None,
                        False,
                    )
                    payload = {
                        "attempt": base + a + 1,
                        "round": r + 1,
                        "question": q,
                        "answer": given,
                        VOUCHES: {DECISIONS.key(ident): row_digest(row)},
                    }
                    yield decision, grade, payload

    started = time.perf_counter()
    with transaction.atomic():
        # The rows are consistent by construction: skip the per-row foreign-key triggers
        # (deferred to COMMIT they took most of 27 minutes). Needs a superuser, which a
        # throwaway cluster has; it lasts until this transaction ends.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
        copy_rows(
            "trainer_attempt",
            ["id", "trainee_id", "drill_id", "mode", "seed", "status", "grading_status",
             "grading_error", "started_at", "submitted_at", "grading_queued_at", "score",
             "passed", "graded_at"],
            attempt_rows(),
        )  # fmt: skip
        copy_rows(
            "trainer_attemptitem",
            ["id", "attempt_id", "position", "profile_version_id", "document", "answer_key",
             "questions_shown", "shown_at", "completed_at"],
            item_rows(),
        )  # fmt: skip
        copy_rows(
            "trainer_gradingrun",
            ["id", "attempt_id", "number", "trigger", "reason", "status", "error", "created_at",
             "started_at", "finished_at", "questions", "correct", "score", "passed", "overpaid",
             "underpaid", "basis"],
            run_rows(),
        )  # fmt: skip
        # Decisions, grades and ledger entries come from one pass; each table is copied from
        # a temporary spool so the three COPYs stay sequential on one connection.
        spools = {name: tempfile.TemporaryFile("w+") for name in ("decision", "grade", "ledger")}  # noqa: SIM115 - closed after its COPY
        head = LedgerHead.objects.select_for_update().filter(id=1).first()
        previous, sequence = (head.hash, head.sequence) if head else (GENESIS_HASH, 0)
        recorded = dt.datetime.now(dt.UTC)
        for decision, grade, payload in decision_and_grade():
            spools["decision"].write(json.dumps([_plain(v) for v in decision]) + "\n")
            spools["grade"].write(json.dumps([_plain(v) for v in grade]) + "\n")
            sequence += 1
            content = {
                "sequence": sequence,
                "recorded_at": recorded.isoformat(),
                "event": Event.DECISION_RECORDED,
                "actor_id": None,
                "actor_name": "",
                "subject_type": "decision",
                "subject_id": str(decision[0]),
                "payload": payload,
            }
            digest = entry_hash(previous, content)
            spools["ledger"].write(
                json.dumps(
                    [
                        sequence,
                        recorded.isoformat(),
                        Event.DECISION_RECORDED,
                        "",
                        "decision",
                        str(decision[0]),
                        canonical_json(payload).decode(),
                        previous,
                        digest,
                    ]
                )
                + "\n"
            )
            previous = digest
        for name, table, columns in (
            ("decision", "trainer_decision",
             ["id", "item_id", "question", "kind", "answer", "shown", "shown_at", "answered_at",
              "response_ms", "created_at", "late"]),
            ("grade", "trainer_grade",
             ["id", "run_id", "item_id", "question", "decision_id", "kind", "correct",
              "expected", "given", "money_diff", "category", "rule", "response_ms"]),
            ("ledger", "audit_ledgerentry",
             ["sequence", "recorded_at", "event", "actor_name", "subject_type", "subject_id",
              "payload", "previous_hash", "hash"]),
        ):  # fmt: skip
            spool = spools[name]
            spool.seek(0)
            copy_rows(table, columns, (json.loads(line) for line in spool))
            spool.close()
        LedgerHead.objects.update_or_create(id=1, defaults={"sequence": sequence, "hash": previous})
    for table in ("trainer_attempt", "trainer_attemptitem", "trainer_gradingrun",
                  "trainer_decision", "trainer_grade", "audit_ledgerentry"):  # fmt: skip
        reset_sequence(table)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"loaded {attempts * per_attempt} decisions in {time.perf_counter() - started:.1f} s")


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def measure(label: str, command: list[str]) -> None:
    """Run a manage.py command as a child; print its wall time, CPU time and peak memory.

    The CPU time (user + system) is the fairer figure on a shared machine, where the wall
    time also counts waiting for a core.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *command],
        capture_output=True,
        text=True,
        env={**os.environ, "DEBUG": "false"},
        check=False,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    note = "" if after.ru_maxrss > before.ru_maxrss else " (no higher than an earlier child's)"
    print(
        f"{label}: {elapsed:.1f} s wall, {cpu:.1f} s CPU, "
        f"peak RSS {after.ru_maxrss / 1024:.0f} MB{note}, exit {result.returncode}"
    )
    for line in result.stdout.strip().splitlines()[:3]:
        print(f"    {line}")
    if result.returncode:
        print(result.stderr[-2000:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="keep the data already loaded")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL to a throwaway PostgreSQL database")
    setup_django()
    from django.core.management import call_command

    from trainer.models import Decision

    call_command("migrate", verbosity=0)
    if not (args.reuse and Decision.objects.exists()):
        load(args.decisions, args.seed)
    print(f"decisions in the database: {Decision.objects.count()}")
    period = ["--from", PERIOD_START.isoformat(), "--to",
              (PERIOD_START + dt.timedelta(days=PERIOD_DAYS - 1)).isoformat()]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        csv_path = Path(folder) / "report.csv"
        # Run one at a time: ru_maxrss of children is the largest child's, so the CSV runs
        # first and its figure is its own.
        measure("CSV export", ["export_compliance_report", *period, "--format", "csv",
                               "--out", str(csv_path)])  # fmt: skip
        with csv_path.open() as handle:
            rows = sum(1 for line in handle if line.startswith("decisions,")) - 1
        print(f"    {rows} decision rows, {csv_path.stat().st_size / 1e6:.0f} MB")
        measure("PDF export", ["export_compliance_report", *period, "--format", "pdf",
                               "--out", str(Path(folder) / "report.pdf")])  # fmt: skip
        measure("verify_audit_log", ["verify_audit_log"])


if __name__ == "__main__":
    main()
