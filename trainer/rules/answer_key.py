"""The answer key: every question a dealer must answer in a round, in the order they arise.

Procedure first (insurance, even money, the peek), then the dealer's draws, then the
settlement in the profile's order (right to left: last box first; a box's hands in order,
a hand's players in stake order), then the reshuffle. Each item says what the table showed
when it was asked (`view`), what is right (`expected`) and the rule that decides it.

Where items sit, so the grader and the trainee see the same round:
- even money is paid when it is taken, so its item follows that player's offer;
- under a peek profile insurance is settled at the peek, right after the peek item;
  under no-hole-card rules it waits for the dealer's second card, after the box's hands;
- a three-sevens prize follows the settlement of the hand that made it;
- chip work, only for a document with a `chips` section (chipwork.py): cash is changed
  before anything else, a payout paid in chips is asked as `pay_in_chips` in place of its
  own question, and a colour-up comes after the settlement, before the reshuffle.

Over 400 lines on purpose: the order above is one walk over the round, and each kind of
question's wording and rule sits beside the step that asks it; split by kind, the order
would live in no one place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .cards import VALUE, total_of
from .chips import ChipRule, chip_text
from .chipwork import Exchange, stack_dict
from .money import ZERO, fmt
from .profiles import Profile
from .results import BoxResult, HandResult, Round
from .settlement import play
from .table_facts import dealt_hand_facts, even_money_taken, played_hand_facts, shoe_facts
from .vocabulary import (
    CHIP_KINDS,
    MONEY_KINDS,
    Category,
    Kind,
    MoneyAction,
    ProcedureAnswer,
    Question,
)

_MONEY_CATEGORY: dict[str, Category] = {
    Kind.SETTLE_INSURANCE: Category.INSURANCE_ERROR,
    Kind.EVEN_MONEY: Category.EVEN_MONEY_ERROR,
    Kind.BONUS_777: Category.PRIZE_ERROR,
}
# Each money action's sign by its string, for the comparisons grading makes by the million.
_SIGN: dict[str, int] = {action.value: action.sign for action in MoneyAction}
# A rule's trailing "(parameter: value, profile)", the source it names.
_SOURCE = re.compile(r"\s*\([^()]*\)$")


@dataclass(slots=True, frozen=True)
class Verdict:
    """How a trainee's answer compares: money_diff > 0 means the player got too much."""

    right: bool
    money_diff: Decimal
    category: Category | None


def answer_key(doc_or_round: Mapping[str, Any] | Round) -> list[dict[str, Any]]:
    """The ordered questions of the round with their expected answers and rules, as the
    JSON the database stores (`Question.to_dict` of each of `key_questions`)."""
    return [question.to_dict() for question in key_questions(doc_or_round)]


def key_questions(doc_or_round: Mapping[str, Any] | Round) -> list[Question]:
    """The answer key as typed records."""
    result = doc_or_round if isinstance(doc_or_round, Round) else play(doc_or_round)
    return _Builder(result).build()


def signed_amount(answer: Mapping[str, Any]) -> Decimal:
    """What a money answer ({"action", "amount"}) moves to (+) or from (-) the player."""
    sign = _SIGN[answer["action"]]
    return Decimal(answer["amount"]) * sign if sign else ZERO


def unanswered() -> Verdict:
    """The verdict on a question left unanswered, wherever it is scored (practice feedback
    and grading alike): it counts against the score, moves no money, and is its own
    category, not a mistake to review."""
    return Verdict(False, ZERO, Category.UNANSWERED)


def compare(item: Mapping[str, Any] | Question, given: Mapping[str, Any]) -> Verdict:
    """Grade a trainee's answer to one answer-key item (a record or its stored dict)."""
    if isinstance(item, Question):
        kind: str = item.kind
        expected = item.expected
    else:
        kind, expected = item["kind"], item["expected"]
    if kind in CHIP_KINDS:
        return _compare_chips(kind, expected, given)
    if kind not in MONEY_KINDS:
        right = isinstance(given, Mapping) and _procedure_right(expected, given)
        return Verdict(right, ZERO, None if right else Category.PROCEDURE_ERROR)
    want = signed_amount(expected)
    got = _given_amount(given)
    if got is None:
        # An answer without a readable action and amount moves no money.
        got_action, got_amount = None, ZERO
    else:
        got_action, got_amount = got
    if got_action == expected["action"] and got_amount == want:
        return Verdict(True, ZERO, None)
    diff = got_amount - want
    category = _MONEY_CATEGORY.get(kind)
    if category is None:
        if got_action != expected["action"]:
            category = Category.WRONG_OUTCOME
        else:
            category = Category.OVERPAY if diff > 0 else Category.UNDERPAY
    return Verdict(False, diff, category)


