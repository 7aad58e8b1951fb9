"""Reading blackjack's answers: the one grammar of an answer, for the page's form and the
API's JSON alike (docs/api.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from core.amounts import decimal_amount
from core.errors import ProductError, clip, echo
from trainer import rules
from trainer.games.reading import AnswerField
from trainer.rules.chips import chip_text

MAX_AMOUNT = Decimal("1000000")
CENT = Decimal("0.01")


ANSWER_FIELDS: tuple[AnswerField, ...] = (
    AnswerField(
        "action",
        "word",
        f"Money questions ({', '.join(k for k in rules.Kind if k.moves_money)}).",
        choices=tuple(action.value for action in rules.MoneyAction),
    ),
    AnswerField(
        "amount",
        "money",
        'Money questions: a string of the digits 0-9 with at most cents, e.g. "12.50"; '
        "never a JSON number. Leave it out for a push.",
    ),
    AnswerField(
        "answer",
        "word",
        "Procedure questions: one of the question's `answers` "
        f"({', '.join(rules.ProcedureAnswer)}).",
    ),
    AnswerField(
        "dealer_blackjack",
        "boolean",
        "Peek questions answered `peek`: does the dealer hold a natural?",
    ),
    AnswerField(
        "total",
        "integer",
        "dealer_play, optional: the dealer's total as you count it; graded when given.",
        minimum=2,
        maximum=31,
    ),
    AnswerField("soft", "boolean", "dealer_play, optional: whether that total is soft."),
    AnswerField(
        "chips",
        "money_list",
        "Chip questions (pay_in_chips with action `pay`, colour_up, change): the "
        'chips handed over, one string per chip from the question\'s `rack`, e.g. ["25", "5", '
        '"5", "2.50"] (any order); never JSON numbers. Their sum is the amount paid.',
        most=200,
    ),
)


class BlackjackReading:
    answer_fields = ANSWER_FIELDS

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        return parse_answer(kind, answer, document=document)

    def form_answer(self, post: Mapping[str, Any]) -> dict[str, Any]:
        from trainer.games.blackjack.page import form_answer

        return form_answer(post)


def parse_amount(value: object) -> Decimal:
    """An amount from a string of the digits 0-9 with at most two decimals (docs/api.md).

    JSON numbers are refused (money never passes through a float), and so are other
    scripts' digits, which Python's ``\\d`` and Decimal would read. A message repeats at
    most 30 characters of what was sent (as core.errors.echo does).
    """
    if not isinstance(value, str):
        kinds = {bool: "true or false", int: "a number", float: "a number", list: "a list"}
        kind = "null" if value is None else kinds.get(type(value), "an object")
        raise ProductError(
            f'amount must be written as a string such as "12.50", not {kind}', field="amount"
        )
    text = value.strip(" \t\r\n")
    shown = repr(text if len(text) <= 30 else text[:30] + "…")
    if text == "":
        raise ProductError("amount is required for pay, take and take half", field="amount")
    if text.startswith("-"):
        raise ProductError(f"amount cannot be negative: {shown}", field="amount")
    amount = decimal_amount(text, whole_digits=9, leading_zeros=True)
    if amount is None:
        if re.fullmatch(r"[0-9]+\.[0-9]{3,}", text):
            raise ProductError(
                f"amount is paid to the cent, two places at most (like 12.50): {shown}",
                field="amount",
            )
        if any(char.isdecimal() and not char.isascii() for char in text):
            raise ProductError(
                f"amount must be written with the digits 0-9: {shown}", field="amount"
            )
        raise ProductError(
            f'amount is not a number of dollars and cents: {shown} (write it like "12.50")',
            field="amount",
        )
    if amount > MAX_AMOUNT:
        raise ProductError(f"amount is over the 1,000,000 limit: {shown}", field="amount")
    if amount == 0:
        raise ProductError("amount must be more than 0 (a push moves no money)", field="amount")
    return amount.quantize(CENT)


def answer_fields(kind: str) -> tuple[str, ...]:
    """The fields an answer to a question of ``kind`` may hold; anything else is refused."""
    if kind == rules.Kind.PAY_IN_CHIPS:
        return ("action", "amount", "chips")
    if kind in rules.CHIP_KINDS:
        return ("chips", "amount")
    if kind in rules.MONEY_KINDS:
        return ("action", "amount")
    if kind == rules.Kind.PEEK:
        return ("answer", "dealer_blackjack")
    if kind == rules.Kind.DEALER_PLAY:
        # The dealer's total and whether it is soft, checked when stated (rules.compare).
        return ("answer", "total", "soft")
    return ("answer",)


def parse_answer(
    kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The answer in the shape the grader compares, or a ProductError naming the fault.

    Strict: a field this kind of question does not take is refused (never ignored), and
    a chip must be one of the table's rack, read from the round's ``document`` as the
    question shows it (``trainer.selectors.attempts.chip_work``)."""
    if not isinstance(answer, Mapping):
        raise ProductError("answer must be an object", field="answer")
    allowed = answer_fields(kind)
    unknown = [str(key) for key in answer if key not in allowed]
    if unknown:
        raise ProductError(
            f"this question does not take {echo(unknown[0])} in its answer; "
            f"it takes {', '.join(allowed)}",
            field=f"answer.{clip(unknown[0])}",
            code="unknown_field",
        )
    if kind in rules.CHIP_KINDS:
        chip_answer = _parse_chips(kind, answer, document)
        if chip_answer is not None:
            return chip_answer
    if kind in rules.MONEY_KINDS:
        action = rules.money_action_of(answer.get("action"))
        if action is None:
            raise ProductError(
                f"action must be one of {', '.join(rules.MoneyAction)}", field="action"
            )
        if action is rules.MoneyAction.PUSH:
            if str(answer.get("amount") or "0").strip() not in ("", "0", "0.0", "0.00"):
                raise ProductError("a push moves no money: leave the amount empty", field="amount")
            return {"action": action.value, "amount": "0.00"}
        if "amount" not in answer:
            raise ProductError(f"amount is required to {action.replace('_', ' ')}", field="amount")
        return {"action": action.value, "amount": str(parse_amount(answer["amount"]))}
    words = rules.PROCEDURE_ANSWERS.get(kind)
    if words is None:
        raise ProductError(f"question kind {echo(kind)} cannot be answered here", field="question")
    word = answer.get("answer")
    if not isinstance(word, str) or word not in words:
        raise ProductError(f"answer must be one of {', '.join(words)}", field="answer")
    parsed: dict[str, Any] = {"answer": str(word)}
    if kind == rules.Kind.PEEK and word == rules.ProcedureAnswer.PEEK:
        natural = answer.get("dealer_blackjack")
        if not isinstance(natural, bool):
            raise ProductError(
                "say whether the peek finds a dealer natural (dealer_blackjack: true or false)",
                field="dealer_blackjack",
            )
        parsed["dealer_blackjack"] = natural
    elif "dealer_blackjack" in answer:
        raise ProductError(
            "dealer_blackjack goes with peek only: a dealer who does not peek finds nothing",
            field="dealer_blackjack",
        )
    if "total" in answer:
        total = answer["total"]
        if isinstance(total, bool) or not isinstance(total, int) or not 2 <= total <= 31:
            raise ProductError(
                "total must be the dealer's total as a whole number from 2 to 31", field="total"
            )
        parsed["total"] = total
    if "soft" in answer:
        if not isinstance(answer["soft"], bool):
            raise ProductError("soft must be true or false", field="soft")
        parsed["soft"] = answer["soft"]
    return parsed


