"""Chips: which chips pay an amount, colour up a pile or change cash, under a house's rule.

A dealer pays from the rack, not in figures, so the answer to a payout is a stack. The
house's rule decides which stack:

- ``fewest``: the fewest chips of the table's denominations that make the amount;
- ``match``: the bet's own colours first (each whole multiple of the bet is paid as a copy
  of the bet's stack, as a dealer "matches" a bet), then what is left in the fewest chips.

Several stacks can be equally few (0.50, 1, 2.50 and 5 make 5.00 as one red, but 6.00 as
5 + 1 or 2.50 + 2.50 + 1 ... the fewest is unique there; with other sets it need not be).
The tie-break is stated once and kept everywhere: of equally few stacks, the one with the
larger chips, compared largest chip first (the dealer keeps the small chips in the rack).

Colouring up exchanges a player's pile for the fewest chips of its value; change for cash
is the fewest chips no larger than the house's change chip (the largest chip a dealer gives
for cash, so the player can bet it).

Amounts are Decimals; stacks are tuples of denominations, largest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from math import gcd

Stack = tuple[Decimal, ...]

# The casino's usual denominations, smallest first (colours are the display's business).
STANDARD_CHIPS: tuple[Decimal, ...] = tuple(
    Decimal(value) for value in ("0.50", "1", "2.50", "5", "25", "100", "500", "1000")
)


class ChipRule(StrEnum):
    """How the house pays a win in chips."""

    FEWEST = "fewest"
    MATCH = "match"


class ChipError(ValueError):
    """An amount the table's chips cannot make, or chips the table does not hold."""


def _cents(amount: Decimal) -> int:
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ChipError(f"{amount} is not a whole number of cents")
    return int(cents)


def _denominations(chips: Iterable[Decimal]) -> tuple[int, ...]:
    """The chip set in cents, largest first, each once; refuses an empty or bad set."""
    found = sorted({_cents(Decimal(chip)) for chip in chips}, reverse=True)
    if not found or found[-1] <= 0:
        raise ChipError("a chip set needs at least one chip worth more than nothing")
    return tuple(found)


@lru_cache(maxsize=64)
def _table(denominations: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """The fewest-chips table of a chip set, in units of the set's common divisor.

    Returns (unit in cents, bound in units, fewest[n] for n up to the bound; -1: cannot be
    made). Above the bound an optimal stack always holds the largest chip: a smaller chip c
    used lcm(c, top)/c times could be swapped for fewer top chips, so the smaller chips of
    an optimal stack sum to less than the sum of those lcms, which is the bound.
    """
    unit = 0
    for value in denominations:
        unit = gcd(unit, value)
    units = tuple(value // unit for value in denominations)
    top = units[0]
    bound = top + sum(top * value // gcd(top, value) for value in units[1:])
    fewest = [0] + [-1] * bound
    for n in range(1, bound + 1):
        best = -1
        for value in units:
            if value <= n and fewest[n - value] >= 0:
                count = fewest[n - value] + 1
                if best < 0 or count < best:
                    best = count
        fewest[n] = best
    return unit, bound, tuple(fewest)


def fewest_chips(amount: Decimal, chips: Iterable[Decimal] = STANDARD_CHIPS) -> Stack:
    """The fewest chips of the set that make the amount, largest first (ties: larger chips).

    Raises ChipError when the set cannot make the amount exactly.
    """
    amount = Decimal(amount)
    if amount < 0:
        raise ChipError(f"{amount} is negative")
    denominations = _denominations(chips)
    cents = _cents(amount)
    unit, bound, fewest = _table(denominations)
    if cents % unit:
        raise ChipError(f"{amount} cannot be made with chips of {_names(denominations)}")
    left = cents // unit
    units = [value // unit for value in denominations]
    stack: list[int] = []
    if left > bound:
        # Whole top chips first, down to the part the table covers (see _table).
        extra = (left - bound + units[0] - 1) // units[0]
        stack += [units[0]] * extra
        left -= extra * units[0]
    if fewest[left] < 0:
        raise ChipError(f"{amount} cannot be made with chips of {_names(denominations)}")
    # The largest chip that still leaves a fewest stack for the rest: taking the largest
    # first gives the stack with the larger chips among the equally few.
    while left:
        for value in units:
            if value <= left and fewest[left - value] == fewest[left] - 1:
                stack.append(value)
                left -= value
                break
    return tuple(sorted((Decimal(value * unit).scaleb(-2) for value in stack), reverse=True))


def pay(
    amount: Decimal,
    *,
    rule: ChipRule,
    bet: Sequence[Decimal] = (),
    chips: Iterable[Decimal] = STANDARD_CHIPS,
) -> Stack:
    """The stack a win of `amount` is paid with, under the house's rule.

    `bet` is the bet's own stack (its chips as placed); under ``match`` each whole multiple
    of the bet is paid as a copy of it and the rest in the fewest chips (fewer copies when
    the rest could not be made otherwise). A bet of chips the
    table does not hold is refused.
    """
    chip_set = tuple(chips)
    if rule is ChipRule.FEWEST or not bet:
        return fewest_chips(amount, chip_set)
    held = set(_denominations(chip_set))
    if any(_cents(Decimal(chip)) not in held for chip in bet):
        raise ChipError("the bet holds a chip this table does not use")
    stake = sum((Decimal(chip) for chip in bet), Decimal(0))
    copies = int(Decimal(amount) // stake) if stake else 0
    # As many copies as leave a rest the chips can make: 9 on a bet of 5 + 2.50 with no
    # halves is one copy and 1.50, which no stack makes, so it is paid in the fewest chips.
    while True:
        rest = Decimal(amount) - copies * stake
        try:
            tail = fewest_chips(rest, chip_set)
        except ChipError:
            if copies == 0:
                raise
            copies -= 1
            continue
        stack = [Decimal(chip) for chip in bet] * copies + list(tail)
        return tuple(sorted(stack, reverse=True))


def colour_up(pile: Iterable[Decimal], *, chips: Iterable[Decimal] = STANDARD_CHIPS) -> Stack:
    """A player's pile exchanged for the fewest chips of its value."""
    total = sum((Decimal(chip) for chip in pile), Decimal(0))
    return fewest_chips(total, chips)


def change(cash: Decimal, *, largest: Decimal, chips: Iterable[Decimal] = STANDARD_CHIPS) -> Stack:
    """Cash on the layout changed into the fewest chips no larger than `largest` (the
    house's change chip: a player gets chips small enough to bet)."""
    allowed = [Decimal(chip) for chip in chips if Decimal(chip) <= Decimal(largest)]
    if not allowed:
        raise ChipError(f"no chip of this table is worth {largest} or less")
    return fewest_chips(cash, allowed)


def total(stack: Iterable[Decimal]) -> Decimal:
    """What a stack is worth."""
    return sum((Decimal(chip) for chip in stack), Decimal(0))


def chip_text(chip: Decimal) -> str:
    """A chip's value as written in the answer key and profiles: "25", "2.50", "0.50"."""
    chip = Decimal(chip)
    return f"{chip:.0f}" if chip == chip.to_integral_value() else f"{chip:.2f}"


def stack_text(stack: Iterable[Decimal]) -> list[str]:
    """A stack as the answer key writes it: chip values, largest first."""
    return [chip_text(chip) for chip in sorted((Decimal(c) for c in stack), reverse=True)]


def _names(denominations: Sequence[int]) -> str:
    return ", ".join(str(Decimal(value).scaleb(-2)) for value in sorted(denominations))
