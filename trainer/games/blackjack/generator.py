"""Generated drills: random rounds whose shoes are stacked toward the skills asked for.

Each round starts from a whole shuffled shoe. The cards a skill needs (a pair to split,
an ace up for insurance, a ten for the dealer to bust on ...) are swapped into the
positions the deal order gives them, so the deck counts stay right by construction. The
host's decisions come from a basic strategy (with a little variety) through
`rules.fill_actions`; a skill that needs a particular decision scripts it first. Rounds
whose dealer cards depend on how the players played are staged in two passes: play once
to learn where the dealer starts drawing, stack the dealer's cards there, and play again
with the same actions.

Over 400 lines on purpose: every skill's staging writes into the same shoe plan, and the
recipes read best beside the plan they fill.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from typing import Any

from trainer import rules
from trainer.rules.cards import VALUE, total_of
from trainer.rules.chips import fewest_chips
from trainer.rules.profiles import PARAMETERS

RANKS = "A23456789TJQK"
SUITS = "shdc"
TENS = "TJQK"
# Chip amounts a player actually puts down; stakes are drawn from these when they fit.
CHIPS = tuple(
    Decimal(text)
    for text in [
        "1",
        "2",
        "2.50",
        "5",
        "7",
        "7.50",
        "10",
        "12.50",
        "15",
        "20",
        "25",
        "30",
        "35",
        "40",
        "50",
        "60",
        "75",
        "100",
        "125",
        "150",
        "200",
        "250",
        "300",
        "500",
    ]
)
# When a drill names no skills, rounds are drawn from these.
DEFAULT_SKILLS = (
    "natural-3to2",
    "insurance",
    "push",
    "player-bust",
    "dealer-bust",
    "soft-17",
    "split",
    "double",
    "shared-box",
)
CUT = Decimal("0.01")

Card = str
Predicate = Callable[[Card], bool]


def rank_is(*ranks: str) -> Predicate:
    def check(card: Card) -> bool:
        return card[0] in ranks

    return check


def ten(card: Card) -> bool:
    return card[0] in TENS


def rules_value(profile: rules.Profile) -> str | dict[str, Any]:
    """The scenario `rules` that make the engine play under exactly `profile`.

    A built-in profile is named; a changed or custom one is a built-in one with overrides.
    """
    base = rules.PROFILES.get(profile.name) or rules.PROFILES["casino-shoe"]
    mine, theirs = rules.profile_to_dict(profile), rules.profile_to_dict(base)
    overrides = {key: mine[key] for key in PARAMETERS if mine[key] != theirs[key]}
    if not overrides and base.name == profile.name:
        return profile.name
    return {"profile": base.name, "overrides": overrides}


class _Stacker:
    """A shuffled shoe in which cards can be pinned to positions by swapping."""

    def __init__(self, rng: random.Random, decks: int, burn: int) -> None:
        cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
        rng.shuffle(cards)
        self.rng = rng
        self.burn = cards[:burn]
        self.shoe = cards[burn:]
        self.locked: set[int] = set()

    def pin(self, pos: int, wanted: Predicate, *, after: int = 0) -> bool:
        """Put a card that satisfies `wanted` at `pos`, taken from an unpinned position.

        Only positions at or past `after` are taken from, so cards already dealt stay.
        Returns False (and changes nothing) when no such card is left.
        """
        if pos in self.locked:
            return wanted(self.shoe[pos])
        if wanted(self.shoe[pos]):
            self.locked.add(pos)
            return True
        # The shoe is already shuffled, so the first match after a random start is as
        # random as any, and far cheaper than listing every match.
        low = max(after, 0)
        span = len(self.shoe) - low
        if span <= 0:
            return False
        start = self.rng.randrange(span)
        for k in range(span):
            j = low + (start + k) % span
            if j != pos and j not in self.locked and wanted(self.shoe[j]):
                self.shoe[pos], self.shoe[j] = self.shoe[j], self.shoe[pos]
                self.locked.add(pos)
                return True
        return False


class _Plan:
    """What one round's skill asks of the deal, the target box and the dealer."""

    def __init__(self) -> None:
        self.target: list[Predicate] = []  # the target box's first two cards
        self.up: Predicate | None = None
        self.dealer: list[Predicate] = []  # the dealer's cards after the up card
        self.next_cards: list[Predicate] = []  # the first cards dealt after the deal
        self.actions: list[str] = []  # the target box's scripted first decisions
        self.players = 1  # players sharing the target box
        self.insure = False
        self.even_money = False
        self.rounding = False
        self.cut_card = False
        self.no_dealer_natural = False


