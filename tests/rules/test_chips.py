"""Chips: the stacks a house rule pays with, table-driven and as properties."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.rules.chips import (
    STANDARD_CHIPS,
    ChipError,
    ChipRule,
    change,
    colour_up,
    fewest_chips,
    pay,
    total,
)


def chips_of(*values: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(value) for value in values)


NO_PINKS_OR_HALVES = chips_of("1", "5", "25", "100", "500", "1000")


@pytest.mark.parametrize(
    ("amount", "chips", "stack"),
    [
        # 3:2 on 25: the example a dealer learns first.
        ("37.50", STANDARD_CHIPS, chips_of("25", "5", "5", "2.50")),
        ("22.50", STANDARD_CHIPS, chips_of("5", "5", "5", "5", "2.50")),
        ("7.50", STANDARD_CHIPS, chips_of("5", "2.50")),
        ("0.50", STANDARD_CHIPS, chips_of("0.50")),
        ("3", STANDARD_CHIPS, chips_of("2.50", "0.50")),
        ("1234.50", STANDARD_CHIPS, chips_of("1000", "100", "100", "25", "5", "2.50", "1", "1")),
        # 6:5 on 10 pays 12, with no pinks on the table.
        ("12", NO_PINKS_OR_HALVES, chips_of("5", "5", "1", "1")),
        ("3", NO_PINKS_OR_HALVES, chips_of("1", "1", "1")),
        ("0", STANDARD_CHIPS, ()),
        # A set where the largest-first habit is not the fewest: 6 = 3 + 3, not 4 + 1 + 1.
        ("6", chips_of("1", "3", "4"), chips_of("3", "3")),
        # Equally few: 5 + 1 and 3 + 3 are both two chips; the tie goes to the larger chip.
        ("6", chips_of("1", "3", "5"), chips_of("5", "1")),
    ],
)
def test_fewest_chips(amount: str, chips: tuple[Decimal, ...], stack: tuple[Decimal, ...]) -> None:
    assert fewest_chips(Decimal(amount), chips) == stack


@pytest.mark.parametrize(
    ("amount", "chips", "says"),
    [
        ("0.50", NO_PINKS_OR_HALVES, "0.50 cannot be made with chips of 1.00, 5.00"),
        ("2.75", STANDARD_CHIPS, "2.75 cannot be made"),
        ("-5", STANDARD_CHIPS, "negative"),
        ("1.005", STANDARD_CHIPS, "not a whole number of cents"),
        ("5", (), "at least one chip"),
    ],
)
def test_what_cannot_be_paid_says_why(amount: str, chips: tuple[Decimal, ...], says: str) -> None:
    with pytest.raises(ChipError, match=says.replace(".", r"\.")):
        fewest_chips(Decimal(amount), chips)


@pytest.mark.parametrize(
    ("amount", "bet", "rule", "stack"),
    [
        # Five reds at even money: matched, five reds back.
        (
            "25",
            chips_of("5", "5", "5", "5", "5"),
            ChipRule.MATCH,
            chips_of("5", "5", "5", "5", "5"),
        ),
        ("25", chips_of("5", "5", "5", "5", "5"), ChipRule.FEWEST, chips_of("25")),
        # 3:2 on five reds: the bet matched, then half of it in the fewest chips.
        ("37.50", chips_of("5", "5", "5", "5", "5"), ChipRule.MATCH, chips_of(*["5"] * 7, "2.50")),
        # Insurance paying 2 to 1 on a green: two greens.
        ("50", chips_of("25"), ChipRule.MATCH, chips_of("25", "25")),
        # No bet stack given: the fewest chips whatever the rule.
        ("50", (), ChipRule.MATCH, chips_of("25", "25")),
    ],
)
def test_pay_under_each_rule(
    amount: str, bet: tuple[Decimal, ...], rule: ChipRule, stack: tuple[Decimal, ...]
) -> None:
    assert pay(Decimal(amount), rule=rule, bet=bet) == stack


def test_a_bet_of_chips_the_table_does_not_hold_is_refused() -> None:
    with pytest.raises(ChipError, match="does not use"):
        pay(
            Decimal("5"),
            rule=ChipRule.MATCH,
            bet=chips_of("2.50", "2.50"),
            chips=NO_PINKS_OR_HALVES,
        )


def test_colour_up_and_change() -> None:
    # Twelve reds and three whites (63.00): two greens, two reds, a pink and a half.
    assert colour_up(chips_of(*["5"] * 12, "1", "1", "1")) == chips_of(
        "25", "25", "5", "5", "2.50", "0.50"
    )
    assert change(Decimal("100"), largest=Decimal("25")) == chips_of("25", "25", "25", "25")
    assert change(Decimal("20"), largest=Decimal("5")) == chips_of("5", "5", "5", "5")
    with pytest.raises(ChipError, match=r"worth 0\.10 or less"):
        change(Decimal("20"), largest=Decimal("0.10"))


# Properties, against a brute force over small amounts.

chip_sets = st.lists(
    st.sampled_from(STANDARD_CHIPS + chips_of("3", "4", "10", "20")),
    min_size=1,
    max_size=5,
    unique=True,
).map(lambda found: tuple(sorted(found)))


@cache
def brute_force(amount: Decimal, chips: tuple[Decimal, ...]) -> tuple[tuple[Decimal, ...], ...]:
    """Every stack of the fewest chips that makes the amount (none when none does)."""
    for size in range(13):
        found = [
            tuple(sorted(stack, reverse=True))
            for stack in combinations_with_replacement(chips, size)
            if sum(stack, Decimal(0)) == amount
        ]
        if found:
            return tuple(found)
    return ()


@settings(max_examples=300, deadline=None)
@given(chips=chip_sets, halves=st.integers(min_value=0, max_value=60))
def test_the_stack_is_right_fewest_and_of_the_tables_chips(
    chips: tuple[Decimal, ...], halves: int
) -> None:
    amount = Decimal(halves) / 2
    best = brute_force(amount, chips)
    try:
        stack = fewest_chips(amount, chips)
    except ChipError:
        # Refused only when no stack (of up to 12 chips: enough below 30.00) exists.
        assert not best or min(chips) > amount
        return
    assert total(stack) == amount
    assert set(stack) <= set(chips)
    if best:
        assert len(stack) == len(best[0])
        # The stated tie-break: of equally few, the one with the larger chips.
        assert stack == max(best)


@settings(max_examples=200, deadline=None)
@given(
    amount=st.integers(min_value=0, max_value=2_000_000).map(lambda n: Decimal(n) / 2),
    rule=st.sampled_from(ChipRule),
    bet_halves=st.integers(min_value=1, max_value=400),
)
def test_every_payout_adds_up_on_the_standard_set(
    amount: Decimal, rule: ChipRule, bet_halves: int
) -> None:
    bet = fewest_chips(Decimal(bet_halves) / 2)
    stack = pay(amount, rule=rule, bet=bet)
    assert total(stack) == amount
    assert set(stack) <= set(STANDARD_CHIPS)
    assert list(stack) == sorted(stack, reverse=True)
    if rule is ChipRule.FEWEST:
        assert stack == fewest_chips(amount)