def _compare_chips(kind: str, expected: Mapping[str, Any], given: Mapping[str, Any]) -> Verdict:
    """A chip answer: the money first (a wrong amount is the money's category), then the
    chips (the right amount in other chips is WRONG_CHIPS and moves no money)."""
    chips = _given_chips(given)
    want = Decimal(expected["amount"])
    if "action" in expected:
        # A payout: the action and the amount the chips make (or the amount stated).
        want = signed_amount(expected)
        got = _given_amount(given)
        action = got[0] if got is not None else None
        if chips is not None and action is not None:
            got = (action, sum(chips, ZERO) * _SIGN[action])
        got_action, got_amount = got if got is not None else (None, ZERO)
        if got_action != expected["action"] or got_amount != want:
            diff = got_amount - want
            category = _MONEY_CATEGORY.get(str(expected.get("settles")))
            if category is None:
                if got_action != expected["action"]:
                    category = Category.WRONG_OUTCOME
                else:
                    category = Category.OVERPAY if diff > 0 else Category.UNDERPAY
            return Verdict(False, diff, category)
    else:
        # A colour-up or change: the stack handed over must be worth what the player gave.
        worth = sum(chips, ZERO) if chips is not None else ZERO
        if worth != want:
            diff = worth - want
            return Verdict(False, diff, Category.OVERPAY if diff > 0 else Category.UNDERPAY)
    if chips is not None and sorted(chips) == sorted(Decimal(c) for c in expected["chips"]):
        return Verdict(True, ZERO, None)
    return Verdict(False, ZERO, Category.WRONG_CHIPS)


def _given_chips(given: object) -> list[Decimal] | None:
    """The chips of an answer ({"chips": ["25", "5", ...]}); None when there are none or one
    is not a positive value."""
    if not isinstance(given, Mapping):
        return None
    chips = given.get("chips")
    if not isinstance(chips, list | tuple) or not chips or len(chips) > 1000:
        return None
    out = []
    for chip in chips:
        if type(chip) not in (str, int):
            return None
        try:
            value = Decimal(chip)
        except (InvalidOperation, ValueError):
            return None
        if not value.is_finite() or value <= 0:
            return None
        out.append(value)
    return out


