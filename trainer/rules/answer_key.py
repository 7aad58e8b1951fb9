"""The answer key: every question a dealer must answer in a round, in the order they arise.

Procedure first (insurance, even money, the peek), then the dealer's draws, then the
settlement in the profile's order (right to left: last box first; a box's hands in order,
a hand's players in stake order), then the reshuffle. Each item says what the table showed
when it was asked (`view`), what is right (`expected`) and the rule that decides it.

Where items sit, so the grader and the trainee see the same round:
- even money is paid when it is taken, so its item follows that player's offer;
- under a peek profile insurance is settled at the peek, right after the peek item;
  under no-hole-card rules it waits for the dealer's second card, after the box's hands;
- a three-sevens prize follows the settlement of the hand that made it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from .cards import VALUE, total_of
from .money import ZERO, fmt
from .profiles import Profile
from .results import BoxResult, HandResult, Round
from .settlement import play

Kind = Literal[
    "offer_insurance",
    "offer_even_money",
    "even_money",
    "peek",
    "settle_insurance",
    "dealer_play",
    "settle_hand",
    "bonus_777",
    "reshuffle",
]
Category = Literal[
    "wrong_outcome",
    "underpay",
    "overpay",
    "insurance_error",
    "even_money_error",
    "prize_error",
    "procedure_error",
]
MONEY_KINDS = frozenset(("settle_hand", "settle_insurance", "even_money", "bonus_777"))
_MONEY_CATEGORY: dict[str, Category] = {
    "settle_insurance": "insurance_error",
    "even_money": "even_money_error",
    "bonus_777": "prize_error",
}
# What each money action does to the player's purse.
_SIGN = {"pay": 1, "push": 0, "take": -1, "take_half": -1}


@dataclass(slots=True, frozen=True)
class Verdict:
    """How a trainee's answer compares: money_diff > 0 means the player got too much."""

    right: bool
    money_diff: Decimal
    category: Category | None


def answer_key(doc_or_round: Mapping[str, Any] | Round) -> list[dict[str, Any]]:
    """The ordered questions of the round with their expected answers and rules."""
    result = doc_or_round if isinstance(doc_or_round, Round) else play(doc_or_round)
    return _Builder(result).build()


def questions(doc_or_round: Mapping[str, Any] | Round) -> list[dict[str, Any]]:
    """The answer key without `expected` and `rule`: safe to send before the trainee answers."""
    return [
        {k: v for k, v in item.items() if k not in ("expected", "rule")}
        for item in answer_key(doc_or_round)
    ]


def signed_amount(answer: Mapping[str, Any]) -> Decimal:
    """What a money answer ({"action", "amount"}) moves to (+) or from (-) the player."""
    sign = _SIGN[answer["action"]]
    return Decimal(answer["amount"]) * sign if sign else ZERO


def compare(item: Mapping[str, Any], given: Mapping[str, Any]) -> Verdict:
    """Grade a trainee's answer to one answer-key item."""
    kind = item["kind"]
    expected = item["expected"]
    if kind not in MONEY_KINDS:
        right = isinstance(given, Mapping) and _procedure_right(expected, given)
        return Verdict(right, ZERO, None if right else "procedure_error")
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
            category = "wrong_outcome"
        else:
            category = "overpay" if diff > 0 else "underpay"
    return Verdict(False, diff, category)


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
    if action not in _SIGN or type(amount) not in (str, int):
        return None
    try:
        value = Decimal(amount)
    except (InvalidOperation, ValueError):
        return None
    if not value.is_finite() or value < 0:
        return None
    sign = _SIGN[action]
    return action, value * sign if sign else ZERO


def _pays(profile: Profile) -> str:
    return profile.blackjack_pays.replace(":", " to ")


