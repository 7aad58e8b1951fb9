"""Dealer draws' answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import ProductError
from trainer.games.reading import AnswerField


class DealerDrawsReading:
    answer_fields = (
        AnswerField("answer", "word", "Draw or stand: hit or stand.", choices=("hit", "stand")),
    )

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        if answer.get("answer") not in ("hit", "stand"):
            raise ProductError("answer must be hit or stand", field="answer")
        return {"answer": answer["answer"]}

    def form_answer(self, post: Mapping[str, Any]) -> dict[str, Any]:
        """The page's buttons (tests/seam_game/presenting.py) post ``answer``."""
        word = post.get("answer")
        if word is None:
            raise ProductError("choose draw or stand", field="answer")
        return {"answer": str(word)}
