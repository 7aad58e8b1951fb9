"""The shipped scenario library in fixtures/scenarios/: blackjack's tables and Casino's."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from trainer import rules
from trainer.games.blackjack.skills import Skill
from trainer.models import Drill, DrillKind, RuleProfileVersion, Scenario
from trainer.services.drills import drill_create

LIBRARY = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
# What issue 4 asks the library to cover, each by at least MIN_PER_SKILL scenarios.
REQUIRED_SKILLS = [
    "natural-3to2",
    "natural-6to5",
    "rounding",
    "insurance",
    "even-money",
    "dealer-natural",
    "dealer-peek",
    "push",
    "player-bust",
    "dealer-bust",
    "soft-17",
    "split",
    "split-aces",
    "resplit",
    "double",
    "double-after-split",
    "double-for-less",
    "surrender",
    "bonus-777",
    "shared-box",
    "cut-card",
    "enhc",
    "pay-in-chips",
    "colour-up",
    "change",
]
MIN_PER_SKILL = 3
MIN_PER_PROFILE = 10
CASINO_SITUATIONS = 89


def entry(raw: dict[str, Any]) -> dict[str, Any]:
    """A library line as the importer reads it: a bare document is at difficulty 2."""
    return raw if "scenario" in raw else {"difficulty": 2, "scenario": raw}


def library_lines() -> list[dict[str, Any]]:
    lines = []
    for path in sorted(LIBRARY.glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        lines += [entry(json.loads(line)) for line in text.splitlines()]
    return lines


ALL_LINES = library_lines()
LINES = [line for line in ALL_LINES if line["scenario"]["format"] == "blackjack-scenario/1"]
CASINO = [line for line in ALL_LINES if line["scenario"]["format"] == "casino-scenario/1"]


def test_the_library_holds_at_least_120_scenarios():
    assert len(LINES) >= 120


def test_the_library_holds_casinos_situations_beside_blackjacks():
    # Casino's are settled and checked skill by skill in tests/casino/test_library.py.
    assert len(CASINO) == CASINO_SITUATIONS
    assert {line["scenario"]["rules"] for line in CASINO} == {"scarne-casino"}
    assert len(ALL_LINES) == len(LINES) + len(CASINO)


@pytest.mark.parametrize("line", LINES, ids=[line["scenario"]["id"] for line in LINES])
def test_every_library_scenario_settles(line):
    settlement = rules.settle(line["scenario"])
    assert settlement["id"] == line["scenario"]["id"]
    assert 1 <= line["difficulty"] <= 5


def test_at_least_30_scenarios_ask_for_chip_work_on_every_profile():
    chip_lines = [line for line in LINES if "chips" in line["scenario"]]
    assert len(chip_lines) >= 30
    assert {line["scenario"]["rules"] for line in chip_lines} == set(rules.PROFILES)
    chip_skills = {"pay-in-chips", "colour-up", "change"}
    for line in chip_lines:
        # Filed under chip skills only: a drill of another skill deals no chip question.
        assert set(line["scenario"]["skills"]) <= chip_skills
        kinds = {item["kind"] for item in rules.answer_key(line["scenario"])}
        assert kinds & {"pay_in_chips", "colour_up", "change"}


def test_every_scenario_has_a_unique_slug_a_title_and_known_skills():
    slugs = [line["scenario"]["id"] for line in ALL_LINES]  # unique across the games' files
    assert len(slugs) == len(set(slugs))
    for line in LINES:
        assert line["scenario"]["title"].strip()
        assert set(line["scenario"]["skills"]) <= set(Skill.values)


@pytest.mark.parametrize("skill", REQUIRED_SKILLS)
def test_each_required_skill_is_covered(skill):
    count = sum(skill in line["scenario"]["skills"] for line in LINES)
    assert count >= MIN_PER_SKILL


def test_every_profile_has_at_least_ten_scenarios():
    counts = Counter(line["scenario"]["rules"] for line in LINES)
    assert set(counts) == set(rules.PROFILES)
    assert min(counts.values()) >= MIN_PER_PROFILE


def test_each_file_holds_only_its_own_profile():
    for path in LIBRARY.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert entry(json.loads(line))["scenario"]["rules"] == path.stem


def test_the_authoring_script_reproduces_the_committed_files(monkeypatch):
    spec = importlib.util.spec_from_file_location("build_library", LIBRARY / "build_library.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is made.
    monkeypatch.setitem(sys.modules, "build_library", module)
    spec.loader.exec_module(module)
    built = module.build()
    assert set(built.lines) | {"scarne-casino"} == {path.stem for path in LIBRARY.glob("*.jsonl")}
    for profile, lines in built.lines.items():
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        assert (LIBRARY / f"{profile}.jsonl").read_text(encoding="utf-8") == text


def test_load_library_imports_the_shipped_library_idempotently(db):
    out = io.StringIO()
    call_command("load_library", stdout=out)
    assert Scenario.objects.count() == len(ALL_LINES)
    assert f"{len(ALL_LINES)} created" in out.getvalue()
    again = io.StringIO()
    call_command("load_library", stdout=again)
    assert Scenario.objects.count() == len(ALL_LINES)
    assert f"{len(ALL_LINES)} unchanged" in again.getvalue()


def test_load_library_imports_casinos_situations_and_leaves_blackjacks_as_shipped(db):
    call_command("load_library", stdout=io.StringIO())
    casino = Scenario.objects.filter(game="casino")
    assert casino.count() == CASINO_SITUATIONS
    assert {row.profile_version.profile.name for row in casino} == {"scarne-casino"}
    assert {row.slug for row in casino} == {line["scenario"]["id"] for line in CASINO}
    blackjack = {row.slug: row for row in Scenario.objects.exclude(game="casino")}
    assert len(blackjack) == len(LINES)
    for line in LINES:
        row = blackjack[line["scenario"]["id"]]
        assert (row.document, row.difficulty, row.revision) == (
            line["scenario"],
            line["difficulty"],
            1,
        )
        assert row.game == "blackjack"


def test_the_library_loads_the_chip_rounds_now_the_table_has_a_rack(db):
    call_command("load_library", stdout=io.StringIO())
    chip_rounds = {line["scenario"]["id"] for line in LINES if "chips" in line["scenario"]}
    assert len(chip_rounds) >= 30
    assert Scenario.objects.filter(slug__in=chip_rounds).count() == len(chip_rounds)
    dealt = {skill for scenario in Scenario.objects.all() for skill in scenario.skills}
    assert {"pay-in-chips", "colour-up", "change"} <= dealt


@pytest.mark.parametrize("skill", ["pay-in-chips", "colour-up", "change"])
def test_a_generated_drill_deals_each_chip_skill(db, pit_boss, skill):
    version = RuleProfileVersion.objects.get(profile__name="casino-shoe", version=1)
    drill = drill_create(
        title="Chips",
        kind=DrillKind.GENERATED,
        user=pit_boss,
        profile_version=version,
        skills=[skill],
        skill_minimums={skill: 1},
    )
    assert drill.skills == [skill]
    assert drill.skill_minimums == {skill: 1}
    assert Drill.objects.filter(title="Chips").exists()


def test_a_fixed_drill_deals_a_chip_scenario(db, pit_boss):
    call_command("load_library", stdout=io.StringIO())
    chip = Scenario.objects.filter(document__has_key="chips").first()
    assert chip is not None
    drill = drill_create(title="Rack", kind=DrillKind.FIXED, user=pit_boss, scenarios=[chip])
    assert list(drill.scenarios.all()) == [chip]


def test_import_scenarios_library_flag_loads_the_library_too(db):
    call_command("import_scenarios", "--library", stdout=io.StringIO())
    assert Scenario.objects.filter(is_active=True).count() == len(ALL_LINES)
