"""The drill generator: stacked shoes, legal rounds, the same drill for the same seed."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import rules
from trainer.games.blackjack.generator import generate_round, rules_value
from trainer.games.blackjack.skills import Skill
from trainer.models import RuleProfileVersion
from trainer.selectors.drill_rounds import generate_documents
from trainer.services.attempts import _rounds
from trainer.services.drills import drill_create

PROFILE_NAMES = sorted(rules.PROFILES)
SKILLS = sorted(Skill.values)
STAKES = sorted({Decimal(x) for x in ("1", "2", "5", "10", "25", "35", "100", "500", "1000")})


def deal(profile: str, skill: str, seed: int, **limits: Any) -> dict[str, Any]:
    p = rules.PROFILES[profile]
    return generate_round(
        rng=random.Random(seed),
        profile=p,
        skills=[skill],
        min_stake=limits.get("min_stake", p.min_bet),
        max_stake=limits.get("max_stake", p.max_bet),
        max_boxes=limits.get("max_boxes", 4),
        round_id=f"{profile}-{skill}-{seed}",
    )


def shows(skill: str, p: rules.Profile, doc: dict[str, Any], s: dict[str, Any]) -> bool | None:
    """Whether the round exercises the skill on its first box; None if it cannot here."""
    box = s["boxes"][0]
    hands = box["hands"]
    up = s["dealer"]["cards"][0][0]
    natural = len(hands) == 1 and len(hands[0]["cards"]) == 2 and hands[0]["total"] == 21
    if skill == "surrender":
        return hands[0]["outcome"] == "surrender" if p.surrender == "late" else None
    if skill == "resplit":
        return len(hands) >= 3 if (p.max_split_hands or 99) >= 3 else None
    if skill == "double-after-split":
        return any(h["doubled"] and h["split"] for h in hands) if p.double_after_split else None
    if skill == "even-money":
        return box["players"][0]["even_money"] if p.even_money else up == "A"
    checks = {
        "natural-3to2": natural,
        "natural-6to5": natural,
        "rounding": natural,
        "insurance": up == "A" and "insurance" in doc["boxes"][0],
        "dealer-natural": s["dealer"]["blackjack"],
        "dealer-peek": up in "ATJQK",
        "push": hands[0]["outcome"] == "push",
        "player-bust": hands[0]["outcome"] == "bust",
        "dealer-bust": s["dealer"]["bust"],
        "soft-17": sorted(c[0] for c in s["dealer"]["cards"][:2]) == ["6", "A"],
        "split": len(hands) >= 2,
        "split-aces": len(hands) >= 2 and all(h["cards"][0][0] == "A" for h in hands),
        "double": hands[0]["doubled"],
        "double-for-less": hands[0]["doubled"],
        "bonus-777": [c[0] for c in hands[0]["cards"]] == ["7", "7", "7"],
        "shared-box": len(box["players"]) >= 2,
        "cut-card": s["reshuffle"] is True,
        "pay-in-chips": any(pay["box"] == box["box"] for pay in s.get("chips", {}).get("pay", [])),
        "colour-up": bool(s.get("chips", {}).get("colour_up")),
        "change": bool(s.get("chips", {}).get("change")),
    }
    return checks.get(skill)


@settings(max_examples=120, deadline=None)
@given(
    profile=st.sampled_from(PROFILE_NAMES),
    skill=st.sampled_from(SKILLS),
    seed=st.integers(min_value=0, max_value=2**32),
    max_boxes=st.integers(min_value=1, max_value=7),
)
def test_every_generated_round_settles_and_shows_its_skill(profile, skill, seed, max_boxes):
    p = rules.PROFILES[profile]
    doc = deal(profile, skill, seed, max_boxes=max_boxes)
    settlement = rules.settle(doc)
    assert doc["skills"] == [skill]
    assert shows(skill, p, doc, settlement) in (True, None)
    numbers = [b["box"] for b in doc["boxes"]]
    assert 1 <= len(numbers) <= max_boxes
    assert all(1 <= n <= p.boxes for n in numbers)


@settings(max_examples=60, deadline=None)
@given(
    profile=st.sampled_from(PROFILE_NAMES),
    skill=st.sampled_from(SKILLS),
    seed=st.integers(min_value=0, max_value=2**32),
    bounds=st.lists(st.sampled_from(STAKES), min_size=2, max_size=2),
)
def test_stakes_are_chips_within_the_table_and_drill_limits(profile, skill, seed, bounds):
    p = rules.PROFILES[profile]
    low = min(max(min(bounds), p.min_bet), p.max_bet)
    high = min(max(max(bounds), low), p.max_bet)
    doc = deal(profile, skill, seed, min_stake=low, max_stake=high)
    for box in doc["boxes"]:
        amounts = [Decimal(s["amount"]) for s in box["stakes"]]
        assert all(low <= a <= high for a in amounts)
        assert all(a % Decimal("0.50") == 0 for a in amounts)
        assert sum(amounts) <= p.max_bet
        for player, insured in box.get("insurance", {}).items():
            stake = next(Decimal(s["amount"]) for s in box["stakes"] if s["player"] == player)
            assert Decimal(insured) * 2 <= stake


def test_the_same_seed_deals_the_same_round_and_another_seed_another():
    one = deal("casino-shoe", "split", 7)
    assert deal("casino-shoe", "split", 7) == one
    assert deal("casino-shoe", "split", 8) != one
    assert one["rules"] == "casino-shoe"


def test_a_rounding_round_stakes_an_amount_whose_natural_rounds_down():
    p = rules.PROFILES["casino-single-deck-6to5"]
    for seed in range(20):
        doc = deal(p.name, "rounding", seed, min_stake=Decimal(5), max_stake=Decimal(25))
        stake = Decimal(doc["boxes"][0]["stakes"][0]["amount"])
        assert (stake * p.blackjack_ratio) % p.payout_unit != 0


def test_a_changed_profile_is_written_as_overrides_the_engine_plays():
    from dataclasses import replace

    changed = replace(rules.PROFILES["casino-shoe"], decks=8, surrender="none")
    assert rules_value(changed) == {
        "profile": "casino-shoe",
        "overrides": {"decks": 8, "surrender": "none"},
    }
    doc = generate_round(
        rng=random.Random(1),
        profile=changed,
        skills=["split"],
        min_stake=Decimal(5),
        max_stake=Decimal(50),
        max_boxes=2,
        round_id="custom",
    )
    rules.settle(doc)


@pytest.fixture
def drill(pit_boss):
    version = RuleProfileVersion.objects.get(profile__name="european-enhc-6deck", version=1)
    return drill_create(
        title="Mixed",
        kind="generated",
        user=pit_boss,
        profile_version=version,
        skills=["bonus-777", "even-money", "split", "shared-box"],
        count=15,
        min_stake="10",
        max_stake="200",
    )


def test_a_drill_and_a_seed_always_give_the_same_documents(drill):
    first = generate_documents(drill=drill, seed=42)
    assert len(first) == 15
    assert generate_documents(drill=drill, seed=42) == first
    assert generate_documents(drill=drill, seed=43) != first
    for doc in first:
        rules.settle(doc)
        assert doc["rules"] == "european-enhc-6deck"
        assert doc["skills"][0] in drill.skills


def test_a_fixed_drill_gives_its_scenarios_documents_in_order(pit_boss):
    from trainer.services.scenarios import scenario_import

    docs = [
        {
            "format": "blackjack-scenario/1",
            "id": slug,
            "title": "A natural",
            "skills": ["natural-3to2"],
            "rules": "casino-shoe",
            "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}]}],
            "shoe": ["Ah", "7d", "Ks", "Qc"],
        }
        for slug in ("first", "second")
    ]
    scenario_import(documents=docs)
    drill = drill_create(title="F", kind="fixed", scenarios=["second", "first"], user=pit_boss)
    assert [doc["id"] for doc, _, _ in _rounds(drill, None)] == ["second", "first"]


@pytest.mark.parametrize("skill", ["resplit", "bonus-777", "split-aces", "double-after-split"])
def test_a_single_deck_still_deals_the_skills_that_need_three_of_a_card(skill):
    p = rules.PROFILES["casino-single-deck-6to5"]
    for seed in range(300):
        doc = deal(p.name, skill, seed, max_boxes=7)
        settlement = rules.settle(doc)
        assert shows(skill, p, doc, settlement) is True


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("skill", ["pay-in-chips", "colour-up", "change"])
def test_a_chip_skill_deals_its_chip_question_on_every_shipped_profile(profile, skill):
    kind = {"pay-in-chips": "pay_in_chips", "colour-up": "colour_up", "change": "change"}[skill]
    p = rules.PROFILES[profile]
    for seed in range(10):
        doc = deal(profile, skill, seed)
        items = [q for q in rules.answer_key(doc) if q["kind"] == kind]
        assert len(items) == 1
        chips = [Decimal(c) for c in items[0]["expected"]["chips"]]
        assert sum(chips) == Decimal(items[0]["expected"]["amount"])
        assert set(chips) <= set(p.chip_set)
        if skill == "change":
            assert max(chips) <= p.change_chip
