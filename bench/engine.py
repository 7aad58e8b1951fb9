"""Benchmark of the rules engine: a fixed random corpus through the API, json_line and the command.

usage: python bench/engine.py [--rounds 20000] [--seed 7] [--keep PATH]

Builds a corpus of legal rounds from the seed (every run with the same seed and rounds gets
the same corpus), writes it as JSON Lines to a temporary file, then prints rounds per second
through `settle`, through `json_line`, and end to end through `manage.py play_scenario` run
as a subprocess pinned to one core, with and without Django's start-up time. It says whether
the engine ran compiled (scripts/build-engine) or as pure Python; the command runs the same.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from trainer.rules import (  # noqa: E402 - the repository root goes on the path first
    COMPILED,
    PROFILES,
    DecisionPoint,
    Profile,
    ScenarioError,
    fill_actions,
    json_line,
    profile_from_rules,
    settle,
)

RANKS = "A23456789TJQK"
SUITS = "shdc"
TENS = "TJQK"
# Chips a player may stake; each profile keeps those within its limits.
CHIPS = (1, 2, 3, 5, 7, 10, 12, 15, 20, 25, 35, 50, 55, 100, 125, 200, 333)
# Overrides that keep any corpus round legal (no change to decks, burn or limits).
SAFE_OVERRIDES: dict[str, tuple[object, ...]] = {
    "dealer_hits_soft_17": (True, False),
    "double_on": ("any", "9-11", "10-11"),
    "double_after_split": (True, False),
    "split_unlike_tens": (True, False),
    "resplit_aces": (True, False),
    "surrender": ("none", "late"),
    "blackjack_pays": ("3:2", "6:5", "1:1"),
    "bonus_777": (None, "1", "2"),
}
STARTS = ("pair", "aces", "sevens", "natural", "tens")
PACK = tuple(r + s for r in RANKS for s in SUITS)


def _pin_to_one_core(core: int) -> str:
    """Pin this process to one core when the platform allows it; describes what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {core})
        except OSError:
            return "not pinned"
        return f"core {core}"
    return "not pinned"


