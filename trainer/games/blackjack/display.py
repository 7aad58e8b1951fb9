"""How a question and its table are drawn: cards, stakes as chips, answer buttons and labels.

One view model (`table_view`) and one template (`games/blackjack/_table.html`) draw the table for
the trainee's page and the pit's drill-down alike; one labeller (`answer_label`) puts an
answer in words everywhere. Buttons and words are keyed by the engine's vocabulary
(`rules.Kind`, `rules.MoneyAction`, `rules.ProcedureAnswer`), so a word the engine adds
fails here at import rather than showing up unlabelled.

Over 400 lines on purpose: the trainee's page and the pit's drill-down read the one view
model and the one labeller; split, the buttons and the words they key would drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from trainer.games.blackjack.words import (  # noqa: F401 - the labellers live below the pages, for the reports
    ACTION_WORDS,
    ANSWER_WORDS,
    KIND_WORDS,
    Seats,
    answer_label,
    kind_label,
    player_name,
    seat_names,
    stack_words,
)
from trainer.rules import PROCEDURE_ANSWERS, Kind, MoneyAction, ProcedureAnswer

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
# Every chip a rack may hold (a count field names one of these).
RACK_VALUES = frozenset(CHIP_COLOURS)
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


def chip_colour(value: str) -> str:
    """A chip's colour by its value, however the value is written ("2.5", "2.50")."""
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        return "grey"
    text = f"{amount:.0f}" if amount == amount.to_integral_value() else f"{amount:.2f}"
    return CHIP_COLOURS.get(text, "grey")


def drawn_chips(values: Sequence[str]) -> list[Chip]:
    """Chips to draw, in the order given."""
    return [Chip(str(value), chip_colour(str(value))) for value in values]


def pile_words(values: Sequence[str]) -> str:
    """A pile by the count of each chip, largest first, as the engine's prompt writes it."""
    counts: dict[str, int] = {}
    for value in values:
        counts[str(value)] = counts.get(str(value), 0) + 1
    ordered = sorted(counts, key=Decimal, reverse=True)
    return ", ".join(f"{counts[value]} × {value}" for value in ordered)


# How each table pays in chips, in the placard's words (rules.ChipRule).
CHIP_RULE_WORDS: dict[str, str] = {
    "fewest": "Paid in the fewest chips",
    "match": "Paid in the bet's colours, then the fewest chips",
}
# What the dealer does, for the target: "A dealer pays this in 8 s".
_CHIP_VERBS: dict[str, str] = {
    Kind.PAY_IN_CHIPS.value: "pays this",
    Kind.COLOUR_UP.value: "colours this up",
    Kind.CHANGE.value: "changes this",
}
_CHIP_BUTTONS: dict[str, str] = {
    Kind.PAY_IN_CHIPS.value: "Pay",
    Kind.COLOUR_UP.value: "Colour up",
    Kind.CHANGE.value: "Change",
}
# Keys 1-9 take the rack's chips, largest first (no table has more than 9 chips to click).
RACK_KEYS = "123456789"


@dataclass(frozen=True)
class RackChip:
    value: str
    colour: str
    # Its shortcut key ("" past the ninth chip), and the count field's name without script.
    key: str
    field: str


@dataclass(frozen=True)
class ChipWork:
    """A chip question's rack and what lies on the layout to work with."""

    kind: str
    rack: list[RackChip]
    target: str
    rule: str
    submit: str
    # Pay in chips: the action is chosen too (a payout can be answered take, push...).
    pays: bool
    # Pay in chips: the bet's chips as they lie (a "match" table pays in their colours).
    bet: list[Chip]
    bet_words: str
    pile: list[Chip]
    # The pile as the player leaves it: a stack of each chip, largest first.
    pile_stacks: list[list[Chip]]
    pile_words: str
    pile_amount: str
    cash: str


def chip_work(question: Mapping[str, Any]) -> ChipWork | None:
    """The rack and layout of a chip question (a public question); None for the others."""
    kind = question.get("kind", "")
    if kind not in _CHIP_VERBS:
        return None
    values = [str(v) for v in question.get("rack") or []]
    pile = [str(v) for v in question.get("pile") or []]
    seconds = question.get("target_seconds")
    bet, _ = _placed_stack(question.get("stake") or "0", question.get("bet"))
    return ChipWork(
        kind=kind,
        rack=[
            RackChip(
                value,
                chip_colour(value),
                RACK_KEYS[i] if i < len(RACK_KEYS) else "",
                f"count-{value}",
            )
            for i, value in enumerate(values)
        ],
        target=f"A dealer {_CHIP_VERBS[kind]} in {seconds} s." if seconds else "",
        rule=CHIP_RULE_WORDS.get(str(question.get("chip_rule")), ""),
        submit=_CHIP_BUTTONS[kind],
        pays=kind == Kind.PAY_IN_CHIPS.value,
        bet=bet,
        bet_words=stack_words([chip.value for chip in bet]),
        pile=drawn_chips(pile),
        pile_stacks=[
            drawn_chips([v for v in pile if v == value])
            for value in sorted(set(pile), key=Decimal, reverse=True)
        ],
        pile_words=pile_words(pile),
        pile_amount=f"{sum((Decimal(v) for v in pile), Decimal(0)):.2f}" if pile else "",
        cash=str(question.get("cash") or ""),
    )


