"""Parsing and static validation of a `blackjack-scenario/1` document.

Everything that can be checked without dealing a card is checked here, so a scenario that
fails is rejected before anything is played. The checks that depend on the cards (an
illegal action, insurance not offered, the shoe running out) are made by the round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeGuard

from .cards import CANONICAL
from .chipwork import ChipSpec, parse_chips
from .errors import ScenarioError, clipped, json_type_name, quoted
from .money import ZERO, parse_amount, quick_amount
from .profiles import Profile, profile_from_rules

FORMAT = "blackjack-scenario/1"
_TOP_FIELDS = frozenset(
    ("format", "id", "title", "skills", "rules", "boxes", "burn", "shoe", "cut_card_at", "chips")
)
_BOX_FIELDS = frozenset(("box", "stakes", "insurance", "even_money", "actions"))
_STAKE_FIELDS = frozenset(("player", "amount"))
ACTIONS = ("hit", "stand", "double", "split", "surrender")
# No real round needs more; the limit keeps a hostile document from costing much.
_MAX_LIST = 10_000

Action = tuple[str, Decimal | None]
_canonical = CANONICAL.__getitem__
# The plain actions' parsed form (a double's amount is parsed, from a cache, by parse_amount).
_PLAIN_ACTIONS: dict[str, Action] = {kind: (kind, None) for kind in ACTIONS}


@dataclass(slots=True)
class BoxSpec:
    """One occupied box as scripted: its players' stakes, side bets and the host's actions."""

    number: int
    index: int
    stakes: tuple[tuple[str, Decimal], ...]
    stake_of: dict[str, Decimal]
    insurance: dict[str, Decimal]
    even_money: tuple[str, ...]
    actions: list[Action]


@dataclass(slots=True)
class Scenario:
    """A validated scenario: the profile resolved, cards canonical, boxes in play order."""

    doc: Mapping[str, Any]
    profile: Profile
    boxes: tuple[BoxSpec, ...]
    burn: tuple[str, ...]
    shoe: list[str]
    cut_card_at: int | None
    # The chip work the document opts into; None for a document without a chips section.
    chips: ChipSpec | None = None


def _wrong_type(field: str, wanted: str, value: object, box: int | None = None) -> ScenarioError:
    message = f"{field} must be {wanted}, not {json_type_name(value)}"
    return ScenarioError(field, "wrong_type", message, box)


def _is_list(value: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return type(value) is list or isinstance(value, list | tuple)


def _is_map(value: object) -> TypeGuard[Mapping[Any, Any]]:
    # The type check first: JSON gives dicts, and an ABC isinstance costs ten times more.
    return type(value) is dict or isinstance(value, Mapping)


def _list(value: object, field: str, box: int | None = None) -> Sequence[Any]:
    if not _is_list(value):
        raise _wrong_type(field, "a list", value, box)
    if len(value) > _MAX_LIST:
        raise ScenarioError(field, "too_long", f"{field} has more than {_MAX_LIST} entries", box)
    return value


def _name(value: object, field: str, box: int | None) -> str:
    if not isinstance(value, str):
        raise _wrong_type(field, "a player name (a string)", value, box)
    if not value or len(value) > 100:
        raise ScenarioError(field, "bad_player", f"{field} must be 1 to 100 characters", box)
    return value


def parse_cards(value: object, field: str) -> list[str]:
    """Canonical cards from a list of spellings; names the first bad one."""
    cards = _list(value, field)
    try:
        return list(map(_canonical, cards))
    except (KeyError, TypeError):
        pass
    for i, card in enumerate(cards):
        if not isinstance(card, str) or card not in CANONICAL:
            shown = repr(card) if isinstance(card, str) and len(card) < 20 else json_type_name(card)
            message = (
                f"{field}[{i}] is not a card: {shown}; cards are a rank A 2-9 T J Q K "
                '(or 10) and a suit s h d c, like "Ah" or "10d"'
            )
            raise ScenarioError(f"{field}[{i}]", "bad_card", message)
    raise AssertionError("unreachable")  # pragma: no cover


def parse_action(value: object, field: str, box: int) -> Action:
    """An action string as (kind, amount); the amount only for "double:AMOUNT"."""
    if type(value) is str:
        if value in _PLAIN_ACTIONS:
            return _PLAIN_ACTIONS[value]
        if value.startswith("double:"):
            return ("double", parse_amount(value[7:], field, box))
    if not isinstance(value, str):
        raise _wrong_type(field, "an action string", value, box)
    message = f"unknown action {quoted(value)}; actions are {', '.join(ACTIONS)} or double:AMOUNT"
    raise ScenarioError(field, "unknown_action", message, box)


def parse(doc: object) -> Scenario:
    """Validate a scenario document and resolve it; raises ScenarioError on the first fault."""
    if not _is_map(doc):
        message = f"a scenario must be a JSON object, not {json_type_name(doc)}"
        raise ScenarioError("", "not_an_object", message)
    if not doc.keys() <= _TOP_FIELDS:
        key = str(next(k for k in doc if k not in _TOP_FIELDS))
        message = f"unknown field {quoted(key)} in the scenario"
        raise ScenarioError(clipped(key), "unknown_field", message)
    fmt = doc.get("format")
    if fmt != FORMAT:
        message = f"format must be {FORMAT!r}, not {quoted(fmt)}"
        raise ScenarioError("format", "bad_format" if "format" in doc else "missing_field", message)
    _check_metadata(doc)
    if "rules" not in doc:
        raise ScenarioError("rules", "missing_field", "rules is missing")
    profile = profile_from_rules(doc["rules"])
    if "boxes" not in doc:
        raise ScenarioError("boxes", "missing_field", "boxes is missing")
    boxes = _parse_boxes(doc["boxes"], profile)
    burn: list[str] = []
    if doc.get("burn") is not None:
        burn = parse_cards(doc["burn"], "burn")
        if len(burn) != profile.burn:
            message = f"burn has {len(burn)} cards; {profile.name} burns {profile.burn}"
            raise ScenarioError("burn", "bad_burn", message)
    if "shoe" not in doc:
        raise ScenarioError("shoe", "missing_field", "shoe is missing")
    shoe = parse_cards(doc["shoe"], "shoe")
    _check_deck_count(burn, shoe, profile)
    cut = doc.get("cut_card_at")
    if cut is not None and (type(cut) is not int or cut < 0):
        raise _wrong_type("cut_card_at", "a whole number of 0 or more", cut)
    chips = None
    if "chips" in doc:
        chips = parse_chips(doc["chips"], profile, {box.number: box.stake_of for box in boxes})
    return Scenario(doc, profile, boxes, tuple(burn), shoe, cut, chips)


def _check_metadata(doc: Mapping[str, Any]) -> None:
    ident = doc.get("id")
    if ident is not None and (type(ident) not in (str, int) or len(str(ident)) > 200):
        raise _wrong_type("id", "a string of at most 200 characters", ident)
    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        raise _wrong_type("title", "a string", title)
    skills = doc.get("skills")
    if skills is not None:
        for i, skill in enumerate(_list(skills, "skills")):
            if not isinstance(skill, str):
                raise _wrong_type(f"skills[{i}]", "a string", skill)


def _check_deck_count(burn: list[str], shoe: list[str], profile: Profile) -> None:
    counts = Counter(shoe)
    if burn:
        counts.update(burn)
    if max(counts.values(), default=0) <= profile.decks:
        return
    # Name the card that is one too many, where it first goes over.
    seen: Counter[str] = Counter()
    for field, cards in (("burn", burn), ("shoe", shoe)):
        for i, card in enumerate(cards):
            seen[card] += 1
            if seen[card] > profile.decks:
                message = (
                    f"{field}[{i}] is {card} number {seen[card]}, but {profile.name}'s "
                    f"{profile.decks} deck(s) hold only {profile.decks}"
                )
                raise ScenarioError(f"{field}[{i}]", "too_many_cards", message)


def _parse_boxes(value: object, profile: Profile) -> tuple[BoxSpec, ...]:
    items = _list(value, "boxes")
    if not items:
        raise ScenarioError("boxes", "no_boxes", "boxes is empty; at least one box must play")
    boxes: dict[int, BoxSpec] = {}
    for i, item in enumerate(items):
        spec = _parse_box(item, i, profile)
        if spec.number in boxes:
            message = "appears twice in boxes"
            raise ScenarioError(f"boxes[{i}].box", "duplicate_box", message, spec.number)
        boxes[spec.number] = spec
    return tuple(boxes[n] for n in sorted(boxes))


def _parse_box(item: object, i: int, profile: Profile) -> BoxSpec:
    if not _is_map(item):
        raise _wrong_type(f"boxes[{i}]", "an object", item)
    number = item.get("box")
    if type(number) is not int:
        if "box" not in item:
            raise ScenarioError(f"boxes[{i}].box", "missing_field", f"boxes[{i}].box is missing")
        raise _wrong_type(f"boxes[{i}].box", "a box number", number)
    if not 1 <= number <= profile.boxes:
        message = (
            f"box {number} is not on the layout; {profile.name} has boxes 1 to {profile.boxes}"
        )
        raise ScenarioError(f"boxes[{i}].box", "box_out_of_range", message)
    if not item.keys() <= _BOX_FIELDS:
        key = str(next(k for k in item if k not in _BOX_FIELDS))
        message = f"unknown field {quoted(key)} in boxes[{i}]"
        raise ScenarioError(f"boxes[{i}].{clipped(key)}", "unknown_field", message, number)
    stakes = _parse_stakes(item.get("stakes"), i, number, profile)
    insurance = item.get("insurance")
    insured = _parse_insurance(insurance, i, number, stakes) if insurance is not None else {}
    even_money = item.get("even_money")
    taken = (
        _parse_even_money(even_money, i, number, stakes, insured) if even_money is not None else ()
    )
    actions = item.get("actions", ())
    try:
        parsed = list(map(_PLAIN_ACTIONS.__getitem__, actions))
    except (KeyError, TypeError):
        # Something new or wrong: parse one by one, which names the faulty entry.
        field = f"boxes[{i}].actions"
        parsed = [
            parse_action(a, f"{field}[{j}]", number)
            for j, a in enumerate(_list(actions, field, number))
        ]
    return BoxSpec(number, i, tuple(stakes.items()), stakes, insured, taken, parsed)


def _parse_stakes(value: object, i: int, box: int, profile: Profile) -> dict[str, Decimal]:
    if type(value) is list:
        items: Sequence[Any] = value
    else:
        if value is None:
            message = f"boxes[{i}].stakes is missing"
            raise ScenarioError(f"boxes[{i}].stakes", "missing_field", message, box)
        items = _list(value, f"boxes[{i}].stakes", box)
    if not items:
        message = "stakes is empty; a box needs at least one player"
        raise ScenarioError(f"boxes[{i}].stakes", "no_stakes", message, box)
    stakes: dict[str, Decimal] = {}
    total = ZERO
    min_bet = profile.min_bet
    for j, stake in enumerate(items):
        if type(stake) is dict:
            player = stake.get("player")
            amount = quick_amount(stake.get("amount"))
        else:
            player = amount = None
        if (
            amount is None
            or not isinstance(player, str)
            or player in stakes
            or not 0 < len(player) <= 100
            or not stake.keys() <= _STAKE_FIELDS
        ):
            _stake_error(stake, f"boxes[{i}].stakes[{j}]", box, stakes)
            raise AssertionError("unreachable")  # pragma: no cover
        if amount < min_bet:
            path = f"boxes[{i}]"
            message = (
                f"{player}'s stake {amount} is below the minimum {profile.min_bet} "
                f"of {profile.name}"
            )
            raise ScenarioError(f"{path}.stakes[{j}].amount", "stake_below_min", message, box)
        stakes[player] = amount
        total += amount
    if total > profile.max_bet:
        path = f"boxes[{i}]"
        message = (
            f"the box's stakes total {total}, over the box maximum {profile.max_bet} "
            f"of {profile.name}"
        )
        raise ScenarioError(f"{path}.stakes", "stake_over_max", message, box)
    return stakes


def _stake_error(stake: object, field: str, box: int, stakes: dict[str, Decimal]) -> None:
    """Raise the error that says what is wrong with one stake entry."""
    if not _is_map(stake):
        raise _wrong_type(field, "an object with player and amount", stake, box)
    for key in stake:
        if key not in _STAKE_FIELDS:
            message = f"unknown field {quoted(str(key))} in {field}"
            raise ScenarioError(f"{field}.{clipped(str(key))}", "unknown_field", message, box)
    player = _name(stake.get("player"), f"{field}.player", box)
    if player in stakes:
        message = f"player {quoted(player)} has two stakes on this box"
        raise ScenarioError(f"{field}.player", "duplicate_player", message, box)
    if "amount" not in stake:
        raise ScenarioError(f"{field}.amount", "missing_field", f"{field}.amount is missing", box)
    parse_amount(stake["amount"], f"{field}.amount", box)


def _parse_insurance(
    value: object, i: int, box: int, players: dict[str, Decimal]
) -> dict[str, Decimal]:
    path = f"boxes[{i}]"
    if not _is_map(value):
        raise _wrong_type(f"{path}.insurance", "an object of player to amount", value, box)
    insurance: dict[str, Decimal] = {}
    for player, text in value.items():
        field = f"{path}.insurance.{clipped(str(player))}"
        stake = players.get(player) if isinstance(player, str) else None
        if stake is None:
            message = f"insurance for {quoted(str(player))}, who has no stake on this box"
            raise ScenarioError(field, "not_on_box", message, box)
        amount = parse_amount(text, field, box)
        if amount * 2 > stake:
            message = f"{player}'s insurance {amount} is more than half the stake {stake}"
            raise ScenarioError(field, "insurance_over_half", message, box)
        insurance[player] = amount
    return insurance


def _parse_even_money(
    value: object, i: int, box: int, players: dict[str, Decimal], insurance: dict[str, Decimal]
) -> tuple[str, ...]:
    path = f"boxes[{i}]"
    taken: list[str] = []
    for j, player in enumerate(_list(value, f"{path}.even_money", box)):
        field = f"{path}.even_money[{j}]"
        if not isinstance(player, str) or player not in players:
            message = f"even money for {quoted(player)}, who has no stake on this box"
            raise ScenarioError(field, "not_on_box", message, box)
        if player in taken:
            raise ScenarioError(
                field, "duplicate_player", f"{quoted(player)} is listed twice in even_money", box
            )
        if player in insurance:
            # Even money is the insurance of a natural; both at once would insure it twice.
            message = f"{player} cannot take both even money and insurance"
            raise ScenarioError(field, "even_money_and_insurance", message, box)
        taken.append(player)
    return tuple(taken)
