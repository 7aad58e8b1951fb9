"""Dealer draws' marks."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from trainer import rules


class DealerDrawsMarking:
    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> rules.Verdict:
        right = answer == question["expected"]
        return rules.Verdict(
            right, Decimal("0.00"), None if right else rules.Category.PROCEDURE_ERROR
        )

    def unanswered(self) -> rules.Verdict:
        return rules.unanswered()
