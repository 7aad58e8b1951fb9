"""Presenting Scarne's Casino: the public question, the table's view and its template, and
every word a page, CSV or PDF reads of a Casino question or answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainer.games.casino import display, grammar, page, words
from trainer.games.casino.keying import prompt_of

# How each kind is answered, said once under the question (``note``).
NOTES = {
    "is_legal": "Answer legal, or illegal with the reason.",
    "may_take": "Pick every item the card takes, or say it takes nothing.",
    "legal_plays": "Make each play, add it to your list, then answer.",
    "score_hand": "Write each player's points on every line, and who wins.",
    "rule_on": "Choose the ruling.",
}


def question_text(question: Mapping[str, Any], *, note: bool = False) -> str:
    """The question as the trainee reads it; "" for a view without a question (an author's
    preview of the table)."""
    kind = str(question.get("kind"))
    if kind not in words.KIND_WORDS:
        return ""
    text = prompt_of(kind, question.get("view") or {})
    return f"{text} {NOTES[kind]}" if note and kind in NOTES else text


def takes_words(takes: Sequence[str], names: Mapping[str, str] | None = None) -> str:
    named = names or {}
    said = [named.get(key) or words.key_words(key) for key in takes]
    return f"Takes {words.and_list(said)}" if said else "Takes nothing"


def answer_words(answer: Mapping[str, Any] | None, *, missing: str = "—") -> str:
    """A Casino answer, given or expected, in words."""
    if not answer:
        return missing
    if "legal" in answer:
        if answer["legal"]:
            return "Legal"
        reason = words.REASON_WORDS.get(str(answer.get("reason")), "no reason given")
        return f"Illegal: {reason[:1].lower()}{reason[1:]}"
    if "takes" in answer:
        takes = answer["takes"]
        if takes and isinstance(takes[0], list):  # expected: every largest take
            # Each largest take a dealer may make: "Takes K♦, or takes K♠".
            first, *others = [takes_words(option) for option in takes]
            return ", or ".join([first, *(other[:1].lower() + other[1:] for other in others)])
        return takes_words(takes)
    if "plays" in answer:
        plays = [
            play if isinstance(play, str) else grammar.play_text(play) for play in answer["plays"]
        ]
        return "; ".join(play_words(text) for text in sorted(plays)) or "No legal play"
    if "ruling" in answer:
        return words.ruling_words(answer)
    if "dealer" in answer or "non_dealer" in answer:
        return words.score_words(answer)
    return missing


def play_words(text: str) -> str:
    """A stored play ("build 9 on 3h+6s with 5d") in the felt's words ("Add to the build of 9
    (3♥ 6♠), with 5♦"): words.written_play_words, one voice for every written play."""
    return words.written_play_words(text)


class CasinoPresenting:
    # The table's template; the table's engineer draws the felt in it.
    table_template = "games/casino/_table.html"

    def rule_words(self, rule: str) -> str:
        return rule

    def kind_words(self, kind: str) -> str:
        return words.KIND_WORDS.get(kind, "A Casino question")

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        return question_text(question, note=note)

    def answer_words(
        self, answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
    ) -> str:
        return answer_words(answer, missing=missing)

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        return (answer_words(answer, missing=""), "")

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
        return {"view": self.question_view(question, answer_key)}

    def table(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        # An author's preview passes the view alone (no kind): the felt needs no prompt.
        prompt = question_text(question) if question.get("kind") in NOTES else ""
        return display.table_model(question.get("view") or {}, prompt=prompt)

    def review_table(
        self,
        question: Mapping[str, Any] | None,
        *,
        view: Mapping[str, Any],
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        prompt = question_text({**question, "view": view}) if question is not None else ""
        return display.table_model(view, prompt=prompt)

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
        return page.table_page(question, question_text(question, note=True), posted=posted)
