"""The published JSON Schema accepts every valid corpus document and refuses malformed ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs/schemas/casino-scenario-1.schema.json").read_text("utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
CONFORMANCE = Path(__file__).parent / "conformance"


def _cases(name: str) -> list[dict[str, Any]]:
    text = (CONFORMANCE / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def test_the_schema_is_a_valid_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("case", _cases("valid.jsonl"), ids=lambda c: c["scenario"]["id"])
def test_every_valid_document_passes_the_schema(case: dict[str, Any]) -> None:
    assert [e.message for e in VALIDATOR.iter_errors(case["scenario"])] == []


# Shape errors the schema sees (the rest, such as sums and duplicates, only the engine sees).
SHAPE = {
    "not an object",
    "wrong format",
    "unknown field",
    "no questions field",
    "empty questions",
    "unknown profile",
    "bad match goal",
    "deal seven",
    "turn not a player",
    "bad card in hand",
    "build over ten",
    "five cards in hand",
    "unknown question",
    "play both take and trail",
    "bad item in a play",
    "bad situation",
    "sweeps negative",
}


@pytest.mark.parametrize(
    "case", [c for c in _cases("invalid.jsonl") if c["why"] in SHAPE], ids=lambda c: c["why"]
)
def test_shape_errors_fail_the_schema_too(case: dict[str, Any]) -> None:
    assert list(VALIDATOR.iter_errors(case["scenario"]))
