"""The published JSON Schemas accept the conformance examples and refuse malformed documents."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
CONFORMANCE = Path(__file__).resolve().parent / "conformance"


def _load(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


SCENARIO_SCHEMA = _load("blackjack-scenario-1.schema.json")
SETTLEMENT_SCHEMA = _load("blackjack-settlement-1.schema.json")
# The settlement's `rules` refers to the scenario schema's, by its $id.
REGISTRY = Registry().with_resources(
    (schema["$id"], Resource.from_contents(schema))
    for schema in (SCENARIO_SCHEMA, SETTLEMENT_SCHEMA)
)
SCENARIO = Draft202012Validator(SCENARIO_SCHEMA, registry=REGISTRY)
SETTLEMENT = Draft202012Validator(SETTLEMENT_SCHEMA, registry=REGISTRY)


def _valid_examples() -> list[dict[str, Any]]:
    path = CONFORMANCE / "valid.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _errors(validator: Draft202012Validator, doc: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


GOOD_SCENARIO: dict[str, Any] = {
    "format": "blackjack-scenario/1",
    "id": "shared-box-split",
    "title": "Split on a shared box",
    "skills": ["split"],
    "rules": {"profile": "casino-shoe", "overrides": {"max_split_hands": None, "payout_unit": "1"}},
    "boxes": [
        {
            "box": 1,
            "stakes": [{"player": "p1", "amount": "10"}, {"player": "p2", "amount": "12.50"}],
            "insurance": {"p1": "5"},
            "even_money": ["p2"],
            "actions": ["split", "double:5", "stand"],
        }
    ],
    "burn": ["9c"],
    "shoe": ["8h", "Ac", "8d", "7s", "3s", "10h", "ts", "KD"],
    "cut_card_at": 60,
    "chips": {
        "pay": [{"box": 1, "player": "p1"}],
        "bets": [{"box": 1, "player": "p2", "stack": ["5", "5", "2.50"]}],
        "colour_up": [{"box": 1, "player": "p2", "pile": ["5", "5", "5", "5", "5"]}],
        "change": [{"box": 1, "player": "p1", "cash": "100"}],
    },
}


@pytest.mark.parametrize(
    ("name", "schema"),
    [("scenario", SCENARIO_SCHEMA), ("settlement", SETTLEMENT_SCHEMA)],
)
def test_the_schema_is_a_valid_draft_2020_12_schema(name: str, schema: dict[str, Any]) -> None:
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name


def test_every_conformance_scenario_validates() -> None:
    examples = _valid_examples()
    assert len(examples) >= 100
    failures = {
        i: errs for i, ex in enumerate(examples) if (errs := _errors(SCENARIO, ex["scenario"]))
    }
    assert failures == {}


def test_every_conformance_settlement_validates() -> None:
    failures = {
        i: errs
        for i, ex in enumerate(_valid_examples())
        if (errs := _errors(SETTLEMENT, ex["expect"]))
    }
    assert failures == {}


def test_a_hand_written_scenario_using_every_field_validates() -> None:
    assert _errors(SCENARIO, GOOD_SCENARIO) == []


def _with(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """A copy of GOOD_SCENARIO with the value at path replaced (or removed when value is ...)."""
    doc = copy.deepcopy(GOOD_SCENARIO)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


WRONG_SCENARIOS = {
    "float amount": _with(("boxes", 0, "stakes", 0, "amount"), 10.5),
    "integer amount": _with(("boxes", 0, "stakes", 0, "amount"), 10),
    "amount in words": _with(("boxes", 0, "stakes", 0, "amount"), "ten"),
    "negative amount": _with(("boxes", 0, "stakes", 0, "amount"), "-5"),
    "three decimals": _with(("boxes", 0, "stakes", 0, "amount"), "5.125"),
    "zero stake": _with(("boxes", 0, "stakes", 0, "amount"), "0.00"),
    "zero payout unit": _with(("rules", "overrides"), {"payout_unit": "0"}),
    "float insurance": _with(("boxes", 0, "insurance"), {"p1": 5.0}),
    "unknown action": _with(("boxes", 0, "actions"), ["split", "fly"]),
    "double for a float": _with(("boxes", 0, "actions"), ["double:5.5.5"]),
    "double for nothing given": _with(("boxes", 0, "actions"), ["double:"]),
    "bad card": _with(("shoe",), ["8h", "Zx", "8d"]),
    "card without suit": _with(("shoe",), ["8h", "8", "8d"]),
    "one-character ten": _with(("shoe",), ["8h", "1h"]),
    "card as a number": _with(("burn",), [9]),
    "too many burned cards": _with(("burn",), ["2c", "3c", "4c", "5c", "6c", "7c"]),
    "wrong format": _with(("format",), "blackjack-scenario/9"),
    "unknown profile": _with(("rules",), "no-such-profile"),
    "unknown rule parameter": _with(("rules", "overrides"), {"free_money": True}),
    "decks out of range": _with(("rules", "overrides"), {"decks": 9}),
    "payout as a string": _with(("rules", "overrides"), {"blackjack_pays": "2:1"}),
    "soft 17 as a string": _with(("rules", "overrides"), {"dealer_hits_soft_17": "yes"}),
    "box out of range": _with(("boxes", 0, "box"), 99),
    "no stakes": _with(("boxes", 0, "stakes"), []),
    "missing shoe": _with(("shoe",), ...),
    "negative cut card": _with(("cut_card_at",), -1),
    "unknown top-level field": _with(("dealer",), "me"),
    "unknown box field": _with(("boxes", 0, "tip"), "5"),
    "empty chips": _with(("chips",), {}),
    "pay some": _with(("chips", "pay"), "some"),
    "unknown chips field": _with(("chips", "tips"), []),
    "chip as a number": _with(("chips", "colour_up", 0, "pile"), [5]),
    "empty pile": _with(("chips", "colour_up", 0, "pile"), []),
    "cash as a number": _with(("chips", "change", 0, "cash"), 100),
    "pay without a player": _with(("chips", "pay"), [{"box": 1}]),
    "unknown chip rule": _with(("rules", "overrides"), {"chip_rule": "colours"}),
    "chip set of numbers": _with(("rules", "overrides"), {"chip_set": [1, 5]}),
}


@pytest.mark.parametrize("doc", WRONG_SCENARIOS.values(), ids=WRONG_SCENARIOS.keys())
def test_the_scenario_schema_rejects(doc: dict[str, Any]) -> None:
    assert _errors(SCENARIO, doc) != []


GOOD_SETTLEMENT: dict[str, Any] = {
    "format": "blackjack-settlement/1",
    "id": "x",
    "rules": "scarne-4deck",
    "dealer": {
        "cards": ["7d", "Qc"],
        "total": 17,
        "soft": False,
        "blackjack": False,
        "bust": False,
    },
    "boxes": [
        {
            "box": 1,
            "hands": [
                {
                    "cards": ["Ah", "Ks"],
                    "total": 21,
                    "soft": True,
                    "outcome": "blackjack",
                    "stakes": {"p1": "10.00"},
                    "doubled": False,
                    "split": False,
                }
            ],
            "players": [
                {
                    "player": "p1",
                    "net": "15.00",
                    "main": "15.00",
                    "insurance": "0.00",
                    "even_money": False,
                    "bonus": "0.00",
                }
            ],
        }
    ],
    "cards_used": 5,
    "reshuffle": False,
}


def _settlement_with(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    doc = copy.deepcopy(GOOD_SETTLEMENT)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


WRONG_SETTLEMENTS = {
    "float net": _settlement_with(("boxes", 0, "players", 0, "net"), 15.0),
    "one decimal": _settlement_with(("boxes", 0, "players", 0, "main"), "15.0"),
    "unknown outcome": _settlement_with(("boxes", 0, "hands", 0, "outcome"), "natural"),
    "lower-case rank": _settlement_with(("dealer", "cards"), ["7d", "qc"]),
    "ten spelled 10": _settlement_with(("dealer", "cards"), ["7d", "10c"]),
    "extra field": _settlement_with(("winner",), "p1"),
    "unknown profile": _settlement_with(("rules",), "no-such-profile"),
    "unknown override": _settlement_with(
        ("rules",), {"profile": "casino-shoe", "overrides": {"x": 1}}
    ),
}


def test_a_hand_written_settlement_validates() -> None:
    assert _errors(SETTLEMENT, GOOD_SETTLEMENT) == []


def test_a_settlement_may_echo_rules_with_overrides() -> None:
    rules = {"profile": "casino-shoe", "overrides": {"surrender": "none"}}
    assert _errors(SETTLEMENT, _settlement_with(("rules",), rules)) == []


def test_the_engines_settlements_validate() -> None:
    settle = pytest.importorskip("trainer.rules").settle
    failures = {
        i: errs
        for i, ex in enumerate(_valid_examples())
        if (errs := _errors(SETTLEMENT, settle(ex["scenario"])))
    }
    assert failures == {}


@pytest.mark.parametrize("doc", WRONG_SETTLEMENTS.values(), ids=WRONG_SETTLEMENTS.keys())
def test_the_settlement_schema_rejects(doc: dict[str, Any]) -> None:
    assert _errors(SETTLEMENT, doc) != []


def _library() -> list[dict[str, Any]]:
    lines = []
    for path in sorted((ROOT / "fixtures" / "scenarios").glob("*.jsonl")):
        entries = [json.loads(line) for line in path.read_text().splitlines()]
        # Blackjack's lines wrap a document; Casino's situations are another game's.
        lines += [entry["scenario"] for entry in entries if "scenario" in entry]
    return lines


def test_the_library_and_its_settlements_validate_chips_included() -> None:
    settle = pytest.importorskip("trainer.rules").settle
    docs = _library()
    assert sum("chips" in doc for doc in docs) >= 30
    failures = {doc["id"]: errs for doc in docs if (errs := _errors(SETTLEMENT, settle(doc)))}
    assert failures == {}
    for doc in docs:
        if "chips" in doc:
            # The schema asks for every box's actions; the library leaves a natural's out.
            filled = copy.deepcopy(doc)
            for box in filled["boxes"]:
                box.setdefault("actions", [])
            assert _errors(SCENARIO, filled) == [], doc["id"]


def test_chip_parameters_validate_as_overrides() -> None:
    overrides = {"chip_set": ["1", "5", "25"], "chip_rule": "match", "change_chip": "25"}
    assert _errors(SCENARIO, _with(("rules", "overrides"), overrides)) == []
