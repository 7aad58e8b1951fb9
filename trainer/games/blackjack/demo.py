"""Blackjack's demo trainee: the answers the demo history gives (setup_demo_history), the
key's answer as a dealer gives it or a plausible dealer's mistake."""

from __future__ import annotations

import random
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from trainer import rules
from trainer.games.blackjack.reading import answer_fields

# A chip broken into smaller ones of the same worth: the right money in the wrong chips.
_BROKEN = {"1000": ["500", "500"], "500": ["100"] * 5, "100": ["25"] * 4, "25": ["5"] * 5,
           "5": ["1"] * 5}  # fmt: skip


def _chip_slip(expected: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A dealer's chip mistake: most often the right money in smaller chips, else a chip
    short (the wrong money)."""
    chips = list(expected["chips"])
    breakable = [chip for chip in chips if chip in _BROKEN]
    if breakable and rng.random() < 0.7:
        chip = rng.choice(breakable)
        chips.remove(chip)
        chips += _BROKEN[chip]
    elif len(chips) > 1:
        chips.pop()
    else:
        chips.append(chips[0])
    answer: dict[str, Any] = {"chips": chips}
    if "action" in expected:
        answer["action"] = expected["action"]
    return answer


def given(key: Mapping[str, Any]) -> dict[str, Any]:
    """The right answer as a dealer gives it: the expected answer's fields that an answer
    takes (the key also notes, e.g., which payout a stack settles)."""
    fields = answer_fields(key["kind"])
    return {name: value for name, value in key["expected"].items() if name in fields}


def slip(key: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plausible dealer's mistake for this question."""
    expected = key["expected"]
    if "chips" in expected:
        return _chip_slip(expected, rng)
    if "action" not in expected:
        # The other word the question accepts: hit for stand, no_offer for offer, ...
        words = rules.PROCEDURE_ANSWERS.get(key["kind"], ())
        other = [word.value for word in words if word != expected["answer"]]
        slip = {"answer": other[0] if len(other) == 1 else expected["answer"]}
        # A peek's finding goes with a peek only (an answer takes no field it cannot use).
        if "dealer_blackjack" in expected and slip["answer"] == expected["answer"]:
            slip["dealer_blackjack"] = not expected["dealer_blackjack"]
        return slip
    amount = Decimal(expected["amount"])
    if expected["action"] == rules.MoneyAction.PUSH or amount == 0:
        return {"action": rules.MoneyAction.TAKE.value, "amount": "5.00"}
    off = Decimal(rng.choice(["0.50", "1.00", "2.50", "5.00"]))
    changed = amount + off if rng.random() < 0.5 else max(amount - off, Decimal("0.50"))
    return {"action": expected["action"], "amount": str(changed.quantize(Decimal("0.01")))}
