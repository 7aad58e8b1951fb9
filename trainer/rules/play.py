"""Playing one round of a validated scenario, card by card in the order the spec fixes.

Over 400 lines on purpose: the deal, the side bets, each box's hands, the dealer's draw
and the settlement are one pass over the same hand records; apart, they would only pass
those records between modules (and the compiled engine pays for calls across modules).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from .cards import VALUE, total_of
from .chipwork import plan_chips
from .errors import ScenarioError
from .money import ZERO, cents_down, cents_up, round_down
from .profiles import Profile
from .results import BoxResult, DealerDraw, DealerResult, HandResult, Outcome, PlayerResult, Round
from .scenario import ACTIONS, Action, BoxSpec, Scenario, parse_action


@dataclass(slots=True, frozen=True)
class DecisionPoint:
    """A decision the host of a box must make now, with the actions that are legal.

    `hand` is the 1-based position of the hand in its box; "double" in `legal` also
    stands for "double:AMOUNT" when the profile allows doubling for less.
    """

    box: int
    hand: int
    cards: tuple[str, ...]
    total: int
    soft: bool
    dealer_up: str
    legal: tuple[str, ...]


Chooser = Callable[[DecisionPoint], str]


@dataclass(slots=True)
class _Hand:
    cards: list[str]
    stakes: dict[str, Decimal]
    split: bool = False
    aces: bool = False  # made by splitting aces
    doubled: bool = False
    surrendered: bool = False
    natural: bool = False


class _Shoe:
    __slots__ = ("cards", "pos")

    def __init__(self, cards: list[str]) -> None:
        self.cards = cards
        self.pos = 0

    def draw(self) -> str:
        pos = self.pos
        if pos >= len(self.cards):
            message = f"the shoe ran out: card {pos + 1} was needed but the shoe holds {pos}"
            raise ScenarioError("shoe", "shoe_exhausted", message)
        self.pos = pos + 1
        return self.cards[pos]


def _is_natural(cards: list[str]) -> bool:
    first, second = VALUE[cards[0]], VALUE[cards[1]]
    return first + second == 11 and (first == 1 or second == 1)


def _show(cards: list[str] | tuple[str, ...]) -> str:
    return " ".join(cards)


def play_scenario(
    scenario: Scenario,
    chooser: Chooser | None = None,
    chosen: dict[int, list[str]] | None = None,
) -> Round:
    """Deal, play and settle the scenario's round; raises ScenarioError when it cannot.

    With a chooser, a decision the scripted actions do not cover is asked of it, and its
    answers are collected per box number in `chosen`.
    """
    profile = scenario.profile
    shoe = _Shoe(scenario.shoe)
    boxes = scenario.boxes
    first_hands = [_Hand([shoe.draw()], dict(spec.stake_of)) for spec in boxes]
    up = shoe.draw()
    for hand in first_hands:
        hand.cards.append(shoe.draw())
        hand.natural = _is_natural(hand.cards)
    dealer = [up]
    if profile.hole_card == "peek":
        dealer.append(shoe.draw())
    initial = [(hand.cards[0], hand.cards[1]) for hand in first_hands]

    up_value = VALUE[up]
    insurance_offered = up_value == 1 and profile.insurance
    even_money_offered = insurance_offered and profile.even_money
    for spec, hand in zip(boxes, first_hands, strict=True):
        if spec.insurance or spec.even_money:
            _check_side_bets(spec, hand, profile, up, insurance_offered, even_money_offered)
            for player in spec.even_money:
                del hand.stakes[player]

    peeked = profile.hole_card == "peek" and (up_value == 1 or up_value == 10)
    all_hands: list[list[_Hand]]
    if peeked and _is_natural(dealer):
        # The dealer's natural ends the round before anyone acts.
        for spec in boxes:
            if spec.actions:
                _left_over(spec, 0, "the dealer's natural ended the round before anyone acted")
        all_hands = [[hand] for hand in first_hands]
        draw: DealerDraw = "none"
    else:
        all_hands = [
            _play_box(spec, hand, profile, shoe, up, chooser, chosen)
            for spec, hand in zip(boxes, first_hands, strict=True)
        ]
        draw = _dealer_plays(profile, shoe, dealer, all_hands, boxes, up_value)
    return _settle(
        scenario=scenario,
        dealer=dealer,
        all_hands=all_hands,
        initial=initial,
        cards_used=shoe.pos,
        draw=draw,
        insurance_offered=insurance_offered,
        even_money_offered=even_money_offered,
        peeked=peeked,
    )


def _check_side_bets(
    spec: BoxSpec, hand: _Hand, profile: Profile, up: str, insurance: bool, even_money: bool
) -> None:
    """Insurance and even money may only be scripted for players to whom they are offered."""
    if spec.insurance and not insurance:
        player = next(iter(spec.insurance))
        why = (
            f"the dealer's up card is {up}, not an ace"
            if VALUE[up] != 1
            else f"{profile.name} offers no insurance"
        )
        message = f"insurance is scripted for {player} but is not offered: {why}"
        field = f"boxes[{spec.index}].insurance.{player}"
        raise ScenarioError(field, "insurance_not_offered", message, spec.number)
    if spec.even_money and not (even_money and hand.natural):
        if VALUE[up] != 1:
            why = f"the dealer's up card is {up}, not an ace"
        elif not even_money:
            why = f"{profile.name} offers no even money"
        else:
            why = f"the box holds {_show(hand.cards)}, not a natural"
        message = f"even money is scripted for {spec.even_money[0]} but is not offered: {why}"
        field = f"boxes[{spec.index}].even_money[0]"
        raise ScenarioError(field, "even_money_not_offered", message, spec.number)


def _left_over(spec: BoxSpec, used: int, why: str) -> None:
    left = [_action_text(a) for a in spec.actions[used:]]
    shown = ", ".join(repr(a) for a in left[:5]) + (", ..." if len(left) > 5 else "")
    message = f"{len(left)} action(s) left over ({shown}): {why}"
    raise ScenarioError(
        f"boxes[{spec.index}].actions[{used}]", "actions_left_over", message, spec.number
    )


def _action_text(action: Action) -> str:
    kind, amount = action
    return kind if amount is None else f"{kind}:{amount}"


def _play_box(
    spec: BoxSpec,
    first: _Hand,
    profile: Profile,
    shoe: _Shoe,
    up: str,
    chooser: Chooser | None,
    chosen: dict[int, list[str]] | None,
) -> list[_Hand]:
    """The host plays the box's hands one at a time, splits played in place."""
    hands = [first]
    actions = spec.actions
    used = 0
    host_stake = spec.stakes[0][1]
    single = len(spec.stakes) == 1
    i = 0
    while i < len(hands):
        hand = hands[i]
        cards = hand.cards
        if len(cards) == 1:
            cards.append(shoe.draw())
        while not hand.natural:
            total, soft = total_of(cards)
            if total >= 21:
                break
            if (
                hand.aces
                and not profile.hit_split_aces
                and (_illegal("split", None, hand, len(hands), False, single, host_stake, profile))
            ):
                break  # one card to each split ace, and no resplit allowed
            if used < len(actions):
                action = actions[used]
            elif chooser is not None:
                action = _ask(
                    chooser=chooser,
                    spec=spec,
                    hand=hand,
                    i=i,
                    count=len(hands),
                    used=used,
                    up=up,
                    single=single,
                    host_stake=host_stake,
                    profile=profile,
                    total=total,
                    soft=soft,
                    chosen=chosen,
                )
            else:
                message = (
                    f"hand {i + 1} ({_show(cards)}, {total}) needs a decision "
                    "but the actions ran out"
                )
                raise ScenarioError(
                    f"boxes[{spec.index}].actions[{used}]", "missing_action", message, spec.number
                )
            kind, amount = action
            if kind != "stand" and (kind != "hit" or hand.aces):
                why = _illegal(
                    kind, amount, hand, len(hands), used == 0, single, host_stake, profile
                )
                if why:
                    raise ScenarioError(
                        f"boxes[{spec.index}].actions[{used}]",
                        "illegal_action",
                        f"{_action_text(action)!r} {why}",
                        spec.number,
                    )
            used += 1
            if kind == "stand":
                break
            if kind == "hit":
                cards.append(shoe.draw())
            elif kind == "double":
                for player, stake in hand.stakes.items():
                    hand.stakes[player] = stake + (amount if amount is not None else stake)
                hand.doubled = True
                cards.append(shoe.draw())
                break
            elif kind == "surrender":
                hand.surrendered = True
                break
            else:  # split: the second card starts a new hand right after this one
                moved = cards.pop()
                aces = VALUE[moved] == 1
                hand.split = True
                hand.aces = aces
                hands.insert(i + 1, _Hand([moved], dict(spec.stake_of), split=True, aces=aces))
                cards.append(shoe.draw())
        i += 1
    if used < len(actions):
        _left_over(spec, used, "the box's hands were finished")
    return hands


