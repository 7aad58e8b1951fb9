"""The engine's words as a dealer reads them, for every page, CSV and PDF.

The engine writes cards as codes ("Ts 9c"), players by the names a scenario gives them
("p1") and questions in its own words (its answer key's `prompt`, a documented contract
stored with every attempt). People read rank and suit ("10♠ 9♣"), seats as the pit names
them ("Seat 3, second player"), a natural as "Blackjack", and answers, question kinds and
mistake categories by their labels. Below the pages, so that the reports (audit services)
and the pages share one labeller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from trainer.rules import Kind, MoneyAction, ProcedureAnswer, Question, kind_of, money_action_of
from trainer.rules.cards import total_of

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANKS = {"T": "10"}
_CARD = re.compile(r"\b([2-9TJQKA])([shdc])\b")


def card_text(code: str) -> str:
    """One card code as a dealer writes it: "Ts" → "10♠"."""
    rank, suit = code[:-1], code[-1:]
    return f"{RANKS.get(rank, rank)}{SUIT_SYMBOLS.get(suit, suit)}"


def cards_text(codes: object) -> str:
    """Cards as a dealer writes them: "10♠ 9♣"."""
    if not isinstance(codes, list | tuple):
        return ""
    return " ".join(card_text(code) if code else "face-down card" for code in codes)


def dealer_words(text: str) -> str:
    """A prompt or rule with every card code written as rank and suit."""
    return _CARD.sub(lambda m: card_text(m.group(0)), text or "")


# Seats and players.

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

Seats = Mapping[tuple[int, str], str]


def _ordinal(index: int) -> str:
    return ORDINALS[index] if index < len(ORDINALS) else f"{index + 1}th"


def seat_name(box: int, index: int) -> str:
    """A box's player as the dealer names them: its first (or only) player by the seat,
    "Seat 3"; the others by their place in the box's stakes, "Seat 3, second player"."""
    return f"Seat {box}" if index == 0 else f"Seat {box}, {_ordinal(index)} player"


def seat_names(document: Mapping[str, Any] | None, view: Mapping[str, Any] | None = None) -> Seats:
    """Each (box, player) of a round by the dealer's name for it.

    The order is the scenario's (`boxes[].stakes`, a list: the host first). A view's stakes
    are a JSON object, whose key order PostgreSQL does not keep, so a view names players in
    the order it lists them only when no document is given.
    """
    names: dict[tuple[int, str], str] = {}
    for box in (document or {}).get("boxes") or []:
        for index, stake in enumerate(box.get("stakes") or []):
            names[(box["box"], stake["player"])] = seat_name(box["box"], index)
    if names or view is None:
        return names
    for box in view.get("boxes") or []:
        players: list[str] = []
        for hand in box.get("hands") or []:
            players += [p for p in hand.get("stakes") or {} if p not in players]
        for index, player in enumerate(players):
            names[(box["box"], player)] = seat_name(box["box"], index)
    return names


def player_name(seats: Seats, box: int | None, player: str | None) -> str:
    """The dealer's name for a player; "the player" for one the scenario does not list."""
    if box is None or player is None:
        return "the player"
    return seats.get((box, player)) or f"Seat {box}, a player"


# Questions.

# Every money question says what its amount is: the answer key's amounts are what moves
# beside the bet, never the bet and winnings returned together.
MONEY_NOTE = "Amount: the winnings paid beside the bet (or what is taken), not the total returned."


def _hand_total(cards: list[str], *, can_be_blackjack: bool) -> str:
    total, soft = total_of(cards)
    if can_be_blackjack and len(cards) == 2 and total == 21:
        return "Blackjack"
    if total > 21:
        return f"{total}, bust"
    return f"soft {total}" if soft and total < 21 else str(total)


def _box(view: Mapping[str, Any], number: int | None) -> Mapping[str, Any]:
    for box in view.get("boxes") or []:
        if box.get("box") == number:
            return box
    return {}


def _dealer_against(dealer: list[str]) -> str:
    cards = [c for c in dealer if c]
    total, _ = total_of(cards)
    if len(cards) == 2 and total == 21:
        return "the dealer's Blackjack"
    if total > 21:
        return f"a dealer bust ({cards_text(cards)}, {total})"
    return f"the dealer's {total} ({cards_text(cards)})"


