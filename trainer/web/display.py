"""How a question and its table are drawn: cards, stakes as chips, answer buttons and labels.

One view model (`table_view`) and one template (`trainer/_table.html`) draw the table for
the trainee's page and the pit's drill-down alike; one labeller (`answer_label`) puts an
answer in words everywhere. Buttons and words are keyed by the engine's vocabulary
(`rules.Kind`, `rules.MoneyAction`, `rules.ProcedureAnswer`), so a word the engine adds
fails here at import rather than showing up unlabelled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from trainer.models import ErrorCategory
from trainer.rules import (
    PROCEDURE_ANSWERS,
    Kind,
    MoneyAction,
    ProcedureAnswer,
    kind_of,
    money_action_of,
)

SUITS = {"s": ("♠", False), "h": ("♥", True), "d": ("♦", True), "c": ("♣", False)}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
# Chip values a dealer clicks to build an amount, in dollars.
# The casino's chips, largest first, by their usual colours.
CHIP_COLOURS: dict[str, str] = {
    "1000": "orange",
    "500": "purple",
    "100": "black",
    "25": "green",
    "5": "red",
    "2.50": "pink",
    "1": "white",
    "0.50": "grey",
}
CHIPS = tuple(reversed(CHIP_COLOURS))
# More chips than this in one stake are drawn as this many and a "+".
STACK_MOST = 8


@dataclass(frozen=True)
class Chip:
    value: str
    colour: str


def table_chips(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """The chips a table's tray holds, smallest first: from its smallest payout chip up to
    its largest bet (all of them when the parameters do not say)."""
    low = Decimal(str(parameters.get("payout_unit") or "0.50"))
    high = Decimal(str(parameters.get("max_bet") or "1000"))
    found = tuple(chip for chip in CHIPS if low <= Decimal(chip) <= max(high, low))
    return found or CHIPS


def chip_stack(amount: object, chips: tuple[str, ...] = CHIPS) -> tuple[list[Chip], bool]:
    """A stake as the fewest chips of the set, largest first, and whether more were left
    out of the drawing (a stack is drawn at most STACK_MOST chips high)."""
    try:
        left = Decimal(str(amount))
    except ArithmeticError:
        return [], False
    stack: list[Chip] = []
    for value in sorted(chips, key=Decimal, reverse=True):
        size = Decimal(value)
        while left >= size and size > 0:
            stack.append(Chip(value, CHIP_COLOURS[value]))
            left -= size
    return stack[:STACK_MOST], len(stack) > STACK_MOST


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str
    red: bool
    label: str
    hidden: bool = False


HIDDEN = Card(rank="", suit="", red=False, label="face-down card", hidden=True)


def card(code: str | None) -> Card:
    """A card code such as 'Th' as the table draws it; None is the face-down hole card."""
    if not code:
        return HIDDEN
    rank, suit = code[:-1].upper(), code[-1].lower()
    rank = "10" if rank in ("T", "10") else rank
    symbol, red = SUITS.get(suit, ("?", False))
    name = RANK_NAMES.get(rank, rank)
    return Card(rank=rank, suit=symbol, red=red, label=f"{name} of {SUIT_NAMES.get(suit, suit)}")


def table_view(
    view: Mapping[str, Any], *, box: int | None = None, hand: int | None = None
) -> dict[str, Any]:
    """The dealer's cards and each box's hands and stakes, ready for `trainer/_table.html`.

    `view` is what the table showed (an answer-key item's view, or a decision's `shown`);
    `box` and `hand` mark what the question is about (none marked when box is None).
    """
    boxes = []
    for seat in view.get("boxes", []):
        number = seat.get("box")
        current = box is not None and number == box
        hands = [
            {
                "index": index,
                "cards": [card(c) for c in played.get("cards", [])],
                "stakes": [
                    (player, amount, *chip_stack(amount))
                    for player, amount in sorted(played.get("stakes", {}).items())
                ],
                "current": current and hand in (None, index),
            }
            for index, played in enumerate(seat.get("hands", []), start=1)
        ]
        boxes.append(
            {
                "box": number,
                "hands": hands,
                "insurance": sorted((seat.get("insurance") or {}).items()),
                "current": current,
            }
        )
    return {"dealer": [card(c) for c in view.get("dealer", [])], "boxes": boxes}


def question_table(question: Mapping[str, Any]) -> dict[str, Any]:
    """The table of a question being asked (a public question), marking its box and hand."""
    return table_view(question["view"], box=question["box"], hand=question["hand"])


# Words for the vocabulary: one table each, keyed by the engine's enums.
KIND_WORDS: dict[Kind, str] = {
    Kind.OFFER_INSURANCE: "Offer insurance",
    Kind.OFFER_EVEN_MONEY: "Offer even money",
    Kind.EVEN_MONEY: "Pay even money",
    Kind.PEEK: "Peek",
    Kind.SETTLE_INSURANCE: "Settle insurance",
    Kind.DEALER_PLAY: "Dealer's draw",
    Kind.SETTLE_HAND: "Settle a hand",
    Kind.BONUS_777: "7-7-7 prize",
    Kind.RESHUFFLE: "Reshuffle or continue",
    Kind.CHANGE: "Change cash",
    Kind.PAY_IN_CHIPS: "Pay in chips",
    Kind.COLOUR_UP: "Colour up",
}
# The engine ends a rule with the parameters and profile it rests on, "(surrender: late,
# casino-shoe)": words for programs. People read the rule without them.
_CATEGORY_WORDS = dict(ErrorCategory.choices)
_RULE_SOURCE = re.compile(r"\s*\((?:[a-z_0-9]+: [^()]*|[a-z0-9]+(?:-[a-z0-9]+)+)\)\s*$")


def kind_label(kind: str) -> str:
    """What a question asks, as a dealer says it ("Settle a hand")."""
    found = kind_of(kind)
    return KIND_WORDS[found] if found is not None else kind.replace("_", " ").capitalize()


def rule_text(rule: str) -> str:
    """The rule a question rests on, as a person reads it (without the engine's parameter
    names and profile)."""
    return _RULE_SOURCE.sub("", rule or "").strip()


def category_label(category: str | None) -> str:
    """Why an answer was wrong, by its label ("Wrong outcome"); "" when it was not."""
    if not category:
        return ""
    return _CATEGORY_WORDS.get(str(category), str(category).replace("_", " ").capitalize())


ACTION_WORDS: dict[MoneyAction, str] = {
    MoneyAction.PAY: "Pay",
    MoneyAction.TAKE: "Take",
    MoneyAction.PUSH: "Push",
    MoneyAction.TAKE_HALF: "Take half",
}
ANSWER_WORDS: dict[ProcedureAnswer, str] = {
    ProcedureAnswer.OFFER: "Offer",
    ProcedureAnswer.NO_OFFER: "Don't offer",
    ProcedureAnswer.PEEK: "Peek",
    ProcedureAnswer.NO_PEEK: "Don't peek",
    ProcedureAnswer.HIT: "Hit",
    ProcedureAnswer.STAND: "Stand",
    ProcedureAnswer.RESHUFFLE: "Reshuffle",
    ProcedureAnswer.CONTINUE: "Continue",
}
# The keyboard shortcut of each answer at the table.
ACTION_KEYS: dict[MoneyAction, str] = {
    MoneyAction.PAY: "P",
    MoneyAction.TAKE: "T",
    MoneyAction.PUSH: "U",
    MoneyAction.TAKE_HALF: "H",
}
ANSWER_KEYS: dict[ProcedureAnswer, str] = {
    ProcedureAnswer.OFFER: "O",
    ProcedureAnswer.NO_OFFER: "N",
    ProcedureAnswer.NO_PEEK: "N",
    ProcedureAnswer.HIT: "H",
    ProcedureAnswer.STAND: "S",
    ProcedureAnswer.RESHUFFLE: "R",
    ProcedureAnswer.CONTINUE: "C",
}
# A peek is answered with what it finds: one button each, the finding in the value.
PEEK_FINDINGS = (("clear", False, "K"), ("natural", True, "B"))

assert set(ACTION_WORDS) == set(MoneyAction) == set(ACTION_KEYS)
assert set(ANSWER_WORDS) == set(ProcedureAnswer)
_ANSWER_VALUES = frozenset(word.value for word in ProcedureAnswer)


def answer_label(
    answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
) -> str:
    """An answer in words: 'Pay 37.50', 'Peek: no natural', `missing` when there is none.

    With `details`, the dealer's total a trainee stated too: 'Hit (total 11, hard)'.
    """
    if not answer:
        return missing
    # A chip answer (issue 14) names its stack: "Pay 37.50 in 25 + 5 + 5 + 2.50".
    chips = answer.get("chips")
    stack = f" in {' + '.join(map(str, chips))}" if isinstance(chips, list) and chips else ""
    if "action" in answer:
        action = money_action_of(answer["action"])
        word = ACTION_WORDS[action] if action is not None else str(answer["action"])
        return word if action is MoneyAction.PUSH else f"{word} {answer.get('amount', '')}{stack}"
    if stack:
        return f"{answer.get('amount', '')}{stack}".strip()
    said = answer.get("answer")
    if isinstance(said, str) and said in _ANSWER_VALUES:
        word = ANSWER_WORDS[ProcedureAnswer(said)]
    else:
        word = str(said)
    if details and "total" in answer:
        word += f" (total {answer['total']}, {'soft' if answer.get('soft') else 'hard'})"
    if "dealer_blackjack" in answer:
        word += ": dealer natural" if answer["dealer_blackjack"] else ": no natural"
    return word


@dataclass(frozen=True)
class Button:
    value: str
    label: str
    key: str


def _answer_buttons(word: ProcedureAnswer) -> tuple[Button, ...]:
    if word is ProcedureAnswer.PEEK:
        return tuple(
            Button(
                f"{word.value}:{finding}",
                answer_label({"answer": word.value, "dealer_blackjack": natural}),
                key,
            )
            for finding, natural, key in PEEK_FINDINGS
        )
    return (Button(word.value, ANSWER_WORDS[word], ANSWER_KEYS[word]),)


_BUTTONS: dict[str, tuple[Button, ...]] = {
    kind: tuple(button for word in words for button in _answer_buttons(word))
    for kind, words in PROCEDURE_ANSWERS.items()
}
# What each button's value answers, as the service reads an answer.
_BUTTON_ANSWERS: dict[str, dict[str, Any]] = {
    f"{ProcedureAnswer.PEEK.value}:{finding}": {
        "answer": ProcedureAnswer.PEEK.value,
        "dealer_blackjack": natural,
    }
    for finding, natural, _ in PEEK_FINDINGS
}
SETTLEMENT_CHOICES = tuple(
    Button(action.value, ACTION_WORDS[action], ACTION_KEYS[action]) for action in MoneyAction
)


def procedure_buttons(question: Mapping[str, Any]) -> tuple[Button, ...]:
    """The answer buttons of a procedure question (none for a settlement)."""
    return _BUTTONS.get(question["kind"], ())


def button_answer(value: str) -> dict[str, Any]:
    """The answer a procedure button posts (a peek button carries its finding)."""
    return dict(_BUTTON_ANSWERS.get(value) or {"answer": value})


# What the table's script needs of the vocabulary, written into a data attribute (no
# inline script: the CSP forbids it): which money actions move no money, so that choosing
# one empties the amount.
VOCABULARY_JSON = json.dumps(
    {
        "money_actions": [action.value for action in MoneyAction],
        "moves_no_money": [action.value for action in MoneyAction if action.sign == 0],
        "procedure_answers": {
            kind.value: [word.value for word in PROCEDURE_ANSWERS[kind]]
            for kind in Kind
            if kind in PROCEDURE_ANSWERS
        },
    },
    separators=(",", ":"),
)