MAX_CHIPS = 200


def table_rack(document: Mapping[str, Any] | None) -> tuple[Decimal, ...] | None:
    """The chips of the round's table (its rule profile's chip set), largest first; None
    when the round's rules cannot be read (the engine refused them when it was dealt)."""
    if document is None:
        return None
    try:
        profile = rules.profile_from_rules(document.get("rules"))
    except rules.ScenarioError:
        return None
    return tuple(sorted(profile.chip_set, reverse=True))


def _parse_chips(
    kind: str, answer: Mapping[str, Any], document: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """A chip answer as the grader compares it: the chips (largest first) and what they
    are worth; None for a payout question answered without paying (take, push ...)."""
    if kind == rules.Kind.PAY_IN_CHIPS:
        action = rules.money_action_of(answer.get("action"))
        # An amount without chips (a table that only takes amounts) is a money answer:
        # graded "right money, wrong chips" when the amount is right.
        if "chips" not in answer:
            return None
        if action is not rules.MoneyAction.PAY:
            raise ProductError(
                "chips are handed over to pay; take, push and take half are answered with an "
                "amount and no chips",
                field="chips",
            )
    chips = answer.get("chips")
    if not isinstance(chips, list) or not chips:
        message = 'chips must be a list of the chips given, like ["25", "5"]'
        raise ProductError(message, field="chips")
    if len(chips) > MAX_CHIPS:
        raise ProductError(f"at most {MAX_CHIPS} chips can be given", field="chips")
    try:
        given = [(chip, parse_amount(chip)) for chip in chips]
    except ProductError as exc:
        raise ProductError(f"a chip's {exc}", field="chips") from exc
    rack = table_rack(document)
    for chip, value in given:
        if rack is not None and value not in rack:
            raise ProductError(
                f"{echo(str(chip).strip())} is not a chip of this table's rack "
                f"({', '.join(chip_text(c) for c in rack)})",
                field="chips",
                code="not_on_rack",
            )
    values = sorted((value for _, value in given), reverse=True)
    worth = sum(values, Decimal(0)).quantize(CENT)
    if "amount" in answer:
        said = parse_amount(answer["amount"])
        if said != worth:
            raise ProductError(
                f"the chips are worth {worth} but amount says {said}: send the chips alone",
                field="amount",
            )
    out: dict[str, Any] = {"amount": str(worth)}
    if kind == rules.Kind.PAY_IN_CHIPS:
        out = {"action": rules.MoneyAction.PAY.value, **out}
    out["chips"] = [chip_text(value) for value in values]
    return out