def answer_chips(answer: Mapping[str, Any] | None) -> list[Chip]:
    """The chips of an answer (a stack given or expected), to draw beside its words."""
    chips = (answer or {}).get("chips")
    return drawn_chips([str(c) for c in chips]) if isinstance(chips, list) else []


def _placed_stack(amount: object, placed: Sequence[str] | None) -> tuple[list[Chip], bool]:
    """A stake as its chips lie: as the player placed them when the round says so (a
    "match" table pays in a bet's own colours), else the fewest chips."""
    if placed:
        try:
            worth = sum((Decimal(str(v)) for v in placed), Decimal(0))
            if worth == Decimal(str(amount)):
                chips = drawn_chips(sorted(placed, key=Decimal, reverse=True))
                return chips[:STACK_MOST], len(chips) > STACK_MOST
        except ArithmeticError:
            pass
    return chip_stack(amount)


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


@dataclass(frozen=True)
class Marker:
    """A word on the layout beside a hand: what the dealer sees there, for eyes and ears
    alike (`said` is the screen reader's fuller wording)."""

    css: str
    text: str
    said: str


# A hand's markers, in the order they read; keyed by the answer-key view's hand facts.
HAND_MARKERS: tuple[tuple[str, Marker], ...] = (
    ("split", Marker("split", "Split", "a hand from a split")),
    ("blackjack", Marker("blackjack", "Blackjack", "a natural blackjack")),
    ("doubled", Marker("doubled", "Doubled", "doubled: the third card lies sideways")),
    ("surrendered", Marker("surrender", "Surrender", "surrendered: the player gave up the hand")),
    ("bust", Marker("bust", "Bust", "bust: over 21")),
    ("three_sevens", Marker("sevens", "7-7-7", "three sevens")),
)


@dataclass(frozen=True)
class DoubledStake:
    """A doubled stake as it lies: the original stack and the double beside it."""

    original: str
    original_stack: list[Chip]
    original_more: bool
    added: str
    added_stack: list[Chip]
    added_more: bool


def _doubled(amount: object, before: object) -> DoubledStake | None:
    try:
        added = Decimal(str(amount)) - Decimal(str(before))
    except ArithmeticError:
        return None
    original, added_text = str(before), f"{added:.2f}"
    return DoubledStake(original, *chip_stack(original), added_text, *chip_stack(added_text))


@dataclass(frozen=True)
class Shoe:
    """The shoe and discards beside the dealer: the burn, this round's cards and the cut card."""

    burned: str
    dealt: str
    cut: str
    cut_out: bool


def _shoe(facts: Mapping[str, Any] | None) -> Shoe | None:
    if not facts:
        return None  # a view stored before the shoe was part of it
    burned = int(facts.get("burned") or 0)
    dealt = int(facts.get("dealt") or 0)
    cut = facts.get("cut_card_at")
    if facts.get("cut_card_out"):
        where = f"it lay after card {cut}" if cut else "it lay at the front"
        cut_text = f"Cut card came out this round ({where})"
    elif cut is None:
        cut_text = "Cut card still in the shoe"
    else:
        cut_text = f"Cut card still in the shoe, after card {cut}"
    return Shoe(
        burned=f"Burned: {burned} card{'' if burned == 1 else 's'}" if burned else "No burn card",
        dealt=f"Dealt this round: {dealt} card{'' if dealt == 1 else 's'}",
        cut=cut_text,
        cut_out=bool(facts.get("cut_card_out")),
    )


