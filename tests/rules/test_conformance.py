"""The engine against the shared conformance examples (copied into tests/rules/conformance).

A settlement must agree with the expected one on every field the shared checker compares:
each player's net, main, insurance, bonus and even_money; each hand's cards, total and
outcome; the dealer's cards and total; cards_used and reshuffle.
"""

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from trainer.rules import ScenarioError, json_line, play, settle

HERE = Path(__file__).parent / "conformance"


def load(name: str) -> list[dict[str, Any]]:
    with open(HERE / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


VALID = load("valid.jsonl")
INVALID = load("invalid.jsonl")


def card(text: str) -> str:
    text = "T" + text[2:] if text.startswith("10") else text
    return text[0].upper() + text[1:].lower()


def compared(settlement: dict[str, Any]) -> dict[str, Any]:
    """The fields the shared checker compares, normalised the way it does."""
    out: dict[str, Any] = {
        "dealer": ([card(c) for c in settlement["dealer"]["cards"]], settlement["dealer"]["total"]),
        "cards_used": settlement["cards_used"],
        "reshuffle": settlement["reshuffle"],
    }
    for box in settlement["boxes"]:
        out[f"box{box['box']}.hands"] = [
            ([card(c) for c in hand["cards"]], hand["total"], hand["outcome"])
            for hand in box["hands"]
        ]
        for player in box["players"]:
            money = tuple(Decimal(player[k]) for k in ("net", "main", "insurance", "bonus"))
            out[f"box{box['box']}.{player['player']}"] = (*money, bool(player["even_money"]))
    return out


@pytest.mark.parametrize("case", VALID, ids=[c["scenario"]["id"] for c in VALID])
def test_valid_example_settles_as_expected(case: dict[str, Any]) -> None:
    got = compared(settle(case["scenario"]))
    want = compared(case["expect"])
    assert {k: got.get(k) for k in set(got) | set(want)} == {
        k: want.get(k) for k in set(got) | set(want)
    }


@pytest.mark.parametrize("case", VALID[:50], ids=[c["scenario"]["id"] for c in VALID[:50]])
def test_json_line_gives_the_same_settlement(case: dict[str, Any]) -> None:
    line = json_line(json.dumps(case["scenario"]))
    assert "\n" not in line
    assert json.loads(line) == settle(case["scenario"])


@pytest.mark.parametrize(
    "case", INVALID, ids=[f"{c['scenario'].get('id')}-{c['why']}" for c in INVALID]
)
def test_invalid_example_is_rejected(case: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError) as caught:
        play(case["scenario"])
    error = caught.value.to_dict()
    assert error["error"]
    assert error["reason"]
    assert isinstance(error["field"], str)
    out = json.loads(json_line(json.dumps(case["scenario"])))
    assert out == error


def test_settlement_carries_id_title_skills_and_rules_through() -> None:
    scenario = dict(VALID[0]["scenario"], title="A title", skills=["natural"])
    out = settle(scenario)
    assert out["format"] == "blackjack-settlement/1"
    assert (out["id"], out["title"], out["skills"]) == (scenario["id"], "A title", ["natural"])
    assert out["rules"] == scenario["rules"]


def test_amounts_are_printed_with_two_decimals() -> None:
    for case in VALID[:40]:
        out = settle(case["scenario"])
        for box in out["boxes"]:
            for player in box["players"]:
                for key in ("net", "main", "insurance", "bonus"):
                    assert player[key].split(".")[1].__len__() == 2
                    assert player[key] != "-0.00"
