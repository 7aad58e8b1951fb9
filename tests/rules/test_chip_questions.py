"""Chip work in the answer key: the profile's chip parameters, a document's `chips` section,
the stacks the house rule calls for and how a chip answer is graded."""

from __future__ import annotations

import copy
from decimal import Decimal
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.rules import (
    PROFILES,
    Category,
    Kind,
    ScenarioError,
    answer_key,
    compare,
    profile_from_dict,
    profile_from_rules,
    profile_to_dict,
    settle,
)
from trainer.rules.profiles import CHIP_PARAMETERS

PEEK = ["scarne-4deck", "casino-single-deck-6to5", "casino-double-deck", "casino-shoe",
        "bicycle-6deck"]  # fmt: skip


def natural(profile: str, stake: str, chips: dict[str, Any] | None = None, **rules: Any) -> dict:
    """A natural on box 3 against a dealer's 17, paid in chips."""
    enhc = PROFILES[profile].hole_card == "enhc"
    doc: dict[str, Any] = {
        "format": "blackjack-scenario/1",
        "id": "chips",
        "rules": {"profile": profile, "overrides": rules} if rules else profile,
        "boxes": [{"box": 3, "stakes": [{"player": "p1", "amount": stake}]}],
        "shoe": ["As", "9s", "Ks", "8s"],
    }
    if enhc:
        doc["boxes"][0]["actions"] = []
    doc["chips"] = chips if chips is not None else {"pay": "all"}
    return doc


