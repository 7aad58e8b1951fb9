"""House rule profiles: the six shipped ones (profiles.json), overrides and custom profiles."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

from .chips import chip_text
from .errors import ScenarioError, clipped, json_type_name, quoted
from .money import MAX_AMOUNT

HoleCard = Literal["peek", "enhc"]
BlackjackPays = Literal["3:2", "6:5", "1:1"]
DoubleOn = Literal["any", "9-11", "10-11"]
Surrender = Literal["none", "late"]
SettleOrder = Literal["right-to-left"]
ChipRuleName = Literal["fewest", "match"]

_PAYS: dict[str, Decimal] = {"3:2": Decimal("1.5"), "6:5": Decimal("1.2"), "1:1": Decimal(1)}
_DOUBLE_RANGE: dict[str, tuple[int, int]] = {"any": (2, 21), "9-11": (9, 11), "10-11": (10, 11)}


@dataclass(frozen=True, slots=True)
class Profile:
    """Every parameter of a house's rules, with where they came from."""

    name: str
    source: str
    assumed: tuple[str, ...]
    decks: int
    burn: int
    penetration_cards: int
    boxes: int
    min_bet: Decimal
    max_bet: Decimal
    payout_unit: Decimal
    dealer_hits_soft_17: bool
    hole_card: HoleCard
    blackjack_pays: BlackjackPays
    insurance: bool
    even_money: bool
    double_on: DoubleOn
    double_after_split: bool
    double_for_less: bool
    split_unlike_tens: bool
    max_split_hands: int | None
    resplit_aces: bool
    hit_split_aces: bool
    surrender: Surrender
    bonus_777: Decimal | None
    settle_order: SettleOrder
    # The table's chips (denominations, smallest first), how it pays in them, and the
    # largest chip it gives for cash: optional in stored data (see CHIP_PARAMETERS).
    chip_set: tuple[Decimal, ...]
    chip_rule: ChipRuleName
    change_chip: Decimal
    # Derived once here so the round loop does not look them up in tables.
    blackjack_ratio: Decimal = field(init=False, repr=False, compare=False)
    double_min: int = field(init=False, repr=False, compare=False)
    double_max: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "blackjack_ratio", _PAYS[self.blackjack_pays])
        low, high = _DOUBLE_RANGE[self.double_on]
        object.__setattr__(self, "double_min", low)
        object.__setattr__(self, "double_max", high)


Validator = Callable[[object, str], object]


def _bad(path: str, message: str) -> ScenarioError:
    return ScenarioError(path, "bad_rule_value", f"{path}: {message}")


def _int(low: int, high: int) -> Validator:
    def check(value: object, path: str) -> object:
        if type(value) is not int:
            raise _bad(
                path, f"must be a whole number from {low} to {high}, not {json_type_name(value)}"
            )
        if not low <= value <= high:
            raise _bad(path, f"must be from {low} to {high}, not {value}")
        return value

    return check


def _optional_int(low: int, high: int) -> Validator:
    inner = _int(low, high)

    def check(value: object, path: str) -> object:
        return None if value is None else inner(value, path)

    return check


def _bool(value: object, path: str) -> object:
    if type(value) is not bool:
        raise _bad(path, f"must be true or false, not {json_type_name(value)}")
    return value


def _choice(*choices: str) -> Validator:
    def check(value: object, path: str) -> object:
        if type(value) is not str or value not in choices:
            shown = repr(value) if isinstance(value, str) else json_type_name(value)
            raise _bad(path, f"must be one of {', '.join(choices)}, not {shown}")
        return value

    return check


def _decimal(value: object, path: str) -> object:
    """A positive decimal with at most 2 places, from a string (or an int or Decimal)."""
    if isinstance(value, str):
        try:
            number = Decimal(value) if len(value) <= 20 else Decimal("NaN")
        except InvalidOperation:
            number = Decimal("NaN")
    elif type(value) is int or isinstance(value, Decimal):
        number = Decimal(value)
    else:
        raise _bad(path, f'must be a decimal string like "0.50", not {json_type_name(value)}')
    if not number.is_finite() or number.as_tuple().exponent < -2:  # type: ignore[operator]
        raise _bad(path, f"must be a decimal with at most 2 decimals, not {quoted(value)}")
    if not 0 < number < MAX_AMOUNT:
        raise _bad(path, f"must be more than 0 and less than {MAX_AMOUNT:,}, not {quoted(value)}")
    return number


def _optional_decimal(value: object, path: str) -> object:
    return None if value is None else _decimal(value, path)


