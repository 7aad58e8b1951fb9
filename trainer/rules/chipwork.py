"""A scenario's chip work: its optional `chips` section, and the stacks the house rule calls for.

A document opts in with a top-level "chips" object (docs/scenario-format.md):

- "pay": "all", or a list of {"box", "player"}: whose payouts are answered in chips (every
  hand won, even money, insurance won and prize of those players);
- "bets": a list of {"box", "player", "stack"}: a bet's chips as placed, for the "match"
  rule (otherwise a bet stands in the fewest chips of its stake);
- "colour_up": a list of {"box", "player", "pile"}: a player leaving with a pile of chips;
- "change": a list of {"box", "player", "cash"}: cash put on the layout to be changed.

`parse_chips` checks what can be checked before the deal; `plan_chips` works out every
stack from the played round and refuses a payout the table's chips cannot make. A document
without the section is not touched: its settlement and answer key stay as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .chips import ChipError, ChipRule, Stack, change, chip_text, colour_up, fewest_chips, pay
from .errors import ScenarioError, clipped, json_type_name, quoted
from .money import fmt, quick_amount

if TYPE_CHECKING:
    from .profiles import Profile
    from .results import Round

_FIELDS = frozenset(("pay", "bets", "colour_up", "change"))
_MAX_CHIPS = 200
# Which payout a stack settles: (question kind, box, hand or None, player).
PayKey = tuple[str, int, int | None, str]


@dataclass(slots=True, frozen=True)
class Exchange:
    """A colour-up or a change: who, what they hand over, and what they get."""

    box: int
    player: str
    given: Stack
    amount: Decimal
    stack: Stack


@dataclass(slots=True)
class ChipSpec:
    """A parsed `chips` section."""

    pay_all: bool
    pay: frozenset[tuple[int, str]]
    bets: dict[tuple[int, str], Stack]
    colour_up: tuple[Exchange, ...]
    change: tuple[Exchange, ...]

    def pays(self, box: int, player: str) -> bool:
        return self.pay_all or (box, player) in self.pay


@dataclass(slots=True)
class ChipPlan:
    """Every stack a chip question of the round expects, in the answer key's terms."""

    spec: ChipSpec
    rule: ChipRule
    pays: dict[PayKey, Stack] = field(default_factory=dict)


def _wrong_type(path: str, wanted: str, value: object) -> ScenarioError:
    return ScenarioError(
        path, "wrong_type", f"{path} must be {wanted}, not {json_type_name(value)}"
    )


def _list(value: object, path: str) -> Sequence[Any]:
    if type(value) is not list and not isinstance(value, tuple):
        raise _wrong_type(path, "a list", value)
    if len(value) > _MAX_CHIPS:
        raise ScenarioError(path, "too_long", f"{path} has more than {_MAX_CHIPS} entries")
    return value