def table_view(
    view: Mapping[str, Any],
    *,
    box: int | None = None,
    hand: int | None = None,
    seats: Seats | None = None,
    placed: Mapping[tuple[int, str], Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The dealer's cards and each box's hands and stakes, ready for `games/blackjack/_table.html`.

    `view` is what the table showed (an answer-key item's view, or a decision's `shown`);
    `box` and `hand` mark what the question is about (none marked when box is None).
    Views stored before the hand, box and shoe facts existed draw as plain hands.
    Players are labelled as the dealer names them (`words.seat_names` of the round's
    document: `seats`), never by the scenario's names for them. `placed` are bets whose
    chips the round states, drawn as placed.
    """
    placed = placed or {}
    seats = seats if seats is not None else seat_names(None, view)
    boxes = []
    for seat in view.get("boxes", []):
        number = seat.get("box")
        current = box is not None and number == box
        played_hands = seat.get("hands", [])
        hands = [
            {
                "index": index,
                "cards": [card(c) for c in played.get("cards", [])],
                "stakes": [
                    (
                        player_name(seats, number, player),
                        amount,
                        *_placed_stack(amount, placed.get((number, player))),
                    )
                    for player, amount in sorted(
                        played.get("stakes", {}).items(),
                        key=lambda stake: _seat_order(seats, number, stake[0]),
                    )
                ],
                "current": current and hand in (None, index),
            }
            for index, played in enumerate(played_hands, start=1)
        ]
        for drawn, played in zip(hands, played_hands, strict=True):
            players = sorted(
                played.get("stakes", {}), key=lambda player: _seat_order(seats, number, player)
            )
            _mark_hand(drawn, played, players)
        on_hands = {p for played in played_hands for p in played.get("stakes", {})}
        even_money = sorted((seat.get("even_money") or {}).items())
        boxes.append(
            {
                "box": number,
                "hands": hands,
                "insurance": [
                    (player_name(seats, number, player), amount)
                    for player, amount in sorted(
                        (seat.get("insurance") or {}).items(),
                        key=lambda stake: _seat_order(seats, number, stake[0]),
                    )
                ],
                # Taken while the stake is still on the natural; paid once it is gone.
                "even_money": [
                    (player_name(seats, number, p), amount, p not in on_hands)
                    for p, amount in even_money
                ],
                # More than one player on the box: each stake is drawn as its own.
                "shared": len(on_hands | {p for p, _ in even_money}) > 1,
                "current": current,
            }
        )
    return {
        "dealer": [card(c) for c in view.get("dealer", [])],
        "boxes": boxes,
        "shoe": _shoe(view.get("shoe")),
    }


def _mark_hand(drawn: dict[str, Any], played: Mapping[str, Any], players: list[str]) -> None:
    """A hand's markers, and a doubled hand's stakes as two stacks each.

    `players` are the hand's stakes' players in the order `drawn["stakes"]` lists them.
    A busted hand stays on the layout, marked and dimmed, until its settlement question:
    in a pit the dealer takes a bust at once, but the trainer asks for that take in the
    settlement order, so the cards and stake must still be there to settle (and for the pit
    to see what was settled).
    """
    drawn["markers"] = [marker for fact, marker in HAND_MARKERS if played.get(fact)]
    drawn["doubled"] = bool(played.get("doubled"))
    drawn["bust"] = bool(played.get("bust"))
    drawn["surrendered"] = bool(played.get("surrendered"))
    before = played.get("before_double") or {}
    drawn["stakes"] = [
        (*stake, _doubled(stake[1], before[key]) if key in before else None)
        for stake, key in zip(drawn["stakes"], players, strict=True)
    ]


def _seat_order(seats: Seats, box: int, player: str) -> tuple[int, str]:
    # The box's stakes in the scenario's order (its host first); an unlisted player last.
    order = list(seats).index((box, player)) if (box, player) in seats else len(seats)
    return order, player


def question_table(question: Mapping[str, Any], seats: Seats | None = None) -> dict[str, Any]:
    """The table of a question being asked (a public question), marking its box and hand;
    a chip question's pile or cash lies on its box, and its bet as the player placed it."""
    placed = {}
    if question.get("bet"):
        placed[(question["box"], question["player"])] = question["bet"]
    drawn = table_view(
        question["view"], box=question["box"], hand=question["hand"], seats=seats, placed=placed
    )
    drawn["work"] = chip_work(question)
    return drawn


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
# one empties the amount, and which pay in chips (the others send the stack's worth).
VOCABULARY_JSON = json.dumps(
    {
        "money_actions": [action.value for action in MoneyAction],
        "moves_no_money": [action.value for action in MoneyAction if action.sign == 0],
        # The actions a chip question answers with chips (a payout paid); any other action
        # there is money, the stack's worth its amount (page.form_answer reads it so too).
        "pays_in_chips": [MoneyAction.PAY.value],  # page.PAYS_IN_CHIPS
        "procedure_answers": {
            kind.value: [word.value for word in PROCEDURE_ANSWERS[kind]]
            for kind in Kind
            if kind in PROCEDURE_ANSWERS
        },
    },
    separators=(",", ":"),
)
