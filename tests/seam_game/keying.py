"""Dealer draws' answer key: one question a round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.seam_game.marking import DRAW_KIND
from trainer.games import DocumentError


class DealerDrawsKeying:
    def answer_key(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        total = document.get("total")
        if not isinstance(total, int) or not 2 <= total <= 26:
            raise DocumentError("total must be a whole number from 2 to 26", field="total")
        stands_on = document.get("stands_on", 17)
        word = "hit" if total < stands_on else "stand"
        prompt = f"Dealer has {total}. Hit or stand?"
        view = {"total": total}
        question = {"n": 1, "kind": DRAW_KIND, "prompt": prompt, "view": view}
        return [
            {
                **question,
                "expected": {"answer": word},
                "rule": f"draw to {stands_on - 1}, stand on {stands_on}",
            }
        ]

    def under_profile(
        self, document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        return dict(document)
