"""Dealer draws: a second game, never shipped, that proves the game seam.

A dealer holding ``total`` draws below 17 and stands from 17: one question a round. It has
its own question kinds, mistake categories, skills, rule parameters and table, and the
tests run it the whole way (authored, dealt, answered by page and API, graded, reviewed,
reported) through ``trainer.games`` alone. Test settings load it (``SHOESCHOOL_GAMES``), in
the test process and in the Celery worker the tests start alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from core.errors import TrainerError
from trainer import rules
from trainer.games import DocumentError, game_register


class DealerDraws:
    name = "dealer-draws"

    def answer_key(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        total = document.get("total")
        if not isinstance(total, int) or not 2 <= total <= 26:
            raise DocumentError("total must be a whole number from 2 to 26", field="total")
        word = "hit" if total < 17 else "stand"
        prompt = f"Dealer has {total}. Hit or stand?"
        view = {"total": total}
        question = {"n": 1, "kind": "dealer_play", "prompt": prompt, "view": view}
        return [{**question, "expected": {"answer": word}, "rule": "draw to 16, stand on 17"}]

    def under_profile(
        self, document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        return dict(document)

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        if answer.get("answer") not in ("hit", "stand"):
            raise TrainerError("answer must be hit or stand", field="answer")
        return {"answer": answer["answer"]}

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> rules.Verdict:
        right = answer == question["expected"]
        return rules.Verdict(
            right, Decimal("0.00"), None if right else rules.Category.PROCEDURE_ERROR
        )

    def unanswered(self) -> rules.Verdict:
        return rules.unanswered()


game_register(DealerDraws())