def _plan(skill: str, profile: rules.Profile, rng: random.Random) -> _Plan:
    plan = _Plan()
    low_up = rank_is("2", "3", "4", "5", "6")
    if skill in ("natural-3to2", "natural-6to5", "rounding"):
        plan.target = [rank_is("A"), ten]
        plan.up = rank_is(*"23456789")
        plan.rounding = skill == "rounding" or rng.random() < 0.5
    elif skill == "insurance":
        plan.up = rank_is("A")
        plan.insure = True
        plan.dealer = [ten] if rng.random() < 0.5 else [rank_is(*"23456789")]
    elif skill == "even-money":
        plan.target = [rank_is("A"), ten]
        plan.up = rank_is("A")
        plan.even_money = profile.even_money
        plan.insure = not profile.even_money
    elif skill == "dealer-natural":
        if rng.random() < 0.5:
            plan.up, plan.dealer = rank_is("A"), [ten]
            plan.insure = rng.random() < 0.5
        else:
            plan.up, plan.dealer = ten, [rank_is("A")]
        if profile.hole_card == "enhc":
            # Without a hole card the dealer draws the natural only if a hand is still live.
            plan.target, plan.actions = [ten, rank_is("7", "8", "9")], ["stand"]
    elif skill == "dealer-peek":
        plan.up = rank_is("A") if rng.random() < 0.5 else ten
        plan.dealer = [rank_is(*"6789")]
        plan.no_dealer_natural = True
    elif skill == "push":
        plan.target = [ten, rank_is("8")]
        plan.up, plan.dealer = ten, [rank_is("8")]
        plan.actions = ["stand"]
    elif skill == "player-bust":
        plan.target = [ten, rank_is("4", "5", "6")]
        plan.up, plan.dealer = rank_is("7", "8", "9"), [rank_is(*"789")]
        plan.actions, plan.next_cards = ["hit"], [ten]
    elif skill == "dealer-bust":
        plan.target = [ten, rank_is("7", "8", "9")]
        plan.up, plan.dealer = low_up, [ten, ten]
        plan.actions = ["stand"]
    elif skill == "soft-17":
        plan.target = [ten, rank_is("8", "9")]
        plan.up, plan.dealer = rank_is("6"), [rank_is("A")]
        plan.actions = ["stand"]
    elif skill in ("split", "resplit", "double-after-split"):
        rank = rng.choice("23678" if skill != "split" else "236789")
        plan.target = [rank_is(rank), rank_is(rank)]
        plan.up = low_up
        plan.actions = ["split"]
        if skill == "split" and profile.split_unlike_tens and rng.random() < 0.3:
            plan.target = [rank_is("T", "J"), rank_is("Q", "K")]
        elif skill == "resplit" and (profile.max_split_hands or 99) >= 3:
            plan.actions, plan.next_cards = ["split", "split"], [rank_is(rank)]
        elif skill == "double-after-split" and profile.double_after_split:
            plan.target = [rank_is("8"), rank_is("8")]
            plan.actions, plan.next_cards = ["split", "double"], [rank_is("2", "3")]
    elif skill == "pay-in-chips":
        # A payout worth cutting from the rack: a natural, or a hand the dealer busts on.
        if rng.random() < 0.5:
            plan.target = [rank_is("A"), ten]
            plan.up = rank_is(*"23456789")
        else:
            plan.target = [ten, ten]
            plan.up, plan.dealer = low_up, [ten, ten]
            plan.actions = ["stand"]
    elif skill == "split-aces":
        plan.target = [rank_is("A"), rank_is("A")]
        plan.up = rank_is(*"23456789")
        plan.actions = ["split"]
    elif skill in ("double", "double-for-less"):
        # Hard 10 or 11: doubled under every double_on rule.
        first, second = rng.choice((("6", "4"), ("6", "5"), ("7", "4"), ("7", "3"), ("8", "3")))
        plan.target = [rank_is(first), rank_is(second)]
        plan.up = low_up
        plan.actions = ["double"]
        plan.no_dealer_natural = True
    elif skill == "surrender":
        plan.target = [ten, rank_is("6")]
        plan.up, plan.dealer = ten, [rank_is(*"6789")]
        if profile.surrender == "late":
            plan.actions = ["surrender"]
    elif skill == "bonus-777":
        plan.target = [rank_is("7"), rank_is("7")]
        plan.up = rank_is(*"23456789T")
        plan.actions, plan.next_cards = ["hit"], [rank_is("7")]
    elif skill == "enhc":
        # No hole card: the dealer's second card comes after the players' doubles and
        # splits, so a dealer natural takes them (the European rule the dealer must know).
        if rng.random() < 0.5:
            first, second = rng.choice((("6", "4"), ("6", "5"), ("7", "4"), ("8", "3")))
            plan.target, plan.actions = [rank_is(first), rank_is(second)], ["double"]
        else:
            rank = rng.choice("2378")
            plan.target, plan.actions = [rank_is(rank), rank_is(rank)], ["split"]
        if rng.random() < 0.5:
            plan.up, plan.dealer = ten, [rank_is("A")]
        else:
            plan.up, plan.dealer = rank_is("A"), [ten]
    elif skill == "shared-box":
        plan.players = rng.randint(2, 3)
    elif skill == "cut-card":
        plan.cut_card = True
    # Scripted decisions are never reached when a peeked dealer natural ends the round.
    plan.no_dealer_natural = plan.no_dealer_natural or (
        bool(plan.actions) and profile.hole_card == "peek"
    )
    return plan


