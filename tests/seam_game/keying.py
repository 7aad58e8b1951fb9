"""Dealer draws' answer key: one question a round."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tests.seam_game.marking import DRAW_KIND
from trainer.games import DocumentError


class DealerDrawsKeying:
    def settled_line(self, text: str) -> str:
        return self.answer_key_line(text)

    def answer_key_line(self, text: str) -> str:
        try:
            document = json.loads(text)
            out: dict[str, Any] = {
                "id": document.get("id"),
                "answer_key": self.answer_key(document),
            }
        except (ValueError, AttributeError) as err:
            out = {"error": {"message": str(err), "reason": "bad_round"}}
        except DocumentError as err:
            out = {"error": {"message": err.message, "reason": err.reason}}
        return json.dumps(out, separators=(",", ":"))

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