def items(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [item for item in answer_key(doc) if item["kind"] == kind]


# The chip parameters of each shipped profile.


@pytest.mark.parametrize(
    ("profile", "chip_set", "rule", "change"),
    [
        ("scarne-4deck", ["0.50", "1", "2.50", "5", "25", "100", "500"], "fewest", "25"),
        ("casino-single-deck-6to5", ["1", "2.50", "5", "25", "100", "500"], "match", "25"),
        ("casino-double-deck", ["0.50", "1", "2.50", "5", "25", "100", "500"], "fewest", "25"),
        ("casino-shoe", ["0.50", "1", "2.50", "5", "25", "100", "500"], "fewest", "25"),
        ("bicycle-6deck", ["0.50", "1", "2.50", "5", "25", "100", "500"], "fewest", "25"),
        (
            "european-enhc-6deck",
            ["0.50", "1", "2.50", "5", "25", "100", "500", "1000"],
            "match",
            "100",
        ),
    ],
)
def test_each_shipped_profile_states_its_chips(profile, chip_set, rule, change):
    data = profile_to_dict(PROFILES[profile])
    assert (data["chip_set"], data["chip_rule"], data["change_chip"]) == (chip_set, rule, change)
    # Assumed: no source document states a house's chips.
    assert set(CHIP_PARAMETERS) <= set(data["assumed"])


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_stored_version_without_chip_parameters_loads_with_its_profiles_chips(profile):
    old = {k: v for k, v in profile_to_dict(PROFILES[profile]).items() if k not in CHIP_PARAMETERS}
    assert profile_from_dict(old) == PROFILES[profile]


def test_a_custom_profile_without_chips_gets_the_chips_of_casino_shoe():
    data = profile_to_dict(PROFILES["european-enhc-6deck"]) | {"name": "house-a"}
    for key in CHIP_PARAMETERS:
        del data[key]
    house = profile_from_dict(data)
    shoe = PROFILES["casino-shoe"]
    assert (house.chip_set, house.chip_rule, house.change_chip) == (
        shoe.chip_set,
        shoe.chip_rule,
        shoe.change_chip,
    )


@pytest.mark.parametrize(
    ("overrides", "field", "says"),
    [
        ({"chip_set": []}, "chip_set", "1 to 12 chip values"),
        ({"chip_set": "5"}, "chip_set", "must be a list of chip values"),
        ({"chip_set": ["5", "5.00"]}, "chip_set[1]", "twice"),
        ({"chip_set": ["5", "-1"]}, "chip_set[1]", "more than 0"),
        ({"chip_rule": "colours"}, "chip_rule", "must be one of fewest, match"),
        ({"change_chip": "10"}, "change_chip", "not one of the table's chips"),
        ({"chip_set": ["1", "5"]}, "change_chip", "change_chip 25 is not one of"),
    ],
)
def test_bad_chip_parameters_are_named(overrides, field, says):
    with pytest.raises(ScenarioError) as caught:
        profile_from_rules({"profile": "casino-shoe", "overrides": overrides})
    assert caught.value.field == f"rules.overrides.{field}"
    assert says in caught.value.message


def test_chip_parameters_are_overridable_and_change_the_stack():
    base = items(natural("casino-shoe", "25"), "pay_in_chips")[0]["expected"]["chips"]
    assert base == ["25", "5", "5", "2.50"]
    no_pinks = natural("casino-shoe", "25", chip_set=["0.50", "1", "5", "25", "100"])
    assert items(no_pinks, "pay_in_chips")[0]["expected"]["chips"] == [
        "25",
        "5",
        "5",
        "1",
        "1",
        "0.50",
    ]
    profile = profile_from_rules(
        {"profile": "casino-shoe", "overrides": {"chip_set": ["1", "5", "25"], "change_chip": "5"}}
    )
    assert "chip_set=1/5/25" in profile.name


# Table-driven: a natural on each profile, paid in chips under its rule.


@pytest.mark.parametrize(
    ("profile", "stake", "amount", "chips"),
    [
        # 3:2 on 25 under "fewest": a green, two reds and a pink.
        ("casino-shoe", "25", "37.50", ["25", "5", "5", "2.50"]),
        ("casino-double-deck", "25", "37.50", ["25", "5", "5", "2.50"]),
        ("scarne-4deck", "7", "10.50", ["5", "5", "0.50"]),
        ("bicycle-6deck", "2.50", "3.50", ["2.50", "1"]),
        # 6:5 on 15 under "match": the bet's three reds, then 3 in whites (no halves).
        ("casino-single-deck-6to5", "15", "18.00", ["5", "5", "5", "1", "1", "1"]),
        ("casino-single-deck-6to5", "25", "30.00", ["25", "5"]),
        # "match" on a green: the green, then the rest in the fewest chips.
        ("european-enhc-6deck", "25", "37.50", ["25", "5", "5", "2.50"]),
        ("european-enhc-6deck", "100", "150.00", ["100", "25", "25"]),
    ],
)
def test_a_natural_paid_in_chips(profile, stake, amount, chips):
    doc = natural(profile, stake)
    (item,) = items(doc, "pay_in_chips")
    assert item["expected"] == {
        "action": "pay",
        "amount": amount,
        "chips": chips,
        "settles": "settle_hand",
    }
    assert not items(doc, "settle_hand")
    # One source, at the end, which the pages leave out (no profile name mid-sentence).
    assert item["rule"].endswith(f"(chip_rule: {PROFILES[profile].chip_rule}, {profile})")
    assert item["rule"].count("(") == 1
    assert settle(doc)["chips"]["pay"] == [
        {
            "box": 3,
            "hand": 1,
            "player": "p1",
            "for": "settle_hand",
            "amount": amount,
            "chips": chips,
        }
    ]


def test_a_bet_stacked_in_reds_is_matched_in_reds_only_under_match():
    chips = {"pay": "all", "bets": [{"box": 3, "player": "p1", "stack": ["5"] * 5}]}
    matched = natural("casino-shoe", "25", chips, chip_rule="match")
    assert items(matched, "pay_in_chips")[0]["expected"]["chips"] == ["5"] * 7 + ["2.50"]
    fewest = natural("casino-shoe", "25", chips)
    assert items(fewest, "pay_in_chips")[0]["expected"]["chips"] == ["25", "5", "5", "2.50"]


def test_only_the_named_players_payouts_and_only_payouts_are_chip_questions():
    doc = natural("casino-shoe", "25", {"pay": [{"box": 3, "player": "p1"}]})
    doc["boxes"][0]["stakes"].append({"player": "p2", "amount": "10"})
    doc["boxes"].append(
        {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["stand"]}
    )
    doc["shoe"] = ["2s", "As", "9s", "3s", "Ks", "8s"]  # box 1 stands on 5 and loses
    kinds = [(i["kind"], i["box"], i["player"]) for i in answer_key(doc)]
    assert ("pay_in_chips", 3, "p1") in kinds
    assert ("settle_hand", 3, "p2") in kinds
    assert ("settle_hand", 1, "p1") in kinds  # a loss is taken, not paid in chips


def test_insurance_even_money_and_a_prize_are_paid_in_chips():
    insured = {
        "format": "blackjack-scenario/1",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 2, "stakes": [{"player": "p1", "amount": "25"}], "insurance": {"p1": "12.50"}}
        ],
        "shoe": ["Ts", "As", "8s", "Ks"],
        "chips": {"pay": "all"},
    }
    (item,) = items(insured, "pay_in_chips")
    assert item["expected"]["settles"] == "settle_insurance"
    assert item["expected"]["chips"] == ["25"]
    even = {
        "format": "blackjack-scenario/1",
        "rules": "european-enhc-6deck",
        "boxes": [{"box": 3, "stakes": [{"player": "p1", "amount": "20"}], "even_money": ["p1"]}],
        "shoe": ["As", "Ah", "Ks", "9s"],
        "chips": {"pay": "all"},
    }
    (item,) = items(even, "pay_in_chips")
    assert item["expected"] == {
        "action": "pay",
        "amount": "20.00",
        "chips": ["5", "5", "5", "5"],
        "settles": "even_money",
    }
    sevens = {
        "format": "blackjack-scenario/1",
        "rules": "european-enhc-6deck",
        "boxes": [{"box": 2, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["hit"]}],
        "shoe": ["7s", "9s", "7h", "7d", "8s"],
        "chips": {"pay": "all"},
    }
    prizes = [i for i in items(sevens, "pay_in_chips") if i["expected"]["settles"] == "bonus_777"]
    assert [p["expected"]["chips"] for p in prizes] == [["5", "5"]]