def _stake_choices(lo: Decimal, hi: Decimal, unit: Decimal) -> list[Decimal]:
    chips = [c for c in CHIPS if lo <= c <= hi]
    if chips:
        return chips
    # Limits between chip values: whole units from the minimum up.
    step = unit if unit > 0 else CUT
    first = (lo / step).to_integral_value(rounding=ROUND_CEILING) * step
    return [first] if first <= hi else [lo]


def _chips_down(amount: Decimal, unit: Decimal) -> Decimal:
    return (amount / unit).to_integral_value(rounding=ROUND_DOWN) * unit


def _rounds(profile: rules.Profile, stake: Decimal) -> bool:
    paid = stake * profile.blackjack_ratio
    return (paid / profile.payout_unit) % 1 != 0


def _stakes(
    rng: random.Random,
    profile: rules.Profile,
    min_stake: Decimal,
    max_stake: Decimal,
    players: int,
    prefix: str,
    rounding: bool,
) -> list[tuple[str, Decimal]]:
    lo = max(min_stake, profile.min_bet)
    hi = min(max_stake, profile.max_bet)
    if lo * players > profile.max_bet:
        players = 1
    out: list[tuple[str, Decimal]] = []
    room = profile.max_bet
    for k in range(players):
        share_hi = min(hi, room - lo * (players - k - 1))
        choices = _stake_choices(lo, max(share_hi, lo), profile.payout_unit)
        if rounding and k == 0:
            odd = [c for c in choices if _rounds(profile, c)]
            choices = odd or choices
        amount = rng.choice(choices)
        room -= amount
        out.append((f"{prefix}{k + 1}" if players > 1 else prefix, amount))
    return out


def _text(amount: Decimal) -> str:
    return str(amount.quantize(CUT)) if amount % 1 else str(int(amount))


def _basic(point: rules.DecisionPoint, rng: random.Random) -> str:
    """Basic strategy for the host of a box, with the odd marginal decision varied."""
    legal = point.legal
    up = VALUE[point.dealer_up]
    up = 11 if up == 1 else up
    total, soft = point.total, point.soft
    cards = point.cards
    if len(cards) == 2 and cards[0][0] == cards[1][0] and "split" in legal:
        rank = VALUE[cards[0]]
        split = (
            rank in (1, 8)
            or (rank in (2, 3, 7) and up <= 7)
            or (rank == 6 and up <= 6)
            or (rank == 9 and up <= 9 and up != 7)
            or (rank == 4 and up in (5, 6))
        )
        if split:
            return "split"
    if (
        "surrender" in legal
        and not soft
        and ((total == 16 and up >= 9) or (total == 15 and up == 10))
    ):
        return "surrender"
    if "double" in legal:
        double = (
            (not soft and total == 11 and up <= 10)
            or (not soft and total == 10 and up <= 9)
            or (not soft and total == 9 and 3 <= up <= 6)
            or (soft and 13 <= total <= 18 and up in (5, 6))
            or (soft and total in (17, 18) and up in (3, 4))
        )
        if double:
            return "double"
    if soft:
        stand = total >= 19 or (total == 18 and up <= 8)
    else:
        stand = total >= 17 or (13 <= total <= 16 and up <= 6) or (total == 12 and 4 <= up <= 6)
    # Marginal totals are where real players (and trainees' tables) differ.
    if 12 <= total <= 16 and not soft and rng.random() < 0.1:
        stand = not stand
    return "stand" if stand else "hit"