def _procedure_right(expected: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    if given.get("answer") != expected["answer"]:
        return False
    if (
        "dealer_blackjack" in expected
        and given.get("dealer_blackjack") != expected["dealer_blackjack"]
    ):
        return False
    # The dealer's total and softness are checked only when the trainee states them.
    return all(given[key] == expected[key] for key in ("total", "soft") if key in given)


def _given_amount(given: object) -> tuple[str, Decimal] | None:
    if not isinstance(given, Mapping):
        return None
    action = given.get("action")
    amount = given.get("amount", "0")
    if not isinstance(action, str) or action not in _SIGN or type(amount) not in (str, int):
        return None
    try:
        value = Decimal(amount)
    except (InvalidOperation, ValueError):
        return None
    if not value.is_finite() or value < 0:
        return None
    sign = _SIGN[action]
    return action, value * sign if sign else ZERO


def _answer(word: ProcedureAnswer, **details: Any) -> dict[str, Any]:
    """A procedure question's expected answer as stored: {"answer": word, ...details}."""
    return {"answer": str(word), **details}


def _money(action: MoneyAction, amount: Decimal) -> dict[str, Any]:
    """A money question's expected answer as stored: {"action", "amount"}."""
    return {"action": str(action), "amount": fmt(amount)}


def _exchange(item: Exchange) -> dict[str, Any]:
    """A colour-up's or change's expected answer as stored: {"amount", "chips"}."""
    return {"amount": fmt(item.amount), "chips": stack_dict(item.stack)}


def _pays(profile: Profile) -> str:
    return profile.blackjack_pays.replace(":", " to ")


class _Builder:
    """Walks a played round and writes its answer key."""

    def __init__(self, result: Round) -> None:
        self.round = result
        self.profile = result.profile
        self.items: list[Question] = []
        self.up = result.dealer.cards[0]

    def build(self) -> list[Question]:
        result = self.round
        profile = self.profile
        ace_up = VALUE[self.up] == 1
        before = self._view_before(insurance=False)
        self._changes(before)
        if ace_up:
            self._offer_insurance(before)
        placed = self._view_before(insurance=True)
        if result.even_money_offered:
            self._even_money(placed)
            placed = self._view_before(insurance=True, even_money=True)
        settle_order = self._settle_order()
        if result.peeked:
            natural = result.dealer.blackjack
            cards = [self.up, result.dealer.cards[1] if natural else None]
            view = {**placed, "dealer": cards}
            self._add(
                Kind.PEEK,
                prompt=f"The dealer shows {self.up}. What must the dealer do before anyone acts?",
                expected=_answer(ProcedureAnswer.PEEK, dealer_blackjack=natural),
                rule=f"With an ace or a ten up the dealer checks the hole card for a natural "
                f"(hole_card: peek, {profile.name})",
                view=view,
            )
            for box in settle_order:
                self._insurance(box, view)
        self._dealer_play()
        final = self._view_final()
        for box in settle_order:
            for index, hand in enumerate(box.hands, start=1):
                self._settle_hand(box, index, hand, final)
            if not result.peeked:
                self._insurance(box, final)
        self._colour_ups(final)
        self._reshuffle(final)
        return self.items

    def _settle_order(self) -> list[BoxResult]:
        # settle_order has one value today, right-to-left: the last box is settled first.
        return list(reversed(self.round.boxes))

    def _add(
        self,
        kind: Kind,
        *,
        prompt: str,
        expected: dict[str, Any],
        rule: str,
        view: dict[str, Any],
        box: int | None = None,
        hand: int | None = None,
        player: str | None = None,
    ) -> None:
        self.items.append(
            Question(
                n=len(self.items) + 1,
                kind=kind,
                box=box,
                hand=hand,
                player=player,
                prompt=prompt,
                expected=expected,
                rule=rule,
                view=view,
            )
        )

    def _payout(
        self,
        kind: Kind,
        *,
        prompt: str,
        expected: dict[str, Any],
        rule: str,
        view: dict[str, Any],
        box: int,
        player: str,
        hand: int | None = None,
    ) -> None:
        """A money question, or its chip question when the document pays it in chips."""
        plan = self.round.chips
        stack = plan.pays.get((kind.value, box, hand, player)) if plan is not None else None
        if plan is None or stack is None or expected["action"] != MoneyAction.PAY:
            self._add(
                kind, prompt=prompt, expected=expected, rule=rule, view=view,
                box=box, hand=hand, player=player,
            )  # fmt: skip
            return
        name = self.profile.name
        if plan.rule is ChipRule.MATCH:
            how = "the bet's own chips for each whole bet, then the fewest chips"
        else:
            how = "the fewest chips, the larger chips first among equally few"
        self._add(
            Kind.PAY_IN_CHIPS,
            box=box,
            hand=hand,
            player=player,
            prompt=f"{prompt} Pay it in chips from the rack.",
            expected={**expected, "chips": stack_dict(stack), "settles": kind.value},
            # The payout's rule, without its own trailing source: one source ends a rule.
            rule=f"{_SOURCE.sub('', rule)}, paid in {how} (chip_rule: {plan.rule.value}, {name})",
            view=view,
        )

    def _changes(self, view: dict[str, Any]) -> None:
        plan = self.round.chips
        if plan is None:
            return
        largest = chip_text(self.profile.change_chip)
        for item in plan.spec.change:
            self._add(
                Kind.CHANGE,
                box=item.box,
                player=item.player,
                prompt=f"Box {item.box}: {item.player} puts {fmt(item.amount)} in cash on the "
                "layout. Change it.",
                expected=_exchange(item),
                rule=f"Cash is changed into the fewest chips no larger than the house's "
                f"change chip, {largest} (change_chip: {largest}, {self.profile.name})",
                view=view,
            )

    def _colour_ups(self, view: dict[str, Any]) -> None:
        plan = self.round.chips
        if plan is None:
            return
        for item in plan.spec.colour_up:
            pile = ", ".join(
                f"{item.given.count(chip)} × {chip_text(chip)}"
                for chip in sorted(set(item.given), reverse=True)
            )
            self._add(
                Kind.COLOUR_UP,
                box=item.box,
                player=item.player,
                prompt=f"Box {item.box}: {item.player} leaves the table with {pile} "
                f"({fmt(item.amount)}). Colour up.",
                expected=_exchange(item),
                rule="A leaving player's chips are exchanged for the fewest chips of the same "
                f"value, the larger chips first among equally few ({self.profile.name})",
                view=view,
            )

    # Views: what the table shows when a question is asked.

    def _view_before(self, *, insurance: bool, even_money: bool = False) -> dict[str, Any]:
        """After the deal: the up card (the hole card hidden), each box's first two cards;
        with `insurance` the insurance placed, with `even_money` who took even money."""
        dealer: list[str | None] = [self.up]
        if self.profile.hole_card == "peek":
            dealer.append(None)
        boxes = []
        for box in self.round.boxes:
            entry: dict[str, Any] = {
                "box": box.box,
                "hands": [
                    {
                        "cards": list(box.initial),
                        "stakes": {p: fmt(s) for p, s in box.stakes},
                        **dealt_hand_facts(box),
                    }
                ],
            }
            if insurance and box.insurance:
                entry["insurance"] = {p: fmt(s) for p, s in box.insurance.items()}
            if even_money and box.even_money:
                entry["even_money"] = even_money_taken(box, box.even_money)
            boxes.append(entry)
        dealt = 2 * len(self.round.boxes) + len(dealer)
        return {"dealer": dealer, "boxes": boxes, "shoe": shoe_facts(self.round, dealt)}

    def _view_final(self, dealer_cards: int | None = None) -> dict[str, Any]:
        """After the players: every hand as played; the dealer's cards drawn so far."""
        result = self.round
        cards = list(result.dealer.cards)
        if dealer_cards is not None:
            cards = cards[:dealer_cards]
        boxes = []
        for box in result.boxes:
            original = dict(box.stakes)
            entry: dict[str, Any] = {
                "box": box.box,
                "hands": [
                    {
                        "cards": list(h.cards),
                        "stakes": {p: fmt(s) for p, s in h.stakes.items()},
                        **played_hand_facts(h, original),
                    }
                    for h in box.hands
                ],
            }
            if box.insurance:
                entry["insurance"] = {p: fmt(s) for p, s in box.insurance.items()}
            if box.even_money:
                entry["even_money"] = even_money_taken(box, box.even_money)
            boxes.append(entry)
        # The dealer draws last: the cards not yet drawn are the shoe's last ones this round.
        dealt = result.cards_used - (len(result.dealer.cards) - len(cards))
        return {"dealer": cards, "boxes": boxes, "shoe": shoe_facts(result, dealt)}

    def _with_even_money(
        self, view: dict[str, Any], taken: list[tuple[int, str]]
    ) -> dict[str, Any]:
        """`view` with the even money taken so far (box, player) marked on its boxes."""
        boxes = []
        for entry, box in zip(view["boxes"], self.round.boxes, strict=True):
            players = tuple(p for number, p in taken if number == box.box)
            if players:
                entry = {**entry, "even_money": even_money_taken(box, players)}
            boxes.append(entry)
        return {**view, "boxes": boxes}

    # Procedure.

    def _offer_insurance(self, view: dict[str, Any]) -> None:
        profile = self.profile
        if profile.insurance:
            answer = ProcedureAnswer.OFFER
            rule = (
                f"Insurance is offered on an ace up card, up to half the stake, paying 2 to 1 "
                f"(insurance: true, {profile.name})"
            )
        else:
            answer = ProcedureAnswer.NO_OFFER
            rule = f"This house offers no insurance (insurance: false, {profile.name})"
        prompt = f"The dealer's up card is {self.up}. Does the dealer offer insurance?"
        self._add(
            Kind.OFFER_INSURANCE, prompt=prompt, expected=_answer(answer), rule=rule, view=view
        )

    def _even_money(self, placed: dict[str, Any]) -> None:
        name = self.profile.name
        # Each player answers the offer in turn: the table shows who has taken it so far.
        taken: list[tuple[int, str]] = []
        for box in self.round.boxes:
            if not box.hands[0].natural:
                continue
            shown = " ".join(box.initial)
            for player, stake in box.stakes:
                self._add(
                    Kind.OFFER_EVEN_MONEY,
                    box=box.box,
                    hand=1,
                    player=player,
                    prompt=f"Box {box.box}: {player} holds a natural ({shown}) against the "
                    f"dealer's ace. What does the dealer offer {player}?",
                    expected=_answer(ProcedureAnswer.OFFER),
                    rule=f"A natural against an ace may take even money, 1 to 1 at once "
                    f"(even_money: true, {name})",
                    view=self._with_even_money(placed, taken),
                )
                if player in box.even_money:
                    taken.append((box.box, player))
                    self._payout(
                        Kind.EVEN_MONEY,
                        box=box.box,
                        hand=1,
                        player=player,
                        prompt=f"Box {box.box}: {player} takes even money on a stake of "
                        f"{fmt(stake)}. Settle it.",
                        expected=_money(MoneyAction.PAY, stake),
                        rule=f"Even money pays the natural 1 to 1 at once, whatever the dealer "
                        f"holds (even_money: true, {name})",
                        view=self._with_even_money(placed, taken),
                    )

    def _insurance(self, box: BoxResult, view: dict[str, Any]) -> None:
        natural = self.round.dealer.blackjack
        for player, placed in box.insurance.items():
            if natural:
                expected = _money(MoneyAction.PAY, placed * 2)
                rule = "Insurance pays 2 to 1 when the dealer has a natural"
            else:
                expected = _money(MoneyAction.TAKE, placed)
                rule = "Insurance loses when the dealer has no natural"
            if self.profile.hole_card == "enhc":
                rule += (
                    "; with no hole card it stays open until the dealer's second card "
                    f"({self.profile.name})"
                )
            else:
                rule += f"; it is settled at the peek ({self.profile.name})"
            self._payout(
                Kind.SETTLE_INSURANCE,
                box=box.box,
                player=player,
                prompt=f"Box {box.box}: settle {player}'s insurance of {fmt(placed)}.",
                expected=expected,
                rule=rule,
                view=view,
            )

    def _dealer_play(self) -> None:
        result = self.round
        profile = self.profile
        cards = result.dealer.cards
        if result.dealer_draw == "none":
            return
        if result.dealer_draw == "second_card":
            total, soft = total_of(cards)
            self._add(
                Kind.DEALER_PLAY,
                prompt=f"No hand is left in play. The dealer holds {' '.join(cards)} ({total}). "
                "Hit or stand?",
                expected=_answer(ProcedureAnswer.STAND, total=total, soft=soft),
                rule=f"With no live hand the dealer takes only the second card, to settle "
                f"insurance and naturals (hole_card: enhc, {profile.name})",
                view=self._view_final(len(cards)),
            )
            return
        h17 = profile.dealer_hits_soft_17
        rule = (
            f"The dealer hits 16 or less and soft 17, and stands on hard 17 or more "
            f"(dealer_hits_soft_17: true, {profile.name})"
            if h17
            else f"The dealer hits 16 or less and stands on every 17, soft 17 too "
            f"(dealer_hits_soft_17: false, {profile.name})"
        )
        for count in range(2, len(cards) + 1):
            total, soft = total_of(cards[:count])
            if total > 21:
                break
            hit = total < 17 or (total == 17 and soft and h17)
            shown = f"soft {total}" if soft else str(total)
            self._add(
                Kind.DEALER_PLAY,
                prompt=f"The dealer holds {' '.join(cards[:count])} ({shown}). Hit or stand?",
                expected=_answer(
                    ProcedureAnswer.HIT if hit else ProcedureAnswer.STAND, total=total, soft=soft
                ),
                rule=rule,
                view=self._view_final(count),
            )

    # Settlement.

    def _settle_hand(
        self, box: BoxResult, index: int, hand: HandResult, view: dict[str, Any]
    ) -> None:
        dealer = self.round.dealer
        rule = self._hand_rule(hand)
        shown = f"{' '.join(hand.cards)}, {hand.total}"
        against = (
            "a dealer natural"
            if dealer.blackjack
            else ("a dealer bust" if dealer.bust else f"the dealer's {dealer.total}")
        )
        for player, stake in hand.stakes.items():
            amount = hand.results[player]
            if hand.outcome == "surrender":
                action = MoneyAction.TAKE_HALF
            elif amount > 0:
                action = MoneyAction.PAY
            elif amount < 0:
                action = MoneyAction.TAKE
            else:
                action = MoneyAction.PUSH
            self._payout(
                Kind.SETTLE_HAND,
                box=box.box,
                hand=index,
                player=player,
                prompt=f"Box {box.box}, hand {index} ({shown}) against {against}: settle "
                f"{player}'s stake of {fmt(stake)}.",
                expected=_money(action, abs(amount)),
                rule=rule,
                view=view,
            )
        prize = self.profile.bonus_777
        for player, amount in hand.bonus.items():
            self._payout(
                Kind.BONUS_777,
                box=box.box,
                hand=index,
                player=player,
                prompt=f"Box {box.box}, hand {index} holds three sevens. What does {player} "
                "receive?",
                expected=_money(MoneyAction.PAY, amount),
                rule=f"Three sevens pay {prize} times the original stake, whatever the hand's "
                f"result (bonus_777: {prize}, {self.profile.name})",
                view=view,
            )

    def _hand_rule(self, hand: HandResult) -> str:
        profile = self.profile
        dealer = self.round.dealer
        name = profile.name
        outcome = hand.outcome
        if outcome == "surrender":
            return f"Late surrender gives back half the stake (surrender: late, {name})"
        if outcome == "bust":
            return "A hand over 21 loses at once, whatever the dealer draws"
        if outcome == "blackjack":
            return (
                f"Blackjack pays {_pays(profile)}, rounded down to the {fmt(profile.payout_unit)} "
                f"unit ({name})"
            )
        if hand.natural:
            return "A natural against a dealer natural is a push"
        if dealer.blackjack:
            if profile.hole_card == "enhc":
                return (
                    "With no hole card a dealer natural takes every stake, doubles and splits "
                    f"included (hole_card: enhc, {name})"
                )
            return (
                f"The dealer's natural, found at the peek, takes every stake but a natural ({name})"
            )
        if outcome == "win":
            if dealer.bust:
                return "The dealer busted: every hand still standing is paid 1 to 1"
            return "A higher total than the dealer's wins 1 to 1"
        if outcome == "push":
            return "Equal totals push: the stake stays"
        return "A lower total than the dealer's loses the stake"

    def _reshuffle(self, view: dict[str, Any]) -> None:
        result = self.round
        cut = result.cut_card_at
        used = result.cards_used
        if cut is None:
            answer = ProcedureAnswer.CONTINUE
            rule = "No cut card was reached: this scenario places none"
        elif result.reshuffle:
            answer = ProcedureAnswer.RESHUFFLE
            rule = (
                f"The cut card lies before shoe card {cut + 1} and {used} cards were dealt: "
                "finish the round, then reshuffle"
            )
        else:
            answer = ProcedureAnswer.CONTINUE
            rule = (
                f"The cut card lies before shoe card {cut + 1} and only {used} cards were "
                "dealt: keep dealing from this shoe"
            )
        self._add(
            Kind.RESHUFFLE,
            prompt=f"The round is over after {used} cards from the shoe. Reshuffle or continue?",
            expected=_answer(answer),
            rule=rule,
            view=view,
        )
