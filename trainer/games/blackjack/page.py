"""Blackjack's page at the table: the view model of the trainee's table page (the table, the
chip work and its rack, the answer buttons and settlement actions, the tray's chips) and
the form's fields read back into an answer, in the one grammar the API's JSON is read by
(``reading.parse_answer``: the form is turned into that JSON, never marked apart).

Plain Python: the shell passes the posted form as a mapping (a ``getlist`` is used when it
has one, as Django's QueryDict does).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from core.errors import ProductError, echo
from trainer.games.blackjack import words
from trainer.games.blackjack.display import (
    CHIP_COLOURS,
    RACK_VALUES,
    SETTLEMENT_CHOICES,
    VOCABULARY_JSON,
    Chip,
    ChipWork,
    answer_chips,
    button_answer,
    procedure_buttons,
    question_table,
    table_chips,
)
from trainer.games.blackjack.reading import MAX_CHIPS
from trainer.rules import MoneyAction, money_action_of

# The actions a chip question answers with chips: "a take with chips is money" is said here
# and in the script's vocabulary (display.VOCABULARY_JSON) from this one list.
PAYS_IN_CHIPS = (MoneyAction.PAY.value,)


def table_page(
    question: Mapping[str, Any],
    document: Mapping[str, Any] | None,
    *,
    parameters: Mapping[str, Any],
    posted: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """What the trainee's table page shows of a public question besides the shell's parts:
    the table and its chip work, the rack's count fields (refilled after a refused answer),
    the buttons, the settlement actions, the script's vocabulary and the tray's chips."""
    drawn = question_table(question, words.seat_names(document))
    work = drawn["work"]
    return {
        "question_text": words.key_text(question, document),
        "table": drawn,
        "work": work,
        "work_rule": work.rule if work is not None else "",
        "rack_fields": _rack_fields(work, posted),
        "buttons": procedure_buttons(question),
        "settlement_choices": SETTLEMENT_CHOICES,
        "vocabulary": VOCABULARY_JSON,
        # Only the chips of this table's tray, by their colours.
        "chips": [Chip(value, CHIP_COLOURS[value]) for value in table_chips(parameters)],
    }


def answer_drawing(answer: Mapping[str, Any] | None) -> list[Chip]:
    return answer_chips(answer)


def _rack_fields(work: ChipWork | None, posted: Mapping[str, Any] | None) -> list[Any]:
    """A count field a chip (the rack without the script), refilled after a refused answer
    from its counts or from the stack the script sent, which then seeds the rack again."""
    if work is None:
        return []
    posted = posted or {}
    getlist = getattr(posted, "getlist", None)
    sent = Counter(str(chip) for chip in getlist("chips")) if getlist else Counter()
    return [
        (chip, posted.get(chip.field) or (str(sent[chip.value]) if sent[chip.value] else ""))
        for chip in work.rack
    ]


def _posted_chips(post: Mapping[str, Any]) -> list[str]:
    """The stack the rack posted: one `chips` field a chip (the script's stack), and,
    without the script, how many of each chip (`count-25`: "2")."""
    getlist = getattr(post, "getlist", None)
    chips = [str(chip) for chip in getlist("chips")] if getlist else []
    for field, text in post.items():
        if not field.startswith("count-"):
            continue
        value = field.removeprefix("count-")
        said = str(text).strip()
        if not said:
            continue
        label = f"How many {value}s"
        if said.startswith("-"):
            raise ProductError(f"{label}: a count cannot be negative ({echo(said)})", field=field)
        if not said.isascii() or not said.isdigit():
            raise ProductError(
                f"{label}: write a whole number of chips, like 2, not {echo(said)}", field=field
            )
        if value not in RACK_VALUES:
            raise ProductError(f"{echo(value)} is not one of this table's chips", field=field)
        count = int(said)
        # Checked before the list is made: a count may be any number of digits.
        if len(chips) + count > MAX_CHIPS:
            raise ProductError(
                f"a stack holds at most {MAX_CHIPS} chips: take some off", field="chips"
            )
        chips += [value] * count
    if len(chips) > MAX_CHIPS:
        raise ProductError(f"a stack holds at most {MAX_CHIPS} chips: take some off", field="chips")
    return chips


def _stack_worth(chips: list[str]) -> str:
    try:
        return f"{sum((Decimal(chip) for chip in chips), Decimal(0)):.2f}"
    except ArithmeticError:
        raise ProductError("a chip must be an amount such as 2.50", field="chips") from None


def form_answer(post: Mapping[str, Any]) -> dict[str, Any]:
    """The form's fields in the service's answer shape (a peek button carries its finding).

    A chip question's form says so (`rack`): a payout paid is its chips; any other action
    (take, push, take half) is a money answer, the stack's worth its amount, with no chips.
    """
    if "rack" in post:
        chips = _posted_chips(post)
        action = post.get("action")
        if action is not None and action not in PAYS_IN_CHIPS:
            moves = money_action_of(action)
            if moves is None or not moves.sign:
                return {"action": action, "amount": ""}
            # The script sends the stack's worth as the amount; the count fields, the chips.
            worth = _stack_worth(chips) if chips else str(post.get("amount") or "")
            if not worth:
                raise ProductError(
                    f"the stack is empty: put the chips to {moves.value.replace('_', ' ')} on it",
                    field="chips",
                )
            return {"action": action, "amount": worth}
        if not chips:
            raise ProductError(
                "the stack is empty: add the chips to hand over from the rack", field="chips"
            )
        return {"action": action, "chips": chips} if action is not None else {"chips": chips}
    if "action" in post:
        return {"action": post.get("action"), "amount": post.get("amount", "")}
    word = post.get("answer")
    if word is None:
        raise ProductError("choose an answer", field="answer")
    return button_answer(word)
