"""Dealer draws' table and questions as the shell shows them, and its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.seam_game.marking import DRAW_KIND

WORDS = {"hit": "Draw a card", "stand": "Stand"}


# The answer form's buttons: (value, keyboard key, words).
BUTTONS = (("hit", "D", "Draw a card"), ("stand", "S", "Stand"))


class DealerDrawsPresenting:
    table_template = "games/dealer-draws/_table.html"

    def rule_words(self, rule: str) -> str:
        return rule

    def kind_words(self, kind: str) -> str:
        return "Draw or stand" if kind == DRAW_KIND else kind

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

    def answer_drawing(self, answer: Mapping[str, Any] | None) -> list[Any]:
        return []

    def table_page(
        self,
        question: Mapping[str, Any],
        document: Mapping[str, Any] | None,
        *,
        parameters: Mapping[str, Any],
        posted: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        return {
            "question_text": self.question_words(question, document, note=True),
            "table": self.table(question, document),
            "work": None,
            "work_rule": "",
            "rack_fields": [],
            "buttons": [{"value": v, "key": k, "label": w} for v, k, w in BUTTONS],
            "settlement_choices": (),
            "vocabulary": "{}",
            "chips": [],
        }