class CorpusBuilder:
    """Makes varied legal rounds from one random generator, and counts what it made."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.stacked: Counter[str] = Counter()
        self.redrawn = 0

    def _stakes(self, profile: Profile, players: int) -> list[tuple[str, str]]:
        low, high = profile.min_bet, profile.max_bet
        chips = [str(c) for c in CHIPS if low <= c <= high / players]
        return [(f"p{i + 1}", self.rng.choice(chips)) for i in range(players)]

    def _pack(self, profile: Profile, size: int) -> list[str]:
        """The first `size` cards of a shuffled pack of the profile's decks."""
        pack = PACK * profile.decks
        return self.rng.sample(pack, min(size, len(pack)))

    @staticmethod
    def _take(pack: list[str], position: int, ranks: str, fixed: set[int]) -> None:
        """Move a card of one of `ranks` from later in the pack to `position`."""
        for j in range(len(pack)):
            if j not in fixed and j != position and pack[j][0] in ranks:
                pack[position], pack[j] = pack[j], pack[position]
                fixed.add(position)
                return

    def _stack(self, pack: list[str], boxes: int, enhc: bool) -> list[str]:
        """Stack a start that drills something (pairs, aces, sevens, naturals, an ace up)."""
        rng = self.rng
        fixed: set[int] = set()
        kinds = []
        up = boxes  # positions: box i gets i and boxes + 1 + i, the dealer boxes (up card)
        if rng.random() < 0.25:
            self._take(pack, up, "A", fixed)
            kinds.append("dealer ace up")
        if rng.random() < 0.6:
            i = rng.randrange(boxes)
            kind = rng.choice(STARTS)
            first, second = i, boxes + 1 + i
            rank = rng.choice(RANKS)
            pairs = {
                "pair": (rank, rank),
                "aces": ("A", "A"),
                "sevens": ("7", "7"),
                "natural": ("A", TENS),
                "tens": (TENS, TENS),
            }[kind]
            if kind == "natural" and rng.random() < 0.5:
                pairs = (TENS, "A")
            self._take(pack, first, pairs[0], fixed)
            self._take(pack, second, pairs[1], fixed)
            if kind == "sevens" and i == 0:
                # box 1 plays first: its first hit is the card after the deal.
                self._take(pack, 2 * boxes + (1 if enhc else 2), "7", fixed)
            kinds.append(kind)
        return kinds

    def _choose(self, doc: dict[str, Any]) -> Callable[[DecisionPoint], str]:
        """A random legal decision maker, leaning on the usual hit/stand play."""
        rng = self.rng
        profile = _profile_of(doc)
        single = {b["box"]: len(b["stakes"]) == 1 for b in doc["boxes"]}
        host = {b["box"]: Decimal(b["stakes"][0]["amount"]) for b in doc["boxes"]}

        def choose(point: DecisionPoint) -> str:
            legal = point.legal
            weights = []
            for kind in legal:
                if kind == "hit":
                    weights.append(6 if point.total < 12 else 3 if point.total < 17 else 0.3)
                elif kind == "stand":
                    weights.append(1 if point.total < 12 else 3 if point.total < 17 else 6)
                elif kind == "split":
                    weights.append(4)
                elif kind == "double":
                    weights.append(3 if 9 <= point.total <= 11 else 0.5)
                else:
                    weights.append(0.7)
            kind = rng.choices(legal, weights)[0]
            if (
                kind == "double"
                and profile.double_for_less
                and single[point.box]
                and rng.random() < 0.3
            ):
                less = (host[point.box] / 2).quantize(Decimal("0.01"))
                if less > 0:
                    kind = f"double:{less.normalize():f}"
            return kind

        return choose

    def round(self, n: int, size: int | None = None) -> dict[str, Any]:
        """One legal round with its actions filled in.

        The shoe is the top `size` cards of a shuffled pack (40 to 120 when not given, about
        what hand-written scenarios hold); a round that needs more raises ScenarioError.
        """
        rng = self.rng
        name = rng.choice(sorted(PROFILES))
        profile = PROFILES[name]
        rules: str | dict[str, Any] = name
        if rng.random() < 0.1:
            keys = rng.sample(sorted(SAFE_OVERRIDES), rng.randint(1, 3))
            rules = {"profile": name, "overrides": {k: rng.choice(SAFE_OVERRIDES[k]) for k in keys}}
            profile = _profile_of({"rules": rules})
        count = rng.choice((1, 1, 2, 3, 4, 5, 6, 7))
        numbers = sorted(rng.sample(range(1, profile.boxes + 1), min(count, profile.boxes)))
        boxes = []
        for number in numbers:
            players = 1 if rng.random() < 0.85 else rng.randint(2, 3)
            stakes = self._stakes(profile, players)
            boxes.append(
                {
                    "box": number,
                    "stakes": [{"player": f"b{number}{p}", "amount": a} for p, a in stakes],
                    "actions": [],
                }
            )
        pack = self._pack(profile, size or rng.randint(40, 120))
        burn: list[str] = []
        if rng.random() < 0.2:
            burn = [pack.pop() for _ in range(profile.burn)]
        stacked = []
        if rng.random() < 0.5:
            stacked = self._stack(pack, len(boxes), profile.hole_card == "enhc")
        doc: dict[str, Any] = {
            "format": "blackjack-scenario/1",
            "id": f"bench-{n}",
            "rules": rules,
            "boxes": boxes,
            "shoe": pack,
        }
        if burn:
            doc["burn"] = burn
        self._side_bets(doc, profile)
        if rng.random() < 0.4:
            doc["cut_card_at"] = rng.randint(0, 40)
        doc = fill_actions(doc, self._choose(doc))
        self.stacked.update(stacked)
        return doc

    def _side_bets(self, doc: dict[str, Any], profile: Profile) -> None:
        """Script insurance or even money now and then when the dealer shows an ace."""
        rng = self.rng
        boxes = doc["boxes"]
        shoe = doc["shoe"]
        if shoe[len(boxes)][0] != "A":
            return
        for i, box in enumerate(boxes):
            natural = {shoe[i][0], shoe[len(boxes) + 1 + i][0]}
            is_natural = "A" in natural and bool(natural & set(TENS))
            for stake in box["stakes"]:
                player = stake["player"]
                if is_natural and profile.even_money and rng.random() < 0.5:
                    box.setdefault("even_money", []).append(player)
                elif profile.insurance and rng.random() < 0.4:
                    half = Decimal(stake["amount"]) / 2
                    box.setdefault("insurance", {})[player] = f"{half.normalize():f}"


