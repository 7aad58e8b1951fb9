"""Decimal amounts typed by people: the one grammar the services read them with.

A whole part of ASCII digits (Python's ``\\d`` and Decimal also read Arabic-Indic and
full-width digits, which no form means), then at most two decimals. Each caller says how
many whole digits it takes and whether leading zeros are allowed, and words its own
messages for what it refuses. (The rules engine, which imports nothing of ours, has its
own strict parser: trainer.rules.money.)
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cache


@cache
def _pattern(whole_digits: int, leading_zeros: bool) -> re.Pattern[str]:
    whole = (
        f"[0-9]{{1,{whole_digits}}}"
        if leading_zeros
        else f"(?:0|[1-9][0-9]{{0,{whole_digits - 1}}})"
    )
    return re.compile(whole + r"(?:\.[0-9]{1,2})?")


def decimal_amount(text: str, *, whole_digits: int, leading_zeros: bool) -> Decimal | None:
    """The amount the text writes, or None when it is not such an amount (the caller says
    why: negative, too many decimals, other digits ...)."""
    if _pattern(whole_digits, leading_zeros).fullmatch(text):
        return Decimal(text)
    return None