def _ask(
    *,
    chooser: Chooser,
    spec: BoxSpec,
    hand: _Hand,
    i: int,
    count: int,
    used: int,
    up: str,
    single: bool,
    host_stake: Decimal,
    profile: Profile,
    total: int,
    soft: bool,
    chosen: dict[int, list[str]] | None,
) -> Action:
    """Ask the chooser for a decision the script does not cover, and record it."""
    legal = tuple(
        kind
        for kind in ACTIONS
        if not _illegal(kind, None, hand, count, used == 0, single, host_stake, profile)
    )
    point = DecisionPoint(spec.number, i + 1, tuple(hand.cards), total, soft, up, legal)
    text = chooser(point)
    field = f"boxes[{spec.index}].actions[{used}]"
    action = parse_action(text, field, spec.number)
    if chosen is not None:
        chosen.setdefault(spec.number, []).append(text)
    spec.actions.append(action)
    return action


def _illegal(
    kind: str,
    amount: Decimal | None,
    hand: _Hand,
    count: int,
    first: bool,
    single: bool,
    host_stake: Decimal,
    profile: Profile,
) -> str:
    """Why the action is not allowed on this hand now, or "" when it is."""
    cards = hand.cards
    if kind == "hit":
        if hand.aces and not profile.hit_split_aces:
            return f"is not allowed on split aces under {profile.name}: one card to each ace"
        return ""
    if kind == "stand":
        return ""
    if kind == "double":
        if len(cards) != 2:
            return "is only allowed on the first two cards of a hand"
        if hand.aces:
            return "is not allowed on split aces"
        if hand.split and not profile.double_after_split:
            return f"is not allowed after a split under {profile.name}"
        total, soft = total_of(cards)
        if not profile.double_min <= total <= profile.double_max:
            shown = f"soft {total}" if soft else str(total)
            return f"is not allowed on {shown} under {profile.name} (double on {profile.double_on})"
        if amount is not None:
            if not profile.double_for_less:
                return f"(double for less) is not allowed under {profile.name}"
            if not single:
                return "(double for less) is only allowed on a box with a single player"
            if amount > host_stake:
                return f"is more than the original stake {host_stake}"
        return ""
    if kind == "split":
        if len(cards) != 2:
            return "is only allowed on two cards"
        first_value, second_value = VALUE[cards[0]], VALUE[cards[1]]
        if cards[0][0] != cards[1][0]:
            if first_value != 10 or second_value != 10:
                return f"needs a pair, not {_show(cards)}"
            if not profile.split_unlike_tens:
                return (
                    f"needs a pair: {_show(cards)} are unlike tens, not a pair under {profile.name}"
                )
        if profile.max_split_hands is not None and count >= profile.max_split_hands:
            most = profile.max_split_hands
            return f"would make {count + 1} hands; {profile.name} allows at most {most}"
        if hand.aces and not profile.resplit_aces:
            return f"is not allowed: split aces may not be split again under {profile.name}"
        return ""
    if kind == "surrender":
        if profile.surrender != "late":
            return f"is not offered under {profile.name}"
        if not first or hand.split or len(cards) != 2:
            return "is only allowed as the first decision on the box's first two cards"
        return ""
    return "is not an action"  # pragma: no cover - parse_action admits only the kinds above


