"""Dealer draws' table and questions as the shell shows them, and its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

WORDS = {"hit": "Draw a card", "stand": "Stand"}


class DealerDrawsPresenting:
    def kind_words(self, kind: str) -> str:
        return "Draw or stand"

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        return f"The dealer holds {question['view']['total']}: draw or stand?"

    def answer_words(
        self, answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
    ) -> str:
        if not answer:
            return missing
        return WORDS.get(str(answer.get("answer")), str(answer.get("answer")))

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        return (self.answer_words(answer, missing=""), "")

    def answer_stack(self, answer: Mapping[str, Any]) -> str:
        return ""

    def prompt_words(self, prompt: str) -> str:
        return prompt

    def question_view(
        self, question: Mapping[str, Any], answer_key: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        return dict(question.get("view") or {})

    def public_question(
        self,
        question: Mapping[str, Any],
        *,
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any],
    ) -> dict[str, Any]:
        return {"view": self.question_view(question, answer_key), "answers": list(WORDS)}

    def table(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        return {"total": (question.get("view") or {}).get("total"), "work": None}

    def review_table(
        self,
        question: Mapping[str, Any] | None,
        *,
        view: Mapping[str, Any],
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        return {"total": view.get("total"), "work": None}
