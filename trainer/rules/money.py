"""Decimal amounts: strict parsing of the format's decimal strings, two-decimal output."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from functools import lru_cache

from .errors import ScenarioError, quoted

CENT = Decimal("0.01")
ZERO = Decimal(0)
# Far above any table limit, low enough that no arithmetic here loses precision.
MAX_AMOUNT = Decimal(10) ** 12

_AMOUNT = re.compile(r"(?:0|[1-9][0-9]{0,12})(?:\.[0-9]{1,2})?")


def quick_amount(value: object) -> Decimal | None:
    """A positive amount from a well-formed decimal string, else None (parse_amount says why)."""
    return _amount_of(value) if type(value) is str else None


# Amount texts repeat a lot ("10", "25"), and Decimal() is the slow part of parsing them.
@lru_cache(maxsize=4096)
def _amount_of(text: str) -> Decimal | None:
    if _AMOUNT.fullmatch(text):
        amount = Decimal(text)
        if amount:
            return amount
    return None


def parse_amount(value: object, field: str, box: int | None = None) -> Decimal:
    """A positive amount from a decimal string such as "12.50"; floats and numbers are refused."""
    amount = quick_amount(value)
    if amount is not None:
        return amount
    if not isinstance(value, str):
        kind = "a boolean" if isinstance(value, bool) else f"a {type(value).__name__}"
        raise ScenarioError(
            field, "bad_amount", f'{field} must be a decimal string like "12.50", not {kind}', box
        )
    if not _AMOUNT.fullmatch(value):
        if value.startswith("-"):
            message = f"{field} is negative ({quoted(value)}); amounts are positive"
            raise ScenarioError(field, "negative_amount", message, box)
        message = (
            f"{field} must be a decimal string with at most 2 decimals "
            f'and at most 13 digits, like "12.50"; got {quoted(value)}'
        )
        raise ScenarioError(field, "bad_amount", message, box)
    raise ScenarioError(field, "zero_amount", f"{field} must be more than 0", box)


# Formatting a Decimal is slow next to a cache lookup, and the same amounts recur.
@lru_cache(maxsize=4096)
def fmt(amount: Decimal) -> str:
    """Two-decimal text of an amount ("15.00", "-7.50"), never "-0.00"."""
    return f"{amount:.2f}" if amount else "0.00"


def round_down(amount: Decimal, unit: Decimal) -> Decimal:
    """The amount rounded down to a multiple of unit (a natural's winnings in whole chips)."""
    return (amount / unit).to_integral_value(ROUND_DOWN) * unit


def cents_down(amount: Decimal) -> Decimal:
    """The amount rounded down to the cent (the house never pays a fraction of a cent)."""
    return amount.quantize(CENT, ROUND_DOWN)


def cents_up(amount: Decimal) -> Decimal:
    """The amount rounded up to the cent (what the house takes, e.g. half an odd stake)."""
    return amount.quantize(CENT, ROUND_UP)
