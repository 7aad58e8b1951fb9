"""Presenting blackjack: what its table and questions show, and its words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.games.blackjack import words


class BlackjackPresenting:
    def kind_words(self, kind: str) -> str:
        return words.kind_label(kind)

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        return words.key_text(question, document, note=note)

    def answer_words(
        self, answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
    ) -> str:
        return words.answer_label(answer, details=details, missing=missing)

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        return words.answer_parts(answer)

    def answer_stack(self, answer: Mapping[str, Any]) -> str:
        return words.chips_text(answer)