def generate_round(
    *,
    rng: random.Random,
    profile: rules.Profile,
    skills: Sequence[str],
    min_stake: Decimal,
    max_stake: Decimal,
    max_boxes: int,
    round_id: str,
) -> dict[str, Any]:
    """A valid blackjack-scenario/1 document, actions filled, stacked for one of `skills`."""
    skill = rng.choice(list(skills) or list(DEFAULT_SKILLS))
    # A shuffle can leave too few of a card for the stacking (a single deck, a burnt
    # seven): then the round is dealt again from the next shuffle of the same generator.
    for _ in range(_TRIES):
        try:
            return _deal(rng, profile, skill, min_stake, max_stake, max_boxes, round_id)
        except _UnstackableError:
            continue
        except rules.ScenarioError as exc:
            # A payout the table's chips cannot make (an odd stake): deal another round.
            if exc.reason != "bad_chips":
                raise
    raise rules.ScenarioError("shoe", "unstackable", f"no shoe could be stacked for {skill}")


_TRIES = 50


class _UnstackableError(Exception):
    """The shuffled shoe has too few of a card the round needs."""


def _need(pinned: bool) -> None:
    if not pinned:
        raise _UnstackableError


def _deal(
    rng: random.Random,
    profile: rules.Profile,
    skill: str,
    min_stake: Decimal,
    max_stake: Decimal,
    max_boxes: int,
    round_id: str,
) -> dict[str, Any]:
    plan = _plan(skill, profile, rng)
    enhc = profile.hole_card == "enhc"
    boxes_n = rng.randint(1, max(1, min(max_boxes, profile.boxes)))
    numbers = sorted(rng.sample(range(1, profile.boxes + 1), boxes_n))
    stack = _Stacker(rng, profile.decks, profile.burn)

    # Deal order: a card to each box, the dealer's up card, a second card to each box,
    # the hole card (peek games only).
    up_pos = boxes_n
    hole_pos = 2 * boxes_n + 1
    after_deal = hole_pos if enhc else hole_pos + 1
    for k, wanted in enumerate(plan.target):
        _need(stack.pin(0 if k == 0 else boxes_n + 1, wanted))
    for k, wanted in enumerate(plan.next_cards):
        _need(stack.pin(after_deal + k, wanted))
    if plan.up is not None:
        _need(stack.pin(up_pos, plan.up))
    if not enhc and plan.dealer:
        _need(stack.pin(hole_pos, plan.dealer[0]))
    up = stack.shoe[up_pos]
    if not enhc and plan.no_dealer_natural and total_of([up, stack.shoe[hole_pos]])[0] == 21:
        stack.locked.discard(hole_pos)
        _need(stack.pin(hole_pos, lambda c: total_of([up, c])[0] != 21, after=after_deal))

    up_is_ace = up[0] == "A"
    boxes: list[dict[str, Any]] = []
    for k, number in enumerate(numbers):
        target = k == 0
        players = plan.players if target else (2 if rng.random() < 0.12 else 1)
        stakes = _stakes(
            rng,
            profile,
            min_stake,
            max_stake,
            players,
            f"b{number}p" if players > 1 else f"b{number}",
            plan.rounding and target,
        )
        box: dict[str, Any] = {
            "box": number,
            "stakes": [{"player": p, "amount": _text(a)} for p, a in stakes],
        }
        first_two = [stack.shoe[k], stack.shoe[boxes_n + 1 + k]]
        natural = total_of(first_two)[0] == 21
        if up_is_ace and profile.insurance:
            offered = natural and profile.even_money
            if offered and ((target and plan.even_money) or (not target and rng.random() < 0.5)):
                box["even_money"] = [stakes[0][0]]
            elif (target and plan.insure) or rng.random() < 0.2:
                half = _chips_down(stakes[0][1] / 2, profile.payout_unit)
                if half > 0:
                    box["insurance"] = {stakes[0][0]: _text(half)}
        if target and plan.actions:
            actions = list(plan.actions)
            if skill == "double-for-less" and profile.double_for_less and players == 1:
                less = _chips_down(stakes[0][1] / 2, profile.payout_unit)
                if less > 0:
                    actions = [f"double:{_text(less)}"]
            box["actions"] = actions
        boxes.append(box)

    stakes_of = {b["box"]: [Decimal(s["amount"]) for s in b["stakes"]] for b in boxes}

    def choose(point: rules.DecisionPoint) -> str:
        action = _basic(point, rng)
        if (
            action == "double"
            and profile.double_for_less
            and len(stakes_of[point.box]) == 1
            and rng.random() < 0.15
        ):
            less = _chips_down(stakes_of[point.box][0] / 2, profile.payout_unit)
            if less > 0:
                return f"double:{_text(less)}"
        return action

    rules_field = rules_value(profile)
    chip_work = _chip_work(skill, profile, rng, boxes[0])

    def document(cut: int | None) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": rules.SCENARIO_FORMAT,
            "id": round_id,
            "title": f"Generated round: {skill}",
            "skills": [skill],
            "rules": rules_field,
            "boxes": boxes,
            "burn": list(stack.burn),
            "shoe": list(stack.shoe),
        }
        if cut is not None:
            doc["cut_card_at"] = cut
        if chip_work is not None:
            doc["chips"] = chip_work
        return doc

    filled = rules.fill_actions(document(None), choose)
    boxes = filled["boxes"]
    played = rules.play(filled)
    # Stack the dealer's draws now that it is known where they start.
    dealer_cards = played.dealer.cards
    dealt = 1 if enhc else 2
    drawn = len(dealer_cards) - dealt
    wanted_draws = plan.dealer[1:] if not enhc else plan.dealer
    if drawn > 0 and wanted_draws:
        start = played.cards_used - drawn
        for k, wanted in enumerate(wanted_draws):
            _need(stack.pin(start + k, wanted, after=start))
    played = rules.play(document(None))
    used = played.cards_used
    stack.shoe = stack.shoe[:used]
    cut = rng.randint(max(0, used - 4), used - 1) if plan.cut_card else None
    final = document(cut)
    rules.play(final)
    return final


