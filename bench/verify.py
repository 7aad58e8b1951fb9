"""Benchmark of the ledger's verification: the whole chain against the incremental verify.

usage: [DATABASE_URL=postgres://...] python bench/verify.py
           [--entries 200000] [--after 1000] [--repeat 3]

Fills the ledger (migrated first; without DATABASE_URL, a throwaway SQLite database) with
`--entries` entries through ledger_append_many, in batches, decision-sized payloads; writes
a checkpoint `--after` entries before the end (what an hourly checkpoint leaves behind on
a busy floor), then times `ledger_verify(full=True)` and `ledger_verify()` (from the
checkpoint), `--repeat` times each, interleaved, in this process. Prints each run's wall
and CPU seconds and the medians. The database must be a throwaway one: the fill refuses
to run on a ledger that already has entries.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import django_ready  # noqa: E402

BATCH = 10_000


def fill(entries: int) -> float:
    from ledger.events import Event, Subject
    from ledger.services.append import PendingEntry, ledger_append_many

    started = time.perf_counter()
    for first in range(1, entries + 1, BATCH):
        ledger_append_many(
            entries=[
                PendingEntry(
                    Event.DECISION_RECORDED,
                    Subject.DECISION,
                    str(n),
                    {"attempt": n // 40, "question": n % 40, "answer": "pay 15.00"},
                )
                for n in range(first, min(first + BATCH, entries + 1))
            ]
        )
    return time.perf_counter() - started


def timed(full: bool) -> tuple[float, float, int]:
    from ledger.services.verify import ledger_verify

    wall, cpu = time.perf_counter(), time.process_time()
    result = ledger_verify(full=full)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if not result.ok or result.incremental == full:
        raise SystemExit(f"unexpected verification: {result}")
    return wall, cpu, result.entries - result.verified_from


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=200_000)
    parser.add_argument("--after", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    anchors = Path(tempfile.mkdtemp(prefix="shoeschool-bench-verify-")) / "anchors.jsonl"
    os.environ["SHOESCHOOL_LEDGER_ANCHOR_FILE"] = str(anchors)
    django_ready("verify")
    from django.core.management import call_command
    from django.db import connection

    from ledger.models import LedgerEntry
    from ledger.services.anchors import ledger_checkpoint_write

    call_command("migrate", verbosity=0)
    if LedgerEntry.objects.exists():
        raise SystemExit("the ledger already has entries: use a throwaway database")
    print(f"database: {connection.vendor}")
    before = args.entries - args.after
    print(f"filled {before:,} entries in {fill(before):.1f} s")
    ledger_checkpoint_write(now=dt.datetime.now(dt.UTC))
    fill_after = fill(args.after)
    # fill() numbers its subjects from 1 again: the payloads repeat, the chain does not.
    print(f"then {args.after:,} entries after the checkpoint in {fill_after:.1f} s")
    runs: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
    for _ in range(args.repeat):
        for full in (True, False):
            runs[full].append(timed(full))
    for full, label in ((True, "full"), (False, "incremental")):
        walls = [run[0] for run in runs[full]]
        cpus = [run[1] for run in runs[full]]
        print(
            f"{label:>12}: {runs[full][0][2]:>9,} entries recomputed; wall s "
            f"{' '.join(f'{w:.3f}' for w in walls)} (median {statistics.median(walls):.3f}); "
            f"CPU s median {statistics.median(cpus):.3f}"
        )
    full_wall = statistics.median(run[0] for run in runs[True])
    incremental_wall = statistics.median(run[0] for run in runs[False])
    print(f"incremental/full, median wall: {incremental_wall / full_wall:.4f}")


if __name__ == "__main__":
    main()
