"""Dealer draws' answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import TrainerError


class DealerDrawsReading:
    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        if answer.get("answer") not in ("hit", "stand"):
            raise TrainerError("answer must be hit or stand", field="answer")
        return {"answer": answer["answer"]}
