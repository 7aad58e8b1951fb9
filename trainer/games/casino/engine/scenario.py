"""`casino-scenario/1`: a staged Casino situation, validated with a reason at a path.

The format is docs/casino-format.md (schema: docs/schemas/casino-scenario-1.schema.json).
`read` turns a document into a `Scenario` (the engine's state, the profile, the questions)
or raises CasinoScenarioError naming the path and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import CardError, is_court, parse_card, value_of
from .errors import CasinoScenarioError, clipped
from .groups import splits_into
from .profiles import Profile, ProfileError, profile_from
from .rulings import SituationError, rule_on
from .state import DEALS, HAND_SIZE, State
from .table import PLAYERS, Build, Item, Play, Player, build_key

FORMAT = "casino-scenario/1"
FIELDS = (
    "format",
    "id",
    "title",
    "skills",
    "rules",
    "deal",
    "turn",
    "table",
    "hands",
    "taken",
    "sweeps",
    "last_capturer",
    "questions",
)
REQUIRED = ("format", "rules", "deal", "turn", "table", "hands", "questions")
QUESTION_KINDS = ("is_legal", "may_take", "legal_plays", "score_hand", "rule_on")
MAX_ANNOUNCED = 99


@dataclass(frozen=True)
class Question:
    """One question: its kind and what it names (a play, a card or a situation)."""

    kind: str
    play: Play | None = None
    card: str | None = None
    situation: Mapping[str, object] | None = None


@dataclass(frozen=True)
class Scenario:
    document: Mapping[str, Any]
    profile: Profile
    state: State
    questions: tuple[Question, ...]


def fail(path: str, reason: str, message: str) -> CasinoScenarioError:
    return CasinoScenarioError(path, reason, message)


def _card(value: object, path: str) -> str:
    try:
        return parse_card(value)
    except CardError as err:
        raise fail(path, "bad_card", str(err)) from None


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail(path, "bad_type", "must be a list")
    return value


def _player(value: object, path: str) -> Player:
    if value == "dealer":
        return "dealer"
    if value == "non_dealer":
        return "non_dealer"
    raise fail(path, "bad_player", "must be dealer or non_dealer")


def _int(value: object, path: str, low: int, high: int, reason: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail(path, reason, f"must be a whole number from {low} to {high}")
    return value


class _Cards:
    """Every card the document places, so none is placed twice."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def place(self, value: object, path: str) -> str:
        card = _card(value, path)
        if card in self.seen:
            raise fail(path, "duplicate_card", f"{card} is already placed elsewhere")
        self.seen.add(card)
        return card


def read(document: object) -> Scenario:
    """The scenario a document stages; CasinoScenarioError at the first thing wrong."""
    if not isinstance(document, dict):
        raise fail("", "not_object", "a scenario is a JSON object")
    for name in document:
        if name not in FIELDS:
            raise fail(clipped(str(name)), "unknown_field", "not a field of casino-scenario/1")
    for name in REQUIRED:
        if name not in document:
            raise fail(name, "missing", "is required")
    if document["format"] != FORMAT:
        raise fail("format", "bad_format", f"must be {FORMAT!r}")
    _meta(document)
    try:
        profile = profile_from(document["rules"])
    except ProfileError as err:
        path = f"rules.{err.field}" if err.field else "rules"
        raise fail(path, "bad_rules", str(err)) from None
    deal = _int(document["deal"], "deal", 1, DEALS, "bad_deal")
    turn = _player(document["turn"], "turn")
    cards = _Cards()
    hands = _piles(document["hands"], "hands", cards, required=True)
    table = tuple(
        _item(raw, f"table[{i}]", cards) for i, raw in enumerate(_list(document["table"], "table"))
    )
    taken = _piles(document.get("taken", {}), "taken", cards, required=False)
    state = State(
        hands=hands,
        table=table,
        taken=taken,
        turn=turn,
        deal=deal,
        last_capturer=_last_capturer(document),
        sweeps=_sweeps(document.get("sweeps", {})),
    )
    _consistent(state, cards)
    questions = _questions(document["questions"], state)
    return Scenario(document, profile, state, questions)


def _meta(document: Mapping[str, Any]) -> None:
    for name in ("id", "title"):
        if name in document and not isinstance(document[name], str):
            raise fail(name, "bad_type", "must be a string")
    if "skills" in document:
        for i, skill in enumerate(_list(document["skills"], "skills")):
            if not isinstance(skill, str):
                raise fail(f"skills[{i}]", "bad_type", "must be a string")