def _dealer_plays(
    profile: Profile,
    shoe: _Shoe,
    dealer: list[str],
    all_hands: list[list[_Hand]],
    boxes: tuple[BoxSpec, ...],
    up_value: int,
) -> DealerDraw:
    """The dealer draws to 17 when a hand is live; under enhc perhaps only a second card."""
    live = False
    natural_open = False
    for hands in all_hands:
        for hand in hands:
            if hand.natural:
                natural_open = natural_open or bool(hand.stakes)
            elif not hand.surrendered and total_of(hand.cards)[0] <= 21:
                live = True
    if not live:
        insurance_open = any(spec.insurance for spec in boxes)
        if profile.hole_card == "enhc" and (
            insurance_open or (natural_open and (up_value == 1 or up_value == 10))
        ):
            # The second card settles the insurance and the naturals, nothing more.
            dealer.append(shoe.draw())
            return "second_card"
        return "none"
    if len(dealer) == 1:
        dealer.append(shoe.draw())
    hits_soft_17 = profile.dealer_hits_soft_17
    while True:
        total, soft = total_of(dealer)
        if total > 17 or (total == 17 and not (soft and hits_soft_17)):
            return "full"
        dealer.append(shoe.draw())


def _settle(
    *,
    scenario: Scenario,
    dealer: list[str],
    all_hands: list[list[_Hand]],
    initial: list[tuple[str, str]],
    cards_used: int,
    draw: DealerDraw,
    insurance_offered: bool,
    even_money_offered: bool,
    peeked: bool,
) -> Round:
    profile = scenario.profile
    dealer_total, dealer_soft = total_of(dealer)
    dealer_natural = len(dealer) == 2 and dealer_total == 21
    dealer_bust = dealer_total > 21
    boxes: list[BoxResult] = []
    for spec, hands, first_cards in zip(scenario.boxes, all_hands, initial, strict=True):
        original = spec.stake_of
        main = dict.fromkeys(original, ZERO)
        bonus: dict[str, Decimal] = {}
        for player in spec.even_money:
            main[player] = original[player]
        results = []
        for hand in hands:
            result = _settle_hand(
                hand, profile, dealer_total, dealer_natural, dealer_bust, original
            )
            for player, amount in result.results.items():
                main[player] += amount
            for player, amount in result.bonus.items():
                bonus[player] = bonus.get(player, ZERO) + amount
            results.append(result)
        players = []
        insured = spec.insurance
        for player, stake in spec.stakes:
            placed = insured.get(player) if insured else None
            insurance = ZERO if placed is None else placed * 2 if dealer_natural else -placed
            prize = bonus.get(player, ZERO) if bonus else ZERO
            net = main[player] + insurance + prize
            players.append(
                PlayerResult(
                    player,
                    stake,
                    net,
                    main[player],
                    insurance,
                    player in spec.even_money,
                    prize,
                )
            )
        boxes.append(
            BoxResult(
                spec.number,
                spec.stakes,
                spec.insurance,
                spec.even_money,
                first_cards,
                tuple(results),
                tuple(players),
            )
        )
    cut = scenario.cut_card_at
    played = Round(
        doc=scenario.doc,
        profile=profile,
        dealer=DealerResult(tuple(dealer), dealer_total, dealer_soft, dealer_natural, dealer_bust),
        boxes=tuple(boxes),
        cards_used=cards_used,
        reshuffle=cut is not None and cards_used > cut,
        cut_card_at=cut,
        insurance_offered=insurance_offered,
        even_money_offered=even_money_offered,
        peeked=peeked,
        dealer_draw=draw,
    )
    if scenario.chips is not None:
        played.chips = plan_chips(played, scenario.chips)
    return played