def _profile_of(doc: dict[str, Any]) -> Profile:
    return profile_from_rules(doc["rules"])


def build_corpus(rounds: int, seed: int) -> tuple[list[str], CorpusBuilder]:
    """The corpus as JSON texts, and the builder that counted its composition."""
    builder = CorpusBuilder(seed)
    lines = []
    for n in range(rounds):
        size = None
        while True:
            try:
                doc = builder.round(n, size)
            except ScenarioError:
                # The shoe ran dry (seven boxes, many hits): draw the round again, whole pack.
                builder.redrawn += 1
                size = 1000
                continue
            lines.append(json.dumps(doc, separators=(",", ":")))
            break
    return lines, builder


Timing = tuple[float, float]  # (wall seconds, CPU seconds)


def _rate(rounds: int, seconds: float) -> str:
    return f"{rounds / seconds:>10,.0f}" if seconds > 0 else "         -"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(work: Callable[[], object]) -> Timing:
    """Wall and CPU time of work() in this process."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def _run_command(path: Path, pin: list[str]) -> Timing:
    """Wall and CPU time of one `manage.py play_scenario FILE > /dev/null` run."""
    command = [*pin, sys.executable, str(ROOT / "manage.py"), "play_scenario", str(path)]
    wall, cpu = time.perf_counter(), _children_cpu()
    with open(os.devnull, "w") as devnull:
        done = subprocess.run(
            command, cwd=ROOT, stdout=devnull, stderr=subprocess.PIPE, check=False
        )
    timing = time.perf_counter() - wall, _children_cpu() - cpu
    if done.returncode not in (0, 2):
        sys.exit(f"play_scenario failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return timing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measure; best kept")
    parser.add_argument("--core", type=int, default=0, help="the core to pin measures to")
    parser.add_argument("--keep", type=Path, help="also copy the corpus to this path")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    lines, builder = build_corpus(args.rounds, args.seed)
    build_seconds = time.perf_counter() - started
    workdir = Path(tempfile.mkdtemp(prefix="shoe-bench-"))
    try:
        corpus = workdir / "corpus.jsonl"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        empty = workdir / "empty.jsonl"
        empty.write_text("", encoding="utf-8")
        if args.keep:
            shutil.copyfile(corpus, args.keep)
        report(args, lines, builder, build_seconds, corpus, empty)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def composition(docs: list[dict[str, Any]], results: list[dict[str, Any]]) -> list[str]:
    """Lines describing what the corpus holds."""
    profiles: Counter[str] = Counter()
    box_counts: Counter[int] = Counter()
    actions: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    things: Counter[str] = Counter()
    for doc in docs:
        rules = doc["rules"]
        profiles[rules if isinstance(rules, str) else rules["profile"]] += 1
        things["rules with overrides"] += not isinstance(rules, str)
        box_counts[len(doc["boxes"])] += 1
        things["with burn"] += "burn" in doc
        things["with a cut card"] += "cut_card_at" in doc
        for box in doc["boxes"]:
            things["boxes shared by 2-3 players"] += len(box["stakes"]) > 1
            things["insurance stakes"] += len(box.get("insurance", {}))
            things["even money taken"] += len(box.get("even_money", []))
            actions.update("double:less" if a.startswith("double:") else a for a in box["actions"])
    for result in results:
        outcomes.update(h["outcome"] for b in result["boxes"] for h in b["hands"])
        things["dealer blackjack"] += result["dealer"]["blackjack"]
        things["reshuffle after the round"] += result["reshuffle"]
    shoe = [len(doc["shoe"]) for doc in docs]

    def join(counter: Counter[Any]) -> str:
        return ", ".join(f"{k} {v}" for k, v in counter.most_common())

    return [
        f"  profiles: {join(profiles)}",
        "  occupied boxes per round: "
        + ", ".join(f"{k}:{v}" for k, v in sorted(box_counts.items())),
        f"  shoe cards: {min(shoe)}-{max(shoe)}, mean {statistics.mean(shoe):.0f}",
        f"  actions: {join(actions)}",
        f"  hand outcomes: {join(outcomes)}",
        *(f"  {k}: {v}" for k, v in sorted(things.items())),
    ]


def report(
    args: argparse.Namespace,
    lines: list[str],
    builder: CorpusBuilder,
    build_seconds: float,
    corpus: Path,
    empty: Path,
) -> None:
    rounds = len(lines)
    docs = [json.loads(line) for line in lines]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "-"
    taskset = shutil.which("taskset")
    pin = [taskset, "-c", str(args.core)] if taskset else []
    pinned_here = _pin_to_one_core(args.core)
    repeat = max(1, args.repeat)
    results: list[dict[str, Any]] = []
    errors: list[str] = []

    def through_settle() -> None:
        results.clear()
        keep = results.append
        for doc in docs:
            try:
                keep(settle(doc))
            except ScenarioError as exc:
                errors.append(str(exc))

    def through_json_line() -> None:
        for line in lines:
            json_line(line)

    api = min(_timed(through_settle) for _ in range(repeat))
    text = min(_timed(through_json_line) for _ in range(repeat))
    startup = min(_run_command(empty, pin) for _ in range(max(2, repeat)))
    command = min(_run_command(corpus, pin) for _ in range(repeat))
    net = (command[0] - startup[0], command[1] - startup[1])

    print(f"Engine benchmark: {rounds:,} rounds, seed {args.seed}, Python {sys.version.split()[0]}")
    mode = (
        "compiled with mypyc (scripts/build-engine)"
        if COMPILED
        else "pure Python (scripts/build-engine compiles it)"
    )
    print(f"engine: {mode}")
    print(
        f"corpus: {corpus.stat().st_size / 1e6:.1f} MB of JSON Lines, built in "
        f"{build_seconds:.1f} s ({builder.redrawn} rounds redrawn for a longer shoe); "
        f"{len(errors) // repeat} rounds rejected (should be 0)"
    )
    print(
        f"in-process measures pinned to {pinned_here}; the command "
        f"{f'under taskset -c {args.core}' if pin else 'unpinned (no taskset)'}; "
        f"best of {repeat}; load average before: {load}"
    )
    print()
    print(f"{'path':<46}{'wall s':>9}{'rounds/s':>11}{'CPU s':>9}{'rounds/s':>11}")
    rows = [
        ("Python API: settle(doc), JSON already parsed", api),
        ("json_line(text): parse, settle, dump", text),
        ("play_scenario FILE > /dev/null", command),
        ("play_scenario, excluding start-up", net),
    ]
    for label, (wall, cpu) in rows:
        print(f"{label:<46}{wall:>9.3f}{_rate(rounds, wall)}{cpu:>9.3f}{_rate(rounds, cpu)}")
    print(
        f"{'  start-up (play_scenario on an empty file)':<46}{startup[0]:>9.3f}{'':>11}"
        f"{startup[1]:>9.3f}"
    )
    print("(CPU s: time the work itself used; it drifts less than wall time on a busy machine)")
    print()
    print("corpus composition")
    for line in composition(docs, results):
        print(line)
    stacked = ", ".join(f"{k} {v}" for k, v in builder.stacked.most_common())
    print(f"  stacked starts: {stacked}")
    for message in errors[:5]:
        print(f"  rejected: {message}")


if __name__ == "__main__":
    raise SystemExit(main())