def test_colour_up_and_change_are_asked_at_the_end_and_the_start():
    doc = natural(
        "casino-shoe",
        "10",
        {
            "colour_up": [{"box": 3, "player": "p1", "pile": ["5"] * 5 + ["1"] * 3}],
            "change": [{"box": 3, "player": "p1", "cash": "100"}],
        },
    )
    key = answer_key(doc)
    assert key[0]["kind"] == "change"
    assert key[0]["expected"] == {"amount": "100.00", "chips": ["25", "25", "25", "25"]}
    assert [k["kind"] for k in key[-2:]] == ["colour_up", "reshuffle"]
    # 28 is three chips with a pink and a half, not four with three whites.
    assert key[-2]["expected"] == {"amount": "28.00", "chips": ["25", "2.50", "0.50"]}
    # Nothing was said about payouts: the natural is a plain settlement.
    assert items(doc, "settle_hand")[0]["expected"] == {"action": "pay", "amount": "15.00"}
    euro = natural(
        "european-enhc-6deck", "10", {"change": [{"box": 3, "player": "p1", "cash": "300"}]}
    )
    assert items(euro, "change")[0]["expected"]["chips"] == ["100", "100", "100"]


# Validation: a bad chips section is named by its field.


def _bad(chips: Any, profile: str = "casino-shoe", stake: str = "25") -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        settle(natural(profile, stake, chips))
    return caught.value


def seat(**more: Any) -> list[dict[str, Any]]:
    """One entry for p1 on box 3 with the given fields."""
    return [{"box": 3, "player": "p1", **more}]


@pytest.mark.parametrize(
    ("chips", "field", "reason"),
    [
        ("all", "chips", "wrong_type"),
        ({}, "chips", "no_chip_work"),
        ({"paid": "all"}, "chips.paid", "unknown_field"),
        ({"pay": "some"}, "chips.pay", "bad_chips"),
        ({"pay": [{"box": 3}]}, "chips.pay[0].player", "missing_field"),
        ({"pay": [{"box": 4, "player": "p1"}]}, "chips.pay[0].box", "not_in_play"),
        ({"pay": [{"box": 3, "player": "p9"}]}, "chips.pay[0].player", "not_on_box"),
        ({"pay": seat() * 2}, "chips.pay[1]", "duplicate_player"),
        ({"pay": seat(hand=1)}, "chips.pay[0].hand", "unknown_field"),
        ({"bets": seat(stack=["5"])}, "chips.bets[0].stack", "bad_chips"),
        ({"bets": seat(stack=["20", "5"])}, "chips.bets[0].stack[0]", "not_a_chip"),
        ({"colour_up": seat(pile=[])}, "chips.colour_up[0].pile", "no_chips"),
        ({"colour_up": seat(pile=[5])}, "chips.colour_up[0].pile[0]", "not_a_chip"),
        ({"colour_up": seat(pile=["25", "5"])}, "chips.colour_up[0].pile", "bad_chips"),
        ({"change": seat(cash=100)}, "chips.change[0].cash", "bad_amount"),
        ({"change": seat(cash="0.25")}, "chips.change[0].cash", "bad_chips"),
        ({"change": seat()}, "chips.change[0].cash", "missing_field"),
    ],
)
def test_a_bad_chips_section_is_named(chips, field, reason):
    error = _bad(chips)
    assert (error.field, error.reason) == (field, reason)
    assert error.message