def _chip_set(value: object, path: str) -> object:
    """A table's chips: a list of 1 to 12 different denominations, kept smallest first."""
    if type(value) is not list and not isinstance(value, tuple):
        raise _bad(
            path,
            f'must be a list of chip values like ["1", "5", "25"], not {json_type_name(value)}',
        )
    if not 1 <= len(value) <= 12:
        raise _bad(path, f"must hold 1 to 12 chip values, not {len(value)}")
    chips: list[Decimal] = []
    for i, item in enumerate(value):
        chip = cast("Decimal", _decimal(item, f"{path}[{i}]"))
        if chip in chips:
            raise _bad(f"{path}[{i}]", f"holds the chip {chip_text(chip)} twice")
        chips.append(chip)
    return tuple(sorted(chips))


# The parameters of rule-profiles.md, in its order, with what each accepts.
PARAMETERS: Mapping[str, Validator] = MappingProxyType(
    {
        "decks": _int(1, 8),
        "burn": _int(0, 5),
        "penetration_cards": _int(0, 8 * 52),
        "boxes": _int(1, 7),
        "min_bet": _decimal,
        "max_bet": _decimal,
        "payout_unit": _decimal,
        "dealer_hits_soft_17": _bool,
        "hole_card": _choice("peek", "enhc"),
        "blackjack_pays": _choice("3:2", "6:5", "1:1"),
        "insurance": _bool,
        "even_money": _bool,
        "double_on": _choice("any", "9-11", "10-11"),
        "double_after_split": _bool,
        "double_for_less": _bool,
        "split_unlike_tens": _bool,
        "max_split_hands": _optional_int(1, 52),
        "resplit_aces": _bool,
        "hit_split_aces": _bool,
        "surrender": _choice("none", "late"),
        "bonus_777": _optional_decimal,
        "settle_order": _choice("right-to-left"),
        "chip_set": _chip_set,
        "chip_rule": _choice("fewest", "match"),
        "change_chip": _decimal,
    }
)
# Parameters a stored profile may lack (recorded before chips were rules): a shipped
# profile's name takes its shipped values; any other profile those of casino-shoe, the
# base a custom profile is written against (generator.rules_value), so that a version
# recorded before chips plays every old document under the same rules, to the letter of
# its profile name (docs/scenario-format.md).
CHIP_PARAMETERS: tuple[str, ...] = ("chip_set", "chip_rule", "change_chip")
CUSTOM_CHIPS_FROM = "casino-shoe"


def _check_together(profile: Profile, path: str) -> Profile:
    """Checks that involve two parameters."""
    if profile.min_bet > profile.max_bet:
        message = f"{path}min_bet {profile.min_bet} is above max_bet {profile.max_bet}"
        raise ScenarioError(path + "min_bet", "bad_rule_value", message)
    if profile.change_chip not in profile.chip_set:
        shown = ", ".join(chip_text(c) for c in profile.chip_set)
        message = (
            f"{path}change_chip {chip_text(profile.change_chip)} is not one of the table's "
            f"chips ({shown})"
        )
        raise ScenarioError(path + "change_chip", "bad_rule_value", message)
    return profile


def profile_from_dict(data: Mapping[str, Any], path: str = "profile") -> Profile:
    """A profile from a full parameter dict (name, source, assumed and every parameter)."""
    if not isinstance(data, Mapping):
        raise ScenarioError(path, "wrong_type", f"{path} must be an object")
    prefix = f"{path}." if path else ""
    unknown = [key for key in data if key not in PARAMETERS and key not in _META]
    if unknown:
        bad = str(unknown[0])
        raise ScenarioError(
            prefix + clipped(bad), "unknown_rule_parameter", f"unknown rule parameter {quoted(bad)}"
        )
    values: dict[str, Any] = {}
    for key, check in PARAMETERS.items():
        if key not in data:
            if key in CHIP_PARAMETERS:
                continue
            raise ScenarioError(prefix + key, "missing_field", f"{prefix}{key} is missing")
        values[key] = check(data[key], prefix + key)
    name = data.get("name")
    if any(key not in values for key in CHIP_PARAMETERS):
        shipped = _SHIPPED_CHIPS.get(name) if isinstance(name, str) else None
        defaults = shipped if shipped is not None else _SHIPPED_CHIPS[CUSTOM_CHIPS_FROM]
        for key in CHIP_PARAMETERS:
            values.setdefault(key, defaults[key])
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(
            prefix + "name", "bad_rule_value", f"{prefix}name must be a non-empty string"
        )
    source = data.get("source", "")
    if not isinstance(source, str):
        raise ScenarioError(prefix + "source", "bad_rule_value", f"{prefix}source must be a string")
    assumed = data.get("assumed", ())
    if not isinstance(assumed, list | tuple) or any(a not in PARAMETERS for a in assumed):
        message = f"{prefix}assumed must be a list of parameter names"
        raise ScenarioError(prefix + "assumed", "bad_rule_value", message)
    return _check_together(
        Profile(name=name, source=source, assumed=tuple(assumed), **values), prefix
    )


