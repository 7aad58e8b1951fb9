"""The question vocabulary: what a dealer is asked, and the words an answer is made of.

Every other list of question kinds, money actions and procedure answers in the product
derives from these enums (the selectors, the answer parser, the table's buttons and labels,
the API's choices, the templates and the table's script). They are `StrEnum`s: a member
is the same string the answer key, the decisions and the grades have always stored.

A `Question` is one item of the answer key as a typed record. The database keeps the
answer key as JSON; `Question.to_dict` writes exactly that JSON and `Question.from_dict`
reads it back, so the records change nothing that is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """What a question asks, in the order a round may ask it."""

    OFFER_INSURANCE = "offer_insurance"
    OFFER_EVEN_MONEY = "offer_even_money"
    EVEN_MONEY = "even_money"
    PEEK = "peek"
    SETTLE_INSURANCE = "settle_insurance"
    DEALER_PLAY = "dealer_play"
    SETTLE_HAND = "settle_hand"
    BONUS_777 = "bonus_777"
    RESHUFFLE = "reshuffle"
    # Chip work, asked only of a scenario that opts in (its "chips" section).
    CHANGE = "change"
    PAY_IN_CHIPS = "pay_in_chips"
    COLOUR_UP = "colour_up"

    @property
    def moves_money(self) -> bool:
        """Whether the answer is a money action and an amount (else a procedure answer)."""
        return self in MONEY_KINDS

    @property
    def takes_chips(self) -> bool:
        """Whether the answer is a stack of chips (with a money action for a payout)."""
        return self in CHIP_KINDS


class MoneyAction(StrEnum):
    """What a dealer does with a stake when settling it."""

    PAY = "pay"
    TAKE = "take"
    PUSH = "push"
    TAKE_HALF = "take_half"

    @property
    def sign(self) -> int:
        """What the action does to the player's purse: +1 pays, -1 takes, 0 moves nothing."""
        return _SIGN[self]


class ProcedureAnswer(StrEnum):
    """The words a procedure question (anything that moves no money) is answered with."""

    OFFER = "offer"
    NO_OFFER = "no_offer"
    PEEK = "peek"
    NO_PEEK = "no_peek"
    HIT = "hit"
    STAND = "stand"
    RESHUFFLE = "reshuffle"
    CONTINUE = "continue"


class Category(StrEnum):
    """Why an answer is not right, as the engine judges it."""

    WRONG_OUTCOME = "wrong_outcome"
    UNDERPAY = "underpay"
    OVERPAY = "overpay"
    INSURANCE_ERROR = "insurance_error"
    EVEN_MONEY_ERROR = "even_money_error"
    PRIZE_ERROR = "prize_error"
    PROCEDURE_ERROR = "procedure_error"
    # The right amount in chips the house rule does not call for.
    WRONG_CHIPS = "wrong_chips"
    # Its own category: against the score, no money moved, no mistake to review.
    UNANSWERED = "unanswered"


MONEY_KINDS: frozenset[Kind] = frozenset(
    (Kind.SETTLE_HAND, Kind.SETTLE_INSURANCE, Kind.EVEN_MONEY, Kind.BONUS_777, Kind.PAY_IN_CHIPS)
)
# Answered with chips: {"chips": [...]} (a payout also with its action and amount). Their
# expected answer holds the amount and the chips, values largest first.
CHIP_KINDS: frozenset[Kind] = frozenset((Kind.PAY_IN_CHIPS, Kind.COLOUR_UP, Kind.CHANGE))
_SIGN: dict[MoneyAction, int] = {
    MoneyAction.PAY: 1,
    MoneyAction.PUSH: 0,
    MoneyAction.TAKE: -1,
    MoneyAction.TAKE_HALF: -1,
}
# The words each procedure question accepts (a money question takes a MoneyAction), by
# kind (a Kind, or the same string as stored).
PROCEDURE_ANSWERS: Mapping[str, tuple[ProcedureAnswer, ...]] = {
    Kind.OFFER_INSURANCE: (ProcedureAnswer.OFFER, ProcedureAnswer.NO_OFFER),
    Kind.OFFER_EVEN_MONEY: (ProcedureAnswer.OFFER, ProcedureAnswer.NO_OFFER),
    Kind.PEEK: (ProcedureAnswer.PEEK, ProcedureAnswer.NO_PEEK),
    Kind.DEALER_PLAY: (ProcedureAnswer.HIT, ProcedureAnswer.STAND),
    Kind.RESHUFFLE: (ProcedureAnswer.RESHUFFLE, ProcedureAnswer.CONTINUE),
}


def kind_of(value: object) -> Kind | None:
    """The kind a stored string names; None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        return Kind(value)
    except ValueError:
        return None


def money_action_of(value: object) -> MoneyAction | None:
    """The money action a stored or posted string names; None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        return MoneyAction(value)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Question:
    """One question of a round's answer key.

    `n` counts from 1 within the round. `box`, `hand` and `player` say what it is about
    (None where it is about the whole table). `expected` is the right answer in the
    answer's own shape: {"action", "amount"} for a money question, {"answer", ...} for a
    procedure. `view` is what the table showed when it was asked.
    """

    n: int
    kind: Kind
    box: int | None
    hand: int | None
    player: str | None
    prompt: str
    expected: Mapping[str, Any]
    rule: str
    view: Mapping[str, Any]

    @property
    def moves_money(self) -> bool:
        return self.kind.moves_money

    def to_dict(self) -> dict[str, Any]:
        """The answer key's stored JSON for this question (plain strings, same key order).

        `expected` and `view` are shared, not copied: a record is frozen, and the engine
        builds a fresh key for every call.
        """
        return {
            "n": self.n,
            "kind": str(self.kind),
            "box": self.box,
            "hand": self.hand,
            "player": self.player,
            "prompt": self.prompt,
            "expected": self.expected,
            "rule": self.rule,
            "view": self.view,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Question:
        """A question read back from the stored answer key."""
        return cls(
            n=int(data["n"]),
            kind=Kind(data["kind"]),
            box=data.get("box"),
            hand=data.get("hand"),
            player=data.get("player"),
            prompt=str(data.get("prompt", "")),
            expected=data.get("expected") or {},
            rule=str(data.get("rule", "")),
            view=data.get("view") or {},
        )