def _object(value: object, path: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _wrong_type(path, f"an object with {', '.join(fields)}", value)
    for key in value:
        if key not in fields:
            message = f"unknown field {quoted(str(key))} in {path}; expected {', '.join(fields)}"
            raise ScenarioError(f"{path}.{clipped(str(key))}", "unknown_field", message)
    for key in fields:
        if key not in value:
            raise ScenarioError(f"{path}.{key}", "missing_field", f"{path}.{key} is missing")
    return value


def _seat(
    entry: Mapping[str, Any], path: str, stakes: Mapping[int, Mapping[str, Decimal]]
) -> tuple[int, str]:
    box, player = entry["box"], entry["player"]
    if type(box) is not int or box not in stakes:
        shown = box if type(box) is int else json_type_name(box)
        message = f"{path}.box: box {shown} is not in play in this scenario"
        raise ScenarioError(f"{path}.box", "not_in_play", message)
    if not isinstance(player, str) or player not in stakes[box]:
        shown = quoted(player)
        message = f"{path}.player: {shown} has no stake on box {box}"
        raise ScenarioError(f"{path}.player", "not_on_box", message, box)
    return box, player


def _stack(value: object, path: str, profile: Profile) -> Stack:
    """A list of chip values, each one of the table's chips."""
    items = _list(value, path)
    if not items:
        raise ScenarioError(path, "no_chips", f"{path} is empty; it needs at least one chip")
    stack = []
    for i, item in enumerate(items):
        chip = quick_amount(item)
        if chip is None or chip not in profile.chip_set:
            shown = repr(item)[:20] if isinstance(item, str) else json_type_name(item)
            table = ", ".join(chip_text(c) for c in profile.chip_set)
            message = f"{path}[{i}] is {shown}, not one of the table's chips ({table})"
            raise ScenarioError(f"{path}[{i}]", "not_a_chip", message)
        stack.append(chip)
    return tuple(sorted(stack, reverse=True))


def parse_chips(
    value: object, profile: Profile, stakes: Mapping[int, Mapping[str, Decimal]]
) -> ChipSpec:
    """The `chips` section checked against the table; stakes are each box's players."""
    path = "chips"
    if not isinstance(value, Mapping):
        raise _wrong_type(path, "an object with pay, bets, colour_up or change", value)
    for key in value:
        if key not in _FIELDS:
            message = (
                f"unknown field {quoted(str(key))} in chips; expected pay, bets, colour_up, change"
            )
            raise ScenarioError(f"chips.{clipped(str(key))}", "unknown_field", message)
    if not value:
        message = "chips is empty; name payouts to pay in chips, a colour_up or a change"
        raise ScenarioError(path, "no_chip_work", message)
    pay_all = False
    paid: set[tuple[int, str]] = set()
    raw_pay = value.get("pay")
    if raw_pay == "all":
        pay_all = True
    elif raw_pay is not None:
        if isinstance(raw_pay, str):
            message = (
                f'chips.pay must be "all" or a list of {{"box", "player"}}, not {raw_pay[:20]!r}'
            )
            raise ScenarioError("chips.pay", "bad_chips", message)
        for i, entry in enumerate(_list(raw_pay, "chips.pay")):
            where = f"chips.pay[{i}]"
            seat = _seat(_object(entry, where, ("box", "player")), where, stakes)
            if seat in paid:
                message = f"{where} names box {seat[0]}, {seat[1]} twice"
                raise ScenarioError(where, "duplicate_player", message, seat[0])
            paid.add(seat)
    bets: dict[tuple[int, str], Stack] = {}
    for i, entry in enumerate(_list(value.get("bets", []), "chips.bets")):
        where = f"chips.bets[{i}]"
        entry = _object(entry, where, ("box", "player", "stack"))
        seat = _seat(entry, where, stakes)
        if seat in bets:
            raise ScenarioError(where, "duplicate_player", f"{where} states a bet twice", seat[0])
        stack = _stack(entry["stack"], f"{where}.stack", profile)
        stake = stakes[seat[0]][seat[1]]
        if sum(stack) != stake:
            message = (
                f"{where}.stack is worth {fmt(Decimal(sum(stack)))}, not the stake {fmt(stake)}"
            )
            raise ScenarioError(f"{where}.stack", "bad_chips", message, seat[0])
        bets[seat] = stack
    ups = []
    for i, entry in enumerate(_list(value.get("colour_up", []), "chips.colour_up")):
        where = f"chips.colour_up[{i}]"
        entry = _object(entry, where, ("box", "player", "pile"))
        box, player = _seat(entry, where, stakes)
        pile = _stack(entry["pile"], f"{where}.pile", profile)
        stack = colour_up(pile, chips=profile.chip_set)
        if len(stack) >= len(pile):
            message = f"{where}.pile is already the fewest chips of its value: nothing to colour up"
            raise ScenarioError(f"{where}.pile", "bad_chips", message, box)
        ups.append(Exchange(box, player, pile, Decimal(sum(pile)), stack))
    changes = []
    for i, entry in enumerate(_list(value.get("change", []), "chips.change")):
        where = f"chips.change[{i}]"
        entry = _object(entry, where, ("box", "player", "cash"))
        box, player = _seat(entry, where, stakes)
        cash = quick_amount(entry["cash"])
        if cash is None:
            shown = json_type_name(entry["cash"])
            message = f'{where}.cash must be a decimal string like "100", not {shown}'
            raise ScenarioError(f"{where}.cash", "bad_amount", message, box)
        try:
            stack = change(cash, largest=profile.change_chip, chips=profile.chip_set)
        except ChipError as exc:
            message = f"{where}.cash {fmt(cash)} cannot be changed at this table: {exc}"
            raise ScenarioError(f"{where}.cash", "bad_chips", message, box) from None
        changes.append(Exchange(box, player, (), cash, stack))
    return ChipSpec(pay_all, frozenset(paid), bets, tuple(ups), tuple(changes))


def _bet(
    spec: ChipSpec, profile: Profile, box: int, player: str, stake: Decimal, amount: Decimal
) -> Stack:
    """The chips a bet of `amount` stands in: the stated stack of the player's stake (twice
    for a doubled hand), else the fewest chips of the amount."""
    stated = spec.bets.get((box, player))
    if stated is not None and amount == stake:
        return stated
    if stated is not None and amount == 2 * stake:
        return stated + stated
    try:
        return fewest_chips(amount, profile.chip_set)
    except ChipError:
        return ()


def plan_chips(result: Round, spec: ChipSpec) -> ChipPlan:
    """Every payout's stack under the house's rule; refuses one the chips cannot make."""
    profile = result.profile
    rule = ChipRule(profile.chip_rule)
    plan = ChipPlan(spec, rule)
    chips = profile.chip_set

    def add(key: PayKey, amount: Decimal, bet: Stack) -> None:
        try:
            plan.pays[key] = pay(amount, rule=rule, bet=bet, chips=chips)
        except ChipError as exc:
            kind, box, hand, player = key
            where = f"hand {hand}" if hand is not None else kind.replace("_", " ")
            message = (
                f"chips.pay: box {box}, {where}: {player}'s payout {fmt(amount)} cannot be "
                f"paid in this table's chips: {exc}"
            )
            raise ScenarioError("chips.pay", "bad_chips", message, box) from None

    dealer_natural = result.dealer.blackjack
    for box in result.boxes:
        original = dict(box.stakes)
        for player in box.even_money:
            if spec.pays(box.box, player):
                stake = original[player]
                add(
                    ("even_money", box.box, 1, player),
                    stake,
                    _bet(spec, profile, box.box, player, stake, stake),
                )
        if dealer_natural:
            for player, placed in box.insurance.items():
                if spec.pays(box.box, player):
                    bet = _bet(spec, profile, box.box, player, original[player], placed)
                    add(("settle_insurance", box.box, None, player), placed * 2, bet)
        for index, hand in enumerate(box.hands, start=1):
            for player, stake in hand.stakes.items():
                if not spec.pays(box.box, player):
                    continue
                amount = hand.results[player]
                if amount > 0 and hand.outcome != "surrender":
                    bet = _bet(spec, profile, box.box, player, original[player], stake)
                    add(("settle_hand", box.box, index, player), amount, bet)
            for player, amount in hand.bonus.items():
                if spec.pays(box.box, player) and amount > 0:
                    stake = original[player]
                    add(
                        ("bonus_777", box.box, index, player),
                        amount,
                        _bet(spec, profile, box.box, player, stake, stake),
                    )
    return plan


def stack_dict(stack: Stack) -> list[str]:
    """A stack as the answer key and the settlement write it: values, largest first."""
    return [chip_text(chip) for chip in sorted(stack, reverse=True)]


def settlement_chips(plan: ChipPlan) -> dict[str, Any]:
    """The `chips` section of an opted-in document's settlement."""
    pays = [
        {
            "box": box,
            "hand": hand,
            "player": player,
            "for": kind,
            "amount": fmt(sum(stack, Decimal(0))),
            "chips": stack_dict(stack),
        }
        for (kind, box, hand, player), stack in plan.pays.items()
    ]
    return {
        "rule": str(plan.rule),
        "pay": pays,
        "colour_up": [_exchange(e, "pile") for e in plan.spec.colour_up],
        "change": [_exchange(e, None) for e in plan.spec.change],
    }


def _exchange(item: Exchange, given: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"box": item.box, "player": item.player}
    if given is not None:
        out[given] = stack_dict(item.given)
    out["amount"] = fmt(item.amount)
    out["chips"] = stack_dict(item.stack)
    return out