def _settle_hand(
    hand: _Hand,
    profile: Profile,
    dealer_total: int,
    dealer_natural: bool,
    dealer_bust: bool,
    original: dict[str, Decimal],
) -> HandResult:
    """One hand against the dealer: its outcome and each player's signed result."""
    total, soft = total_of(hand.cards)
    stakes = hand.stakes
    outcome: Outcome
    results: dict[str, Decimal]
    if hand.surrendered:
        outcome = "surrender"
        results = {p: -cents_up(s / 2) for p, s in stakes.items()}
    elif total > 21:
        outcome = "bust"
        results = {p: -s for p, s in stakes.items()}
    elif hand.natural:
        if dealer_natural and stakes:
            outcome, results = "push", dict.fromkeys(stakes, ZERO)
        else:
            # A natural all of whose players took even money was paid as one at once.
            outcome = "blackjack"
            ratio, unit = profile.blackjack_ratio, profile.payout_unit
            results = {p: round_down(s * ratio, unit) for p, s in stakes.items()}
    elif dealer_natural:
        outcome = "lose"
        results = {p: -s for p, s in stakes.items()}
    elif dealer_bust or total > dealer_total:
        outcome = "win"
        results = dict(stakes)
    elif total == dealer_total:
        outcome, results = "push", dict.fromkeys(stakes, ZERO)
    else:
        outcome = "lose"
        results = {p: -s for p, s in stakes.items()}
    bonus: dict[str, Decimal] = {}
    prize = profile.bonus_777
    if prize is not None and len(hand.cards) == 3 and all(c[0] == "7" for c in hand.cards):
        bonus = {p: cents_down(prize * original[p]) for p in stakes}
    return HandResult(
        tuple(hand.cards),
        total,
        soft,
        outcome,
        stakes,  # the hand is finished: its stakes dict is not changed any more
        hand.doubled,
        hand.split,
        hand.natural,
        results,
        bonus,
    )
