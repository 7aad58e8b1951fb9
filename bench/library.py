"""Benchmark of the library engineer's parts: the drill generator and library validation.

usage: python bench/library.py [--rounds 2000] [--seed 1]

Prints, per rule profile, how many generated rounds a second one core makes (each is
stacked, filled with basic strategy, played twice and checked by the engine), the time to
generate a 50-round drill, and the time to validate the whole shipped library (every line
settled by the engine, as `import_scenarios` does before it writes). No database is
written: the drill is an unsaved row.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402 - the repository root goes on the path first

django.setup()

from trainer import rules  # noqa: E402
from trainer.games.blackjack.generator import generate_round  # noqa: E402
from trainer.labels import skill_codes  # noqa: E402
from trainer.models import Drill, RuleProfile, RuleProfileVersion  # noqa: E402
from trainer.selectors.drill_rounds import generate_documents  # noqa: E402
from trainer.services.scenarios import scenario_validate  # noqa: E402

LIBRARY = ROOT / "fixtures" / "scenarios"


def timed(label: str, seconds: float, count: int, unit: str) -> None:
    rate = count / seconds if seconds else float("inf")
    print(f"  {label:<28} {count:>6} {unit} in {seconds:7.3f} s  ({rate:,.0f} {unit}/s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    print("generate_round, all skills in turn (CPU time):")
    skills = skill_codes("blackjack")
    for name, profile in rules.PROFILES.items():
        rng = random.Random(args.seed)
        start = time.process_time()
        for n in range(args.rounds):
            generate_round(
                rng=rng,
                profile=profile,
                skills=[skills[n % len(skills)]],
                min_stake=profile.min_bet,
                max_stake=min(profile.max_bet, profile.min_bet * 20),
                max_boxes=5,
                round_id=str(n),
            )
        timed(name, time.process_time() - start, args.rounds, "rounds")

    version = RuleProfileVersion(
        profile=RuleProfile(name="casino-shoe"),
        version=1,
        parameters=rules.profile_to_dict(rules.PROFILES["casino-shoe"]),
    )
    drill = Drill(
        kind="generated",
        profile_version=version,
        skills=["split", "double", "insurance", "natural-3to2"],
        count=50,
        min_stake=Decimal(5),
        max_stake=Decimal(100),
        max_boxes=5,
    )
    start = time.perf_counter()
    documents = generate_documents(drill=drill, seed=args.seed)
    print("generate_documents:")
    timed("50-round drill (wall)", time.perf_counter() - start, len(documents), "rounds")

    # Blackjack's library lines (they wrap a document); Casino's situations are its own.
    lines = [
        entry
        for path in sorted(LIBRARY.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if "scenario" in (entry := json.loads(line))
    ]
    start = time.process_time()
    for n, line in enumerate(lines, start=1):
        scenario_validate(document=line["scenario"], line=n)
    print("library validation:")
    timed("every shipped scenario", time.process_time() - start, len(lines), "lines")


if __name__ == "__main__":
    main()