def test_a_payout_the_table_cannot_make_in_chips_is_refused():
    # Paid to the cent, 3:2 on 10.10 is 15.15: no chip of this table makes the 0.15.
    with pytest.raises(ScenarioError) as caught:
        settle(natural("casino-shoe", "10.10", {"pay": "all"}, payout_unit="0.01"))
    assert (caught.value.field, caught.value.reason) == ("chips.pay", "bad_chips")
    assert "15.15" in caught.value.message
    # The same round without chips settles as it always did.
    plain = natural("casino-shoe", "10.10", payout_unit="0.01")
    del plain["chips"]
    assert settle(plain)["boxes"][0]["players"][0]["net"] == "15.15"


# Grading a chip answer.


PAY = {
    "action": "pay",
    "amount": "37.50",
    "chips": ["25", "5", "5", "2.50"],
    "settles": "settle_hand",
}
INSURANCE = {"action": "pay", "amount": "25.00", "chips": ["25"], "settles": "settle_insurance"}
COLOUR = {"amount": "28.00", "chips": ["25", "1", "1", "1"]}


def paid(*chips: str, amount: str | None = None, action: str = "pay") -> dict[str, Any]:
    """A payout answer: the action, the chips, and an amount when one is stated."""
    out: dict[str, Any] = {"action": action, "chips": list(chips)}
    if amount is not None:
        out["amount"] = amount
    return out


PIC, UP, CHANGE = "pay_in_chips", "colour_up", "change"
WRONG, UNDER, OVER = Category.WRONG_CHIPS, Category.UNDERPAY, Category.OVERPAY


@pytest.mark.parametrize(
    ("kind", "expected", "given", "right", "diff", "category"),
    [
        (PIC, PAY, paid("2.50", "5", "25", "5"), True, "0", None),
        (PIC, PAY, paid("25", "5", "5", "2.50", amount="37.50"), True, "0", None),
        # The right money in other chips: its own category, no money moved.
        (PIC, PAY, paid("25", "5", "5", "1", "1", "0.50"), False, "0", WRONG),
        (PIC, PAY, {"action": "pay", "amount": "37.50"}, False, "0", WRONG),
        # The chips are the answer: a stack worth less underpays whatever amount is stated.
        (PIC, PAY, paid("25", "5", "5", amount="37.50"), False, "-2.50", UNDER),
        (PIC, PAY, paid("25", "25"), False, "12.50", OVER),
        (PIC, PAY, {"action": "take", "amount": "25"}, False, "-62.50", Category.WRONG_OUTCOME),
        # Unreadable chips are no chips: what is stated moves, here nothing.
        (PIC, PAY, paid("x"), False, "-37.50", UNDER),
        (PIC, PAY, {}, False, "-37.50", Category.WRONG_OUTCOME),
        (PIC, INSURANCE, paid("5", "5"), False, "-15.00", Category.INSURANCE_ERROR),
        (PIC, INSURANCE, paid(*["5"] * 5), False, "0", WRONG),
        (UP, COLOUR, {"chips": ["1", "1", "1", "25"]}, True, "0", None),
        (UP, COLOUR, {"chips": ["5"] * 5 + ["1"] * 3}, False, "0", WRONG),
        (UP, COLOUR, {"chips": ["25"]}, False, "-3.00", UNDER),
        (CHANGE, COLOUR, {"chips": ["25", "5"]}, False, "2.00", OVER),
        (CHANGE, COLOUR, {"answer": "stand"}, False, "-28.00", UNDER),
    ],
)
def test_a_chip_answer_is_graded_money_first_then_chips(
    kind, expected, given, right, diff, category
):
    verdict = compare({"kind": kind, "expected": expected}, given)
    assert (verdict.right, verdict.money_diff, verdict.category) == (right, Decimal(diff), category)


