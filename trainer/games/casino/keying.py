"""Keying Scarne's Casino: the engine's answer key with each question's prompt, view and rule;
a round replayed under a recorded version of its rule profile; the lines `play_scenario
--game casino` prints (the engine's `casino-answers/1` format)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from trainer.games.casino import engine, words
from trainer.games.casino.engine.errors import CasinoScenarioError
from trainer.games.casino.engine.profiles import PROFILE_NAME
from trainer.games.casino.engine.scenario import Question, Scenario
from trainer.games.casino.engine.table import PLAYERS, Build
from trainer.games.errors import DocumentError

PARAMETER_KEYS = ("sweeps", "match_goal")


def document_error(err: CasinoScenarioError) -> DocumentError:
    """The engine's error at a path as the seam's, naming the same field."""
    return DocumentError(err.message, field=err.path, reason=err.reason)


def scenario_of(document: Mapping[str, Any]) -> Scenario:
    try:
        return engine.read(dict(document) if not isinstance(document, dict) else document)
    except CasinoScenarioError as err:
        raise document_error(err) from err


def _item(item: object) -> dict[str, Any]:
    if isinstance(item, Build):
        return {
            "key": item.key,
            "kind": "multiple" if item.multiple else "single",
            "cards": list(item.cards),
            "value": item.value,
            "owner": item.owner,
        }
    card = str(item)
    value = engine.value_of(card)
    return {"key": card, "kind": "card", "cards": [card], "value": value, "owner": None}


def table_view(scenario: Scenario, question: Question) -> dict[str, Any]:
    """What the table shows at a question: the items (each with its key, cards, value and
    owner), the hand of the player to play (both hands' sizes), the taken piles' counts
    (their cards when the hand is to be scored), whose turn, which deal, the rules' sweeps,
    and what the question names (the play, the card or the situation)."""
    state = scenario.state
    view: dict[str, Any] = {
        "deal": state.deal,
        "last": state.last_announced,
        "turn": state.turn,
        "table": [_item(item) for item in state.table],
        "hands": {state.turn: list(state.hands[state.turn])},
        "held": {who: len(state.hands[who]) for who in PLAYERS},
        "taken": {who: len(state.taken[who]) for who in PLAYERS},
        "sweeps_scored": scenario.profile.sweeps,
    }
    if scenario.profile.sweeps:
        view["sweeps"] = {who: state.sweeps[who] for who in PLAYERS}
    if question.kind == "score_hand":
        view["hands"] = {who: [] for who in PLAYERS}
        view["taken_cards"] = {who: list(state.taken[who]) for who in PLAYERS}
        view["last_capturer"] = state.last_capturer
    if question.play is not None:
        view["play"] = question.play.to_dict()
    if question.card is not None:
        view["card"] = question.card
    if question.situation is not None:
        view["situation"] = dict(question.situation)
    return view


def item_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each table item's key -> its words ("building 9 (3♥ 6♠), the dealer's")."""
    return {str(item["key"]): words.item_words(item) for item in view.get("table") or []}


def build_values(view: Mapping[str, Any]) -> dict[str, int]:
    """Each build on the table's key -> its announced value."""
    return {
        str(item["key"]): int(item["value"])
        for item in view.get("table") or []
        if item.get("kind") != "card" and isinstance(item.get("value"), int)
    }


def prompt_of(kind: str, view: Mapping[str, Any]) -> str:
    """The question as a dealer is asked it, from what the table shows."""
    player = words.player_words(view.get("turn"))
    if kind == "is_legal":
        play = words.play_words(view.get("play") or {}, item_names(view), build_values(view))
        return f"{words._cap(player)} plays: {play}. Is this play legal?"
    if kind == "may_take":
        card = words.card_words(str(view.get("card")))
        return f"{words._cap(player)} plays {card}. What may this card take?"
    if kind == "legal_plays":
        card = words.card_words(str(view.get("card")))
        return f"{words._cap(player)} holds {card}. Name every legal play of this card."
    if kind == "score_hand":
        return "The hand is over. Score the hand."
    situation = words.situation_words(view.get("situation") or {})
    return f"{situation} Rule on this."


def take_rule(card: str | None) -> str:
    """What a card takes, in words, for the card the question names."""
    if card is None:
        return "A card takes its pairs, groups adding up to its value and builds of its value."
    said = words.card_words(card)
    rank = said[:-1]
    if card[0] in "JQK":
        return (
            f"{said} takes one loose {rank} at a time; only the fourth {rank} takes the "
            "other three together. A court card never takes a build or a sum."
        )
    value = engine.value_of(card)
    return (
        f"{said} takes, in one play, every loose {rank}, as many groups of loose cards adding "
        f"up to {value} as share no card, and every build worth {value}; nothing else."
    )


def rule_of(kind: str, expected: Mapping[str, Any], scenario: Scenario, question: Question) -> str:
    """The rule a question's answer rests on, in words."""
    if kind == "is_legal":
        reason = expected.get("reason")
        if reason is None:
            return "The play breaks no rule of Scarne's Casino."
        return words.REASON_WORDS[str(reason)] + "."
    if kind == "may_take":
        return take_rule(question.card)
    if kind == "legal_plays":
        return (
            "A card may take, build (new, raised or added to) or trail; a player owning a build "
            "may not trail and keeps a card to take it."
        )
    if kind == "score_hand":
        lines = "; ".join(
            f"{words.LINE_WORDS[line]}: {words.LINE_HELP[line]}" for line in _lines(scenario)
        )
        return f"{lines}. The cards left on the table go to the last to capture."
    return words.RULING_WORDS.get(str(expected.get("ruling")), "") + "."


def _lines(scenario: Scenario) -> tuple[str, ...]:
    lines = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
    return lines if scenario.profile.sweeps else lines[:-1]


def answer_key(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    scenario = scenario_of(document)
    try:
        key = engine.answer_key(scenario.document)
    except CasinoScenarioError as err:
        raise document_error(err) from err
    out = []
    for question, entry in zip(scenario.questions, key, strict=True):
        view = table_view(scenario, question)
        out.append(
            {
                "n": entry["n"],
                "kind": entry["kind"],
                "prompt": prompt_of(entry["kind"], view),
                "expected": entry["expected"],
                "rule": rule_of(entry["kind"], entry["expected"], scenario, question),
                "view": view,
            }
        )
    return out


def under_profile(
    document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
) -> dict[str, Any]:
    """The document's rules replaced by a recorded version's parameters: the shipped
    profile plus an override for each parameter that differs from it."""
    if profile != PROFILE_NAME:
        raise DocumentError(
            f"Scarne's Casino knows no table called {profile[:30]!r}",
            field="rules",
            reason="bad_rules",
        )
    shipped = engine.SCARNE
    overrides = {
        key: parameters[key]
        for key in PARAMETER_KEYS
        if key in parameters and parameters[key] != getattr(shipped, key)
    }
    out = dict(document)
    out["rules"] = {"profile": PROFILE_NAME, "overrides": overrides} if overrides else PROFILE_NAME
    return out


def _line(out: Mapping[str, Any]) -> str:
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


def _bad_json(err: Exception) -> dict[str, Any]:
    return {"error": f"not valid JSON: {str(err)[:200]}", "path": "", "reason": "bad_json"}


class CasinoKeying:
    def answer_key(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        return answer_key(document)

    def under_profile(
        self, document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        return under_profile(document, profile=profile, parameters=parameters)

    def settled_line(self, text: str) -> str:
        """The engine's own `casino-answers/1` line of a document, or its error object."""
        try:
            document = json.loads(text)
        except (ValueError, RecursionError) as err:
            return _line(_bad_json(err))
        try:
            return _line(engine.answers(document))
        except CasinoScenarioError as err:
            return _line(err.to_dict())

    def answer_key_line(self, text: str) -> str:
        try:
            document = json.loads(text)
        except (ValueError, RecursionError) as err:
            return _line(_bad_json(err))
        try:
            engine.read(document)  # the engine's error object, path and all
        except CasinoScenarioError as err:
            return _line(err.to_dict())
        return _line({"id": document.get("id"), "answer_key": answer_key(document)})
