"""Presenting blackjack: what its table and questions show, and its words.

The public question (what the trainee may see of an answer-key question: the stake, the
settlement actions or procedure answers, a chip question's rack), the table's view at a
question (the peek shows the hole card) and the words of kinds, questions and answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from trainer import rules
from trainer.games.blackjack import display, page, words
from trainer.games.blackjack.authoring import CHIP_TARGET_SECONDS
from trainer.games.blackjack.rule_words import rule_text
from trainer.rules.chips import chip_text, stack_text
from trainer.rules.money import fmt


class BlackjackPresenting:
    # The table's template (templates/), for the trainee's page and the pit's drill-down.
    table_template = "games/blackjack/_table.html"

    def rule_words(self, rule: str) -> str:
        return rule_text(rule)

    def kind_words(self, kind: str) -> str:
        return words.kind_label(kind)

    def question_words(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None, *, note: bool
    ) -> str:
        return words.key_text(question, document, note=note)

    def prompt_words(self, prompt: str) -> str:
        return words.dealer_words(prompt)

    def answer_words(
        self, answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
    ) -> str:
        return words.answer_label(answer, details=details, missing=missing)

    def answer_columns(self, answer: Mapping[str, Any] | None) -> tuple[str, str]:
        return words.answer_parts(answer)

    def answer_stack(self, answer: Mapping[str, Any]) -> str:
        return words.chips_text(answer)

    def answer_drawing(self, answer: Mapping[str, Any] | None) -> list[Any]:
        return page.answer_drawing(answer)

    def table_page(
        self,
        question: Mapping[str, Any],
        document: Mapping[str, Any] | None,
        *,
        parameters: Mapping[str, Any],
        posted: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        return page.table_page(question, document, parameters=parameters, posted=posted)

    def question_view(
        self, question: Mapping[str, Any], answer_key: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        return question_view(question, answer_key)

    def public_question(
        self,
        question: Mapping[str, Any],
        *,
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any],
    ) -> dict[str, Any]:
        return public_fields(question, answer_key=answer_key, document=document)

    def table(
        self, question: Mapping[str, Any], document: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        seats = words.seat_names(document) if document is not None else None
        return display.question_table(question, seats)

    def review_table(
        self,
        question: Mapping[str, Any] | None,
        *,
        view: Mapping[str, Any],
        answer_key: Sequence[Mapping[str, Any]],
        document: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The table as the trainee saw it; for a chip question with what lay on the layout
        (the pile to colour up, the cash to change, the bet as placed), as the rack showed
        it."""
        seats = words.seat_names(document)
        if question is None or question.get("kind") not in rules.CHIP_KINDS:
            return display.table_view(view, seats=seats)
        shown = public_fields(question, answer_key=answer_key, document=document or {})
        return display.question_table({"kind": question["kind"], **shown, "view": view}, seats)


def _stake(key: rules.Question, view: Mapping[str, Any]) -> str | None:
    """The stake a settlement question is about, read from what the table shows."""
    for box in view.get("boxes", []):
        if box["box"] != key.box:
            continue
        player = key.player
        if key.kind == rules.Kind.SETTLE_INSURANCE:
            value: str | None = box.get("insurance", {}).get(player)
            return value
        hands = box["hands"]
        index = (key.hand or 1) - 1
        if index < len(hands):
            return hands[index]["stakes"].get(player)
    return None


def question_view(
    question: Mapping[str, Any], answer_key: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """What the table shows for a question.

    At the peek the dealer looks at the hole card, so the trainee (the dealer) sees it
    whatever it is; the engine's view shows it only when it makes a natural, which would
    give the answer away.
    """
    view: dict[str, Any] = dict(question.get("view") or {})
    if question.get("kind") == rules.Kind.PEEK and answer_key:
        final_dealer = (answer_key[-1].get("view") or {}).get("dealer") or []
        if len(final_dealer) > 1:
            view["dealer"] = [final_dealer[0], final_dealer[1]]
    return view


def public_fields(
    question: Mapping[str, Any],
    *,
    answer_key: Sequence[Mapping[str, Any]],
    document: Mapping[str, Any],
) -> dict[str, Any]:
    """A question's own fields as the trainee may see them (never its expected answer or
    rule): who it is about, the table's view, and what it is answered with."""
    key = rules.Question.from_dict(question)
    view = question_view(question, answer_key)
    shown: dict[str, Any] = {"box": key.box, "hand": key.hand, "player": key.player, "view": view}
    if key.moves_money:
        shown["stake"] = _stake(key, view)
        shown["actions"] = [action.value for action in rules.MoneyAction]
    elif key.kind not in rules.CHIP_KINDS:
        shown["answers"] = [word.value for word in rules.PROCEDURE_ANSWERS.get(key.kind, ())]
    if key.kind in rules.CHIP_KINDS:
        shown.update(chip_work(document, question))
    return shown


def chip_work(document: Mapping[str, Any], question: Mapping[str, Any]) -> dict[str, Any]:
    """What a chip question puts in front of the dealer besides the table: the rack (the
    table's chips, largest first), a colour-up's pile or a change's cash, and the target
    time. Read from the round's document, never from the expected stack."""
    profile = rules.profile_from_rules(document.get("rules"))
    kind = str(question.get("kind"))
    work: dict[str, Any] = {
        "rack": [chip_text(chip) for chip in sorted(profile.chip_set, reverse=True)],
        "target_seconds": int(CHIP_TARGET_SECONDS.get(kind) or 0),
        "chip_rule": profile.chip_rule,
    }
    section = document.get("chips") or {}
    mine = (question.get("box"), question.get("player"))
    if kind == rules.Kind.PAY_IN_CHIPS:
        # A bet placed in other chips than the fewest (a "match" table pays in its colours).
        for entry in section.get("bets") or []:
            if (entry.get("box"), entry.get("player")) == mine:
                work["bet"] = stack_text(entry.get("stack") or [])
                break
    elif kind == rules.Kind.COLOUR_UP:
        for entry in section.get("colour_up") or []:
            if (entry.get("box"), entry.get("player")) == mine:
                work["pile"] = stack_text(entry.get("pile") or [])
                break
    elif kind == rules.Kind.CHANGE:
        for entry in section.get("change") or []:
            if (entry.get("box"), entry.get("player")) == mine:
                work["cash"] = fmt(Decimal(str(entry.get("cash"))))
                break
    return work