_META = ("name", "source", "assumed")


def profile_to_dict(profile: Profile) -> dict[str, Any]:
    """The profile as a JSON-ready dict; decimals as strings. profile_from_dict reads it back."""
    out: dict[str, Any] = {}
    for item in fields(profile):
        if not item.init:
            continue
        value = getattr(profile, item.name)
        if isinstance(value, Decimal):
            value = str(value)
        elif item.name == "chip_set":
            value = [chip_text(chip) for chip in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[item.name] = value
    return out


def _load() -> Mapping[str, Profile]:
    text = (Path(__file__).with_name("profiles.json")).read_text(encoding="utf-8")
    raw = json.loads(text)
    return MappingProxyType({name: profile_from_dict(data, name) for name, data in raw.items()})


_SHIPPED_CHIPS: dict[str, dict[str, Any]] = {}
PROFILES: Mapping[str, Profile] = _load()
# A stored version of a shipped profile without chip parameters plays with the shipped chips.
_SHIPPED_CHIPS.update(
    {
        name: {key: getattr(profile, key) for key in CHIP_PARAMETERS}
        for name, profile in PROFILES.items()
    }
)


def _unknown_profile(value: object, path: str) -> ScenarioError:
    known = ", ".join(PROFILES)
    message = f"unknown rule profile {quoted(value)}; known: {known}"
    return ScenarioError(path, "unknown_profile", message)


def profile_from_rules(rules: object, path: str = "rules") -> Profile:
    """The profile a scenario's `rules` names: a profile name or {"profile", "overrides"}."""
    if isinstance(rules, str):
        found = PROFILES.get(rules)
        if found is None:
            raise _unknown_profile(rules, path)
        return found
    if type(rules) is not dict and not isinstance(rules, Mapping):
        message = f"{path} must be a profile name or an object with profile and overrides"
        raise ScenarioError(path, "wrong_type", message)
    for field_name in rules:
        if field_name not in ("profile", "overrides"):
            extra = str(field_name)
            message = f"{path} has an unknown field {quoted(extra)}; expected profile and overrides"
            raise ScenarioError(f"{path}.{clipped(extra)}", "unknown_field", message)
    name = rules.get("profile")
    base = PROFILES.get(name) if isinstance(name, str) else None
    if base is None:
        if "profile" not in rules:
            raise ScenarioError(f"{path}.profile", "missing_field", f"{path}.profile is missing")
        raise _unknown_profile(name, f"{path}.profile")
    overrides = rules.get("overrides", {})
    if not isinstance(overrides, Mapping):
        raise ScenarioError(
            f"{path}.overrides", "wrong_type", f"{path}.overrides must be an object"
        )
    if not overrides:
        return base
    try:
        key: tuple[object, ...] = (name, *((k, type(v), v) for k, v in overrides.items()))
        hash(key)
    except TypeError:  # an unhashable value: not cacheable, and about to be rejected anyway
        return _override(base, overrides, f"{path}.overrides")
    return _overridden(key, path)


# Overridden profiles by (name, overrides); a drill replays the same few over and over.
@lru_cache(maxsize=1024)
def _overridden(key: tuple[object, ...], path: str) -> Profile:
    name, *items = key
    base = PROFILES[cast("str", name)]
    overrides = {k: v for k, _type, v in cast("list[tuple[object, type, object]]", items)}
    return _override(base, overrides, f"{path}.overrides")


def _override(base: Profile, overrides: Mapping[Any, Any], path: str) -> Profile:
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        check = PARAMETERS.get(key) if isinstance(key, str) else None
        if check is None:
            message = f"unknown rule parameter {quoted(str(key))} in {path}"
            raise ScenarioError(f"{path}.{clipped(str(key))}", "unknown_rule_parameter", message)
        changes[key] = check(value, f"{path}.{key}")
    shown = ", ".join(f"{k}={_show(v)}" for k, v in changes.items())
    assumed = tuple(a for a in base.assumed if a not in changes)
    profile = replace(base, name=f"{base.name} with {shown}", assumed=assumed, **changes)
    return _check_together(profile, path + ".")


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "/".join(chip_text(chip) for chip in value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