def question_text(question: Question, seats: Seats | None = None, *, note: bool = True) -> str:
    """A question as a dealer reads it, composed from the question's structure (never from
    its expected answer): cards as rank and suit, players by seat, naturals as Blackjack.

    `seats` are the round's `seat_names`; without them players are named in the view's
    order. A money question ends with MONEY_NOTE, unless `note` is off (lists of questions
    already answered, which say it once for all).
    """
    money_note = f" {MONEY_NOTE}" if note else ""
    view = question.view or {}
    seats = seats if seats is not None else seat_names(None, view)
    who = player_name(seats, question.box, question.player)
    box = _box(view, question.box)
    hands = box.get("hands") or []
    hand = hands[(question.hand or 1) - 1] if len(hands) >= (question.hand or 1) else {}
    dealer = list(view.get("dealer") or [])
    up = card_text(dealer[0]) if dealer and dealer[0] else "the up card"
    kind = question.kind
    if kind == Kind.OFFER_INSURANCE:
        return f"The dealer's up card is {up}. Does the dealer offer insurance?"
    if kind == Kind.PEEK:
        return f"The dealer shows {up}. What must the dealer do before anyone acts?"
    if kind == Kind.OFFER_EVEN_MONEY:
        return (
            f"{who} holds Blackjack ({cards_text(hand.get('cards'))}) against the dealer's "
            f"ace. What does the dealer offer {who}?"
        )
    if kind == Kind.EVEN_MONEY:
        stake = (hand.get("stakes") or {}).get(question.player, "")
        return f"{who} takes even money on a bet of {stake}. Settle it.{money_note}"
    if kind == Kind.SETTLE_INSURANCE:
        placed = (box.get("insurance") or {}).get(question.player, "")
        return f"Settle the insurance of {who}: {placed}.{money_note}"
    if kind == Kind.DEALER_PLAY:
        cards = [c for c in dealer if c]
        total = _hand_total(cards, can_be_blackjack=True)
        return f"The dealer holds {cards_text(cards)} ({total}). Hit or stand?"
    if kind in (Kind.SETTLE_HAND, Kind.BONUS_777):
        cards = list(hand.get("cards") or [])
        shown = f"{cards_text(cards)} ({_hand_total(cards, can_be_blackjack=len(hands) == 1)})"
        where = f"hand {question.hand}, {shown}" if len(hands) > 1 else shown
        if kind == Kind.BONUS_777:
            return (
                f"The hand {where} holds three sevens. What 7-7-7 prize is paid to {who}?"
                f"{money_note}"
            )
        stake = (hand.get("stakes") or {}).get(question.player, "")
        return (
            f"Settle the bet of {who}: {stake} on {where} against "
            f"{_dealer_against(dealer)}.{money_note}"
        )
    if kind == Kind.PAY_IN_CHIPS:
        paid = replace(question, kind=_paid_in_chips(question))
        return (
            f"{question_text(paid, seats, note=False)} Pay it in chips from the rack.{money_note}"
        )
    if kind in (Kind.COLOUR_UP, Kind.CHANGE):
        # The engine's words, "Box 3: p1 leaves the table with ...", with the seat's name.
        said = question.prompt.replace(f"Box {question.box}: {question.player} ", f"{who} ", 1)
        return dealer_words(said)
    # The reshuffle (and any kind a later engine adds): the engine's words name no player.
    return dealer_words(question.prompt)


def _paid_in_chips(question: Question) -> Kind:
    """The payout a pay-in-chips question asks for. A public question carries no expected
    answer (which names it), so it is read from the engine's prompt, a stored contract."""
    if question.hand is None:
        return Kind.SETTLE_INSURANCE
    if "takes even money" in question.prompt:
        return Kind.EVEN_MONEY
    if "three sevens" in question.prompt:
        return Kind.BONUS_777
    return Kind.SETTLE_HAND


