"""Presenting: what the shell shows of a question (the public question, the table's view
and its template, the answer form, the words).

The words are the labeller every page, CSV and PDF reads a game's records through: the
shell never spells a game's kinds or answers itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Presenting(Protocol):
    def kind_words(self, kind: str) -> str:
        """What a question of ``kind`` asks, as a dealer says it ("Settle a hand")."""
        ...

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        """A stored answer-key question as the trainee read it, naming players by the round's
        ``document``; ``note`` adds the game's reminder of how to answer (a money question's
        "Amount: ..."), left off in lists that say it once for all."""
        ...

    def answer_words(
        self, answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
    ) -> str:
        """A stored answer (or an expected one) in words: 'Pay 37.50', 'Peek: no natural';
        ``missing`` when there is none. ``details`` adds what a trainee stated besides."""
        ...

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        """An answer as the compliance CSV's two columns: its action in words and its
        amount ("Pay", "37.50"); ("", "") when there is none."""
        ...

    def answer_stack(self, answer: Mapping[str, Any]) -> str:
        """The stack an answer holds, in words, for the compliance CSV's stack column
        ("25 + 5 + 2.50"); "" for an answer with none (every answer of most games)."""
        ...