def _piles(
    raw: object, path: str, cards: _Cards, *, required: bool
) -> dict[Player, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise fail(path, "bad_type", "must be an object with dealer and non_dealer")
    for name in raw:
        if name not in PLAYERS:
            raise fail(f"{path}.{clipped(str(name))}", "bad_player", "must be dealer or non_dealer")
    out: dict[Player, tuple[str, ...]] = {}
    for who in PLAYERS:
        if who not in raw and required:
            raise fail(f"{path}.{who}", "missing", "is required")
        pile = _list(raw.get(who, []), f"{path}.{who}")
        if path == "hands" and len(pile) > HAND_SIZE:
            raise fail(f"{path}.{who}", "bad_hand", f"a hand holds at most {HAND_SIZE} cards")
        out[who] = tuple(cards.place(card, f"{path}.{who}[{i}]") for i, card in enumerate(pile))
    return out


def _item(raw: object, path: str, cards: _Cards) -> Item:
    if isinstance(raw, str):
        return cards.place(raw, path)
    if not isinstance(raw, dict):
        raise fail(path, "bad_item", "a table item is a card or a build object")
    for name in raw:
        if name not in ("build", "value", "kind", "owner"):
            raise fail(f"{path}.{clipped(str(name))}", "unknown_field", "not a field of a build")
    for name in ("build", "value", "kind", "owner"):
        if name not in raw:
            raise fail(f"{path}.{name}", "missing", "is required")
    built = tuple(
        cards.place(card, f"{path}.build[{i}]")
        for i, card in enumerate(_list(raw["build"], f"{path}.build"))
    )
    value = _int(raw["value"], f"{path}.value", 1, 10, "bad_value")
    if raw["kind"] not in ("single", "multiple"):
        raise fail(f"{path}.kind", "bad_kind", "must be single or multiple")
    owner = _player(raw["owner"], f"{path}.owner")
    if len(built) < 2:
        raise fail(f"{path}.build", "bad_build", "a build holds at least two cards")
    if any(is_court(card) for card in built):
        raise fail(f"{path}.build", "bad_build", "a court card never enters a build")
    values = [value_of(card) or 0 for card in built]
    multiple = raw["kind"] == "multiple"
    if (sum(values) == value) == multiple or not splits_into(values, value):
        how = "split into two or more groups each worth" if multiple else "add up to"
        raise fail(
            f"{path}.build",
            "bad_build",
            f"the cards of a {raw['kind']} build {how} its value {value}",
        )
    return Build(built, value, multiple, owner)


def _last_capturer(document: Mapping[str, Any]) -> Player | None:
    raw = document.get("last_capturer")
    return None if raw is None else _player(raw, "last_capturer")


def _sweeps(raw: object) -> dict[Player, int]:
    if not isinstance(raw, dict):
        raise fail("sweeps", "bad_type", "must be an object with dealer and non_dealer")
    for name in raw:
        if name not in PLAYERS:
            raise fail(f"sweeps.{clipped(str(name))}", "bad_player", "must be dealer or non_dealer")
    return {who: _int(raw.get(who, 0), f"sweeps.{who}", 0, 26, "bad_sweeps") for who in PLAYERS}


def _consistent(state: State, cards: _Cards) -> None:
    """What the deal and the turn allow: hand sizes, cards still to deal, builds' owners."""
    first, second = (len(state.hands[who]) for who in PLAYERS)
    expected_second = first if state.turn == "non_dealer" else first + 1
    if (first or second) and second != expected_second:
        raise fail(
            "hands",
            "bad_hand",
            "the non-dealer leads: on the non-dealer's turn the hands are "
            "the same size, on the dealer's the dealer holds one card more",
        )
    undealt = 8 * (DEALS - state.deal)
    if len(cards.seen) > 52 - undealt:
        raise fail(
            "taken",
            "too_many_cards",
            f"{len(cards.seen)} cards placed, but deal {state.deal} "
            f"leaves {undealt} of the 52 still to deal",
        )
    for i, item in enumerate(state.table):
        if isinstance(item, Build):
            values = {value_of(card) for card in state.hands[item.owner]}
            if item.value not in values:
                raise fail(
                    f"table[{i}].owner",
                    "owner_cannot_take",
                    f"the owner holds no card of the build's value {item.value}",
                )


def _questions(raw: object, state: State) -> tuple[Question, ...]:
    items = _list(raw, "questions")
    if not items:
        raise fail("questions", "missing", "ask at least one question")
    return tuple(_question(item, f"questions[{i}]", state) for i, item in enumerate(items))


def _question(raw: object, path: str, state: State) -> Question:
    if not isinstance(raw, dict):
        raise fail(path, "bad_question", "a question is an object with a kind")
    kind = raw.get("kind")
    if kind not in QUESTION_KINDS:
        raise fail(f"{path}.kind", "bad_question", "must be one of " + ", ".join(QUESTION_KINDS))
    allowed = {
        "is_legal": "play",
        "may_take": "card",
        "legal_plays": "card",
        "rule_on": "situation",
    }
    for name in raw:
        if name != "kind" and name != allowed.get(kind):
            raise fail(
                f"{path}.{clipped(str(name))}", "unknown_field", f"not a field of a {kind} question"
            )
    if kind in allowed and allowed[kind] not in raw:
        raise fail(f"{path}.{allowed[kind]}", "missing", "is required")
    if kind == "is_legal":
        return Question(kind, play=read_play(raw["play"], f"{path}.play"))
    if kind in ("may_take", "legal_plays"):
        card = _card(raw["card"], f"{path}.card")
        if card not in state.hands[state.turn]:
            raise fail(
                f"{path}.card", "not_in_hand", f"{card} is not in the hand of the player to play"
            )
        return Question(kind, card=card)
    if kind == "rule_on":
        situation = raw["situation"]
        if not isinstance(situation, dict):
            raise fail(f"{path}.situation", "bad_situation", "must be an object with a kind")
        try:
            rule_on(situation)
        except SituationError as err:
            raise fail(f"{path}.situation.{err.field}", "bad_situation", str(err)) from None
        return Question(kind, situation=situation)
    _hand_over(state)
    return Question(kind)


def _hand_over(state: State) -> None:
    if any(state.hands.values()) or state.deal != DEALS:
        raise fail(
            "hands", "hand_not_over", "score the hand only when the sixth deal is played out"
        )
    if any(isinstance(item, Build) for item in state.table):
        raise fail("table", "hand_not_over", "a build left on the table: the hand is not over")
    placed = len(state.table_cards()) + sum(len(state.taken[who]) for who in PLAYERS)
    if placed != 52:
        raise fail(
            "taken", "cards_missing", f"{placed} cards placed; a finished hand accounts for 52"
        )
    if state.table and state.last_capturer is None:
        raise fail(
            "last_capturer", "missing", "cards left on the table go to the last capturer: name them"
        )


def read_play(raw: object, path: str) -> Play:
    """A play as the format writes it: {"card", "take": [...]}, {"card", "build": N, "on",
    "with": [...]} or {"card", "trail": true}. Items are cards or builds ("6s+3h")."""
    if not isinstance(raw, dict):
        raise fail(path, "bad_play", "a play is an object with a card")
    card = _card(raw.get("card"), f"{path}.card")
    kinds = [name for name in ("take", "build", "trail") if name in raw]
    if len(kinds) != 1:
        raise fail(path, "bad_play", "a play is exactly one of take, build or trail")
    allowed = {
        "take": {"card", "take"},
        "build": {"card", "build", "on", "with"},
        "trail": {"card", "trail"},
    }
    for name in raw:
        if name not in allowed[kinds[0]]:
            raise fail(
                f"{path}.{clipped(str(name))}", "unknown_field", f"not a field of a {kinds[0]}"
            )
    if kinds[0] == "trail":
        if raw["trail"] is not True:
            raise fail(f"{path}.trail", "bad_play", "must be true")
        return Play(card, "trail")
    if kinds[0] == "take":
        items = _names(raw["take"], f"{path}.take")
        return Play(card, "take", items).canonical()
    value = _int(raw["build"], f"{path}.build", 1, MAX_ANNOUNCED, "bad_value")
    target = None
    if raw.get("on") is not None:
        on = raw["on"]
        target = _name(on, f"{path}.on")
    items = _names(raw.get("with", []), f"{path}.with")
    return Play(card, "build", items, target, value).canonical()


def _names(raw: object, path: str) -> tuple[str, ...]:
    return tuple(_name(item, f"{path}[{i}]") for i, item in enumerate(_list(raw, path)))


def _name(raw: object, path: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise fail(
            path, "bad_item", 'an item is a card ("7h") or a build\'s cards joined by + ("6s+3h")'
        )
    return build_key(_card(part, path) for part in raw.split("+"))