def key_text(
    item: Mapping[str, Any] | Question, document: Mapping[str, Any] | None, *, note: bool = True
) -> str:
    """An answer-key item (a record or its stored dict) as a dealer reads it, naming
    players by the round's scenario document."""
    if isinstance(item, Question):
        question = item
    else:
        kind = kind_of(item.get("kind", ""))
        if kind is None:
            return dealer_words(item.get("prompt", ""))
        # A public question (what the trainee is shown) carries no expected answer or rule.
        question = Question(
            n=item.get("n", 0),
            kind=kind,
            box=item.get("box"),
            hand=item.get("hand"),
            player=item.get("player"),
            prompt=item.get("prompt", ""),
            expected={},
            rule="",
            view=item.get("view") or {},
        )
    return question_text(question, seat_names(document, question.view), note=note)


# Answers, kinds and categories.

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
# By the stored strings, for the reports (in Python and in SQL alike).
KIND_VALUE_WORDS: dict[str, str] = {kind.value: word for kind, word in KIND_WORDS.items()}


def kind_label(kind: str) -> str:
    """What a question asks, as a dealer says it ("Settle a hand")."""
    found = kind_of(kind)
    return KIND_WORDS[found] if found is not None else kind.replace("_", " ").capitalize()


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
PEEK_FINDING_WORDS = {True: ": dealer natural", False: ": no natural"}
assert set(ACTION_WORDS) == set(MoneyAction)
assert set(ANSWER_WORDS) == set(ProcedureAnswer)
_ANSWER_VALUES = frozenset(word.value for word in ProcedureAnswer)


# A colour up or a change is answered with a stack and no action: chips for chips or cash.
EXCHANGE_WORD = "Exchange"


def answer_parts(answer: Mapping[str, Any] | None) -> tuple[str, str]:
    """An answer as its action in words and its amount: ("Pay", "37.50"),
    ("Peek: no natural", ""), ("", "") when there is none. The CSV's two columns."""
    if not answer:
        return "", ""
    if "action" in answer:
        action = money_action_of(answer["action"])
        word = ACTION_WORDS[action] if action is not None else str(answer["action"])
        return word, str(answer.get("amount", ""))
    if "chips" in answer:
        return EXCHANGE_WORD, str(answer.get("amount", ""))
    said = answer.get("answer")
    word = ANSWER_WORDS[ProcedureAnswer(said)] if said in _ANSWER_VALUES else str(said)
    if "dealer_blackjack" in answer:
        word += PEEK_FINDING_WORDS[bool(answer["dealer_blackjack"])]
    return word, ""


def stack_words(values: Sequence[object]) -> str:
    """A stack of chips as a dealer calls it: "25 + 5 + 5 + 2.50"."""
    return " + ".join(map(str, values))


def chips_text(answer: Mapping[str, Any] | None) -> str:
    """A chip answer's stack in words (the CSV's chip columns); "" for any other answer."""
    chips = answer.get("chips") if answer else None
    return stack_words(chips) if isinstance(chips, list) else ""


def answer_label(
    answer: Mapping[str, Any] | None, *, details: bool = False, missing: str = "—"
) -> str:
    """An answer in words: 'Pay 37.50', 'Peek: no natural', `missing` when there is none.

    With `details`, the dealer's total a trainee stated too: 'Hit (total 11, hard)'.
    """
    if not answer:
        return missing
    # A chip answer (issue 14) names its stack: "Pay 37.50 in 25 + 5 + 5 + 2.50".
    said_chips = chips_text(answer)
    stack = f" in {said_chips}" if said_chips else ""
    if "action" in answer:
        word, amount = answer_parts(answer)
        if money_action_of(answer["action"]) is MoneyAction.PUSH:
            return word
        return f"{word} {amount}{stack}"
    if stack:
        return f"{answer.get('amount', '')}{stack}".strip()
    said = answer.get("answer")
    word = ANSWER_WORDS[ProcedureAnswer(said)] if said in _ANSWER_VALUES else str(said)
    if details and "total" in answer:
        word += f" (total {answer['total']}, {'soft' if answer.get('soft') else 'hard'})"
    if "dealer_blackjack" in answer:
        word += PEEK_FINDING_WORDS[bool(answer["dealer_blackjack"])]
    return word