def test_the_vocabulary_knows_which_kinds_take_chips():
    assert Kind.PAY_IN_CHIPS.takes_chips
    assert Kind.PAY_IN_CHIPS.moves_money
    assert Kind.COLOUR_UP.takes_chips
    assert not Kind.COLOUR_UP.moves_money
    assert not Kind.SETTLE_HAND.takes_chips


# Properties of the answer key's chips.


@cache
def fewest_count(cents: int, chips: tuple[int, ...]) -> int:
    """The fewest chips that make `cents`, by brute force (-1: none)."""
    best = [0] + [-1] * cents
    for n in range(1, cents + 1):
        options = [best[n - c] + 1 for c in chips if c <= n and best[n - c] >= 0]
        best[n] = min(options) if options else -1
    return best[cents]


def cents(values: list[str]) -> int:
    return int(sum(Decimal(v) for v in values) * 100)


STAKES = st.integers(min_value=2, max_value=200).map(lambda n: str(Decimal(n) * Decimal("2.5")))


@settings(max_examples=80, deadline=None)
@given(
    profile=st.sampled_from(sorted(PROFILES)),
    stake=STAKES,
    rule=st.sampled_from(["fewest", "match"]),
)
def test_the_chips_make_the_amount_from_the_table_and_none_fewer_exist(profile, stake, rule):
    p = PROFILES[profile]
    if Decimal(stake) < p.min_bet or Decimal(stake) > p.max_bet:
        return
    doc = natural(profile, stake, chip_rule=rule)
    (item,) = items(doc, "pay_in_chips")
    chips = item["expected"]["chips"]
    assert sum(Decimal(c) for c in chips) == Decimal(item["expected"]["amount"])
    assert {Decimal(c) for c in chips} <= set(p.chip_set)
    assert [Decimal(c) for c in chips] == sorted((Decimal(c) for c in chips), reverse=True)
    table = tuple(int(c * 100) for c in p.chip_set)
    if rule == "fewest":
        assert len(chips) == fewest_count(cents(chips), table)
    else:
        # As many copies of the bet's stack (its fewest chips here) as leave a rest the
        # table can make, and the rest in the fewest chips.
        stake_cents = int(Decimal(stake) * 100)
        copies = cents(chips) // stake_cents
        while fewest_count(cents(chips) - copies * stake_cents, table) < 0:
            copies -= 1
        rest = cents(chips) - copies * stake_cents
        assert len(chips) == copies * fewest_count(stake_cents, table) + fewest_count(rest, table)


@settings(max_examples=60, deadline=None)
@given(
    profile=st.sampled_from(sorted(PROFILES)),
    pile=st.lists(st.sampled_from(["1", "2.50", "5"]), min_size=3, max_size=40),
    cash=st.integers(min_value=1, max_value=1000),
)
def test_colour_up_and_change_give_the_fewest_chips_of_the_value(profile, pile, cash):
    p = PROFILES[profile]
    pile = [c for c in pile if Decimal(c) in p.chip_set]
    table = tuple(int(c * 100) for c in p.chip_set)
    work: dict[str, Any] = {"change": [{"box": 3, "player": "p1", "cash": str(cash)}]}
    if pile and fewest_count(cents(pile), table) < len(pile):
        work["colour_up"] = [{"box": 3, "player": "p1", "pile": pile}]
    doc = natural(profile, str(p.min_bet), copy.deepcopy(work))
    (changed,) = items(doc, "change")
    chips = changed["expected"]["chips"]
    assert cents(chips) == cash * 100
    assert all(Decimal(c) <= p.change_chip for c in chips)
    smaller = tuple(c for c in table if c <= p.change_chip * 100)
    assert len(chips) == fewest_count(cash * 100, smaller)
    if "colour_up" in work:
        (up,) = items(doc, "colour_up")
        chips = up["expected"]["chips"]
        assert cents(chips) == cents(pile)
        assert len(chips) == fewest_count(cents(pile), table) < len(pile)