class _Builder:
    """Walks a played round and writes its answer key."""

    def __init__(self, result: Round) -> None:
        self.round = result
        self.profile = result.profile
        self.items: list[dict[str, Any]] = []
        self.up = result.dealer.cards[0]

    def build(self) -> list[dict[str, Any]]:
        result = self.round
        profile = self.profile
        ace_up = VALUE[self.up] == 1
        before = self._view_before(insurance=False)
        if ace_up:
            self._offer_insurance(before)
        placed = self._view_before(insurance=True)
        if result.even_money_offered:
            self._even_money(placed)
        settle_order = self._settle_order()
        if result.peeked:
            natural = result.dealer.blackjack
            cards = [self.up, result.dealer.cards[1] if natural else None]
            view = {**placed, "dealer": cards}
            self._add(
                "peek",
                None,
                None,
                None,
                f"The dealer shows {self.up}. What must the dealer do before anyone acts?",
                {"answer": "peek", "dealer_blackjack": natural},
                f"With an ace or a ten up the dealer checks the hole card for a natural "
                f"(hole_card: peek, {profile.name})",
                view,
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
        self._reshuffle(final)
        return self.items

    def _settle_order(self) -> list[BoxResult]:
        # settle_order has one value today, right-to-left: the last box is settled first.
        return list(reversed(self.round.boxes))

    def _add(
        self,
        kind: Kind,
        box: int | None,
        hand: int | None,
        player: str | None,
        prompt: str,
        expected: dict[str, Any],
        rule: str,
        view: dict[str, Any],
    ) -> None:
        self.items.append(
            {
                "n": len(self.items) + 1,
                "kind": kind,
                "box": box,
                "hand": hand,
                "player": player,
                "prompt": prompt,
                "expected": expected,
                "rule": rule,
                "view": view,
            }
        )

    # Views: what the table shows when a question is asked.

    def _view_before(self, *, insurance: bool) -> dict[str, Any]:
        """After the deal: the up card (the hole card hidden), each box's first two cards."""
        dealer: list[str | None] = [self.up]
        if self.profile.hole_card == "peek":
            dealer.append(None)
        boxes = []
        for box in self.round.boxes:
            entry: dict[str, Any] = {
                "box": box.box,
                "hands": [
                    {"cards": list(box.initial), "stakes": {p: fmt(s) for p, s in box.stakes}}
                ],
            }
            if insurance and box.insurance:
                entry["insurance"] = {p: fmt(s) for p, s in box.insurance.items()}
            boxes.append(entry)
        return {"dealer": dealer, "boxes": boxes}

    def _view_final(self, dealer_cards: int | None = None) -> dict[str, Any]:
        """After the players: every hand as played; the dealer's cards drawn so far."""
        cards = list(self.round.dealer.cards)
        if dealer_cards is not None:
            cards = cards[:dealer_cards]
        boxes = []
        for box in self.round.boxes:
            entry: dict[str, Any] = {
                "box": box.box,
                "hands": [
                    {"cards": list(h.cards), "stakes": {p: fmt(s) for p, s in h.stakes.items()}}
                    for h in box.hands
                ],
            }
            if box.insurance:
                entry["insurance"] = {p: fmt(s) for p, s in box.insurance.items()}
            boxes.append(entry)
        return {"dealer": cards, "boxes": boxes}

    # Procedure.

    def _offer_insurance(self, view: dict[str, Any]) -> None:
        profile = self.profile
        if profile.insurance:
            answer = "offer"
            rule = (
                f"Insurance is offered on an ace up card, up to half the stake, paying 2 to 1 "
                f"(insurance: true, {profile.name})"
            )
        else:
            answer = "no_offer"
            rule = f"This house offers no insurance (insurance: false, {profile.name})"
        prompt = f"The dealer's up card is {self.up}. Does the dealer offer insurance?"
        self._add("offer_insurance", None, None, None, prompt, {"answer": answer}, rule, view)

    def _even_money(self, view: dict[str, Any]) -> None:
        name = self.profile.name
        for box in self.round.boxes:
            if not box.hands[0].natural:
                continue
            shown = " ".join(box.initial)
            for player, stake in box.stakes:
                self._add(
                    "offer_even_money",
                    box.box,
                    1,
                    player,
                    f"Box {box.box}: {player} holds a natural ({shown}) against the dealer's "
                    f"ace. What does the dealer offer {player}?",
                    {"answer": "offer"},
                    f"A natural against an ace may take even money, 1 to 1 at once "
                    f"(even_money: true, {name})",
                    view,
                )
                if player in box.even_money:
                    self._add(
                        "even_money",
                        box.box,
                        1,
                        player,
                        f"Box {box.box}: {player} takes even money on a stake of {fmt(stake)}. "
                        "Settle it.",
                        {"action": "pay", "amount": fmt(stake)},
                        f"Even money pays the natural 1 to 1 at once, whatever the dealer "
                        f"holds (even_money: true, {name})",
                        view,
                    )

    def _insurance(self, box: BoxResult, view: dict[str, Any]) -> None:
        natural = self.round.dealer.blackjack
        for player, placed in box.insurance.items():
            if natural:
                expected = {"action": "pay", "amount": fmt(placed * 2)}
                rule = "Insurance pays 2 to 1 when the dealer has a natural"
            else:
                expected = {"action": "take", "amount": fmt(placed)}
                rule = "Insurance loses when the dealer has no natural"
            if self.profile.hole_card == "enhc":
                rule += (
                    "; with no hole card it stays open until the dealer's second card "
                    f"({self.profile.name})"
                )
            else:
                rule += f"; it is settled at the peek ({self.profile.name})"
            self._add(
                "settle_insurance",
                box.box,
                None,
                player,
                f"Box {box.box}: settle {player}'s insurance of {fmt(placed)}.",
                expected,
                rule,
                view,
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
                "dealer_play",
                None,
                None,
                None,
                f"No hand is left in play. The dealer holds {' '.join(cards)} ({total}). "
                "Hit or stand?",
                {"answer": "stand", "total": total, "soft": soft},
                f"With no live hand the dealer takes only the second card, to settle insurance "
                f"and naturals (hole_card: enhc, {profile.name})",
                self._view_final(len(cards)),
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
                "dealer_play",
                None,
                None,
                None,
                f"The dealer holds {' '.join(cards[:count])} ({shown}). Hit or stand?",
                {"answer": "hit" if hit else "stand", "total": total, "soft": soft},
                rule,
                self._view_final(count),
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
                action = "take_half"
            elif amount > 0:
                action = "pay"
            elif amount < 0:
                action = "take"
            else:
                action = "push"
            self._add(
                "settle_hand",
                box.box,
                index,
                player,
                f"Box {box.box}, hand {index} ({shown}) against {against}: settle {player}'s "
                f"stake of {fmt(stake)}.",
                {"action": action, "amount": fmt(abs(amount))},
                rule,
                view,
            )
        prize = self.profile.bonus_777
        for player, amount in hand.bonus.items():
            self._add(
                "bonus_777",
                box.box,
                index,
                player,
                f"Box {box.box}, hand {index} holds three sevens. What does {player} receive?",
                {"action": "pay", "amount": fmt(amount)},
                f"Three sevens pay {prize} times the original stake, whatever the hand's result "
                f"(bonus_777: {prize}, {self.profile.name})",
                view,
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
            answer = "continue"
            rule = "No cut card was reached: this scenario places none"
        elif result.reshuffle:
            answer = "reshuffle"
            rule = (
                f"The cut card lies before shoe card {cut + 1} and {used} cards were dealt: "
                "finish the round, then reshuffle"
            )
        else:
            answer = "continue"
            rule = (
                f"The cut card lies before shoe card {cut + 1} and only {used} cards were "
                "dealt: keep dealing from this shoe"
            )
        self._add(
            "reshuffle",
            None,
            None,
            None,
            f"The round is over after {used} cards from the shoe. Reshuffle or continue?",
            {"answer": answer},
            rule,
            view,
        )