# Cash a player puts down to buy in, and the piles a leaving player pushes in.
_CASH = tuple(Decimal(x) for x in ("20", "40", "50", "60", "80", "100", "200", "300", "500"))
_SMALL = (Decimal(5), Decimal(1), Decimal("2.50"))


def _chip_work(
    skill: str, profile: rules.Profile, rng: random.Random, target: dict[str, Any]
) -> dict[str, Any] | None:
    """The `chips` section of a chip skill's round (None for the other skills): the target
    box's first player is paid in chips, colours up a pile of small chips, or buys in."""
    seat = {"box": target["box"], "player": target["stakes"][0]["player"]}
    if skill == "pay-in-chips":
        return {"pay": [seat]}
    if skill == "change":
        largest = profile.change_chip
        cash = rng.choice([c for c in _CASH if c > largest] or list(_CASH))
        return {"change": [{**seat, "cash": _text(cash)}]}
    if skill == "colour-up":
        small = [chip for chip in _SMALL if chip in profile.chip_set] or [min(profile.chip_set)]
        # Enough small chips that a larger chip (a green, most often) replaces some.
        while True:
            pile = [rng.choice(small) for _ in range(rng.randint(6, 24))]
            worth = sum(pile, Decimal(0))
            fewest = fewest_chips(worth, profile.chip_set)
            if len(fewest) < len(pile):
                break
        return {
            "colour_up": [{**seat, "pile": [_text(chip) for chip in sorted(pile, reverse=True)]}]
        }
    return None


def generate_rounds(
    *,
    rng: random.Random,
    profile: rules.Profile,
    rounds: Sequence[Sequence[str]],
    min_stake: Decimal | None,
    max_stake: Decimal | None,
    max_boxes: int,
    round_prefix: str,
) -> list[dict[str, Any]]:
    """A round for each entry of ``rounds`` (the skills it is dealt for), in order; the
    stakes between ``min_stake`` and ``max_stake`` (by default the table's minimum, and its
    maximum or twenty minimums, whichever is less)."""
    low = min_stake if min_stake is not None else profile.min_bet
    high = max_stake if max_stake is not None else min(profile.max_bet, profile.min_bet * 20)
    return [
        generate_round(
            rng=rng,
            profile=profile,
            skills=skills,
            min_stake=low,
            max_stake=high,
            max_boxes=max_boxes,
            round_id=f"{round_prefix}-round-{n}",
        )
        for n, skills in enumerate(rounds, start=1)
    ]
