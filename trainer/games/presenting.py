"""Presenting: what the shell shows of a question (the public question, the table's view
and its template, the answer form, the words).

The words are the labeller every page, CSV and PDF reads a game's records through: the
shell never spells a game's kinds or answers itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Presenting(Protocol):
    # The template (under templates/games/<game>/ for a new game) that draws ``table`` and
    # ``review_table``, included by the trainee's page and the pit's drill-down.
    table_template: str

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

    def prompt_words(self, prompt: str) -> str:
        """An engine's prompt (a stored question's ``prompt``) in the game's words, for a
        question kept from before its view was recorded ("Ts" as "10♠")."""
        ...

    def question_view(
        self, question: Mapping[str, Any], answer_key: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """What the table shows at a stored question (its ``view``, as the game reveals it
        to the dealer), given the round's whole stored ``answer_key``."""
        ...

    def public_question(
        self,
        question: Mapping[str, Any],
        *,
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any],
    ) -> dict[str, Any]:
        """A stored question's own fields as the trainee may see them (never its expected
        answer or rule): at least its ``view`` (``question_view``), and what it is answered
        with. The shell adds the fields every game's question has (position, n, kind,
        prompt, the time limit)."""
        ...

    def table(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """The table's view model at a public question (``public_question`` with the
        shell's fields) on the trainee's page, drawn by the game's ``table_template``;
        without a ``document`` (an author's preview), players are named from the view."""
        ...

    def review_table(
        self,
        question: Mapping[str, Any] | None,
        *,
        view: Mapping[str, Any],
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The table's view model as the trainee saw it (``view``, the decision's shown) at
        a stored ``question`` (None when the key no longer has it), for the pit's
        drill-down; drawn by the same ``table_template``."""
        ...

    def answer_drawing(self, answer: Mapping[str, Any] | None) -> list[Any]:
        """What an answer (given or expected) draws beside its words on the results pages
        (blackjack's chips); [] for none."""
        ...

    def table_page(
        self,
        question: Mapping[str, Any],
        document: Mapping[str, Any] | None,
        *,
        parameters: Mapping[str, Any],
        posted: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The game's part of the trainee's table page at a public question: at least
        ``table`` (drawn by ``table_template``), ``question_text``, ``buttons`` (the answer
        form's buttons) and ``work_rule`` (words the placard adds, "" for none); optionally
        ``answer_template``/``answer_form``/``keys_legend`` (the game's own answer form)
        and ``game_scripts``/``game_styles`` (static paths the page loads); the
        ``posted`` form refills the fields after a refused answer. ``parameters`` are the
        round's rule profile's."""
        ...

    def rule_words(self, rule: str) -> str:
        """The rule a question rests on (the answer key's ``rule``), as a person reads it:
        without the engine's own names for its parameters and profiles."""
        ...
