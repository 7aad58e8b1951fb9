"""The conformance corpus (tests/casino/conformance): each valid document's answer key is
the expected one, written by hand from the rules; each invalid one is refused at its path
with its reason. Also JSON Lines import and export, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trainer.games.casino.engine.answer_key import answer_key, answers
from trainer.games.casino.engine.errors import CasinoScenarioError
from trainer.games.casino.engine.jsonl import read_lines, write_lines
from trainer.games.casino.engine.scenario import read

HERE = Path(__file__).parent / "conformance"


def load(name: str) -> list[dict[str, Any]]:
    with open(HERE / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


VALID = load("valid.jsonl")
INVALID = load("invalid.jsonl")


@pytest.mark.parametrize("case", VALID, ids=[c["scenario"]["id"] for c in VALID])
def test_valid_document_answers_as_expected(case: dict[str, Any]) -> None:
    key = answer_key(case["scenario"])
    assert [item["expected"] for item in key] == case["expect"]
    assert [item["n"] for item in key] == list(range(1, len(key) + 1))


@pytest.mark.parametrize("case", INVALID, ids=[c["why"] for c in INVALID])
def test_invalid_document_is_refused_at_its_path(case: dict[str, Any]) -> None:
    with pytest.raises(CasinoScenarioError) as caught:
        read(case["scenario"])
    assert (caught.value.path, caught.value.reason) == (case["path"], case["reason"])
    assert str(caught.value)
    assert caught.value.to_dict()["reason"] == case["reason"]


def test_the_corpus_covers_every_worked_example_and_question_kind() -> None:
    ids = {case["scenario"]["id"] for case in VALID}
    for example in (
        "seed-ten-takes-three-tens",
        "seed-six-takes-three-deuces",
        "seed-building-nine",
        "seed-five-raised-to-six",
        "seed-multiple-nines-nine-on-nine",
        "seed-multiple-nines-four-and-five",
        "seed-court-two-kings",
        "seed-court-fourth-takes-three",
    ):
        assert example in ids
    kinds = {q["kind"] for case in VALID for q in case["scenario"]["questions"]}
    assert kinds == {"is_legal", "may_take", "legal_plays", "score_hand", "rule_on"}


def test_json_lines_round_trip() -> None:
    documents = [case["scenario"] for case in VALID]
    text = write_lines(documents)
    assert text.count("\n") == len(documents)
    assert read_lines(text) == documents


def test_json_lines_import_is_all_or_nothing() -> None:
    good = [case["scenario"] for case in VALID[:3]]
    text = write_lines(good) + json.dumps(INVALID[5]["scenario"]) + "\n"
    with pytest.raises(CasinoScenarioError) as caught:
        read_lines(text)
    assert caught.value.line == 4
    assert caught.value.reason == INVALID[5]["reason"]
    with pytest.raises(CasinoScenarioError) as caught:
        read_lines(write_lines(good) + "{not json\n")
    assert (caught.value.line, caught.value.reason) == (4, "bad_json")
    with pytest.raises(CasinoScenarioError) as caught:
        read_lines(write_lines(good) + json.dumps(good[0]) + "\n")
    assert caught.value.reason == "duplicate_id"


def test_json_lines_export_refuses_a_bad_document_and_writes_nothing() -> None:
    with pytest.raises(CasinoScenarioError) as caught:
        write_lines([VALID[0]["scenario"], INVALID[1]["scenario"]])
    assert caught.value.line == 2


def test_answers_carry_the_id() -> None:
    out = answers(VALID[0]["scenario"])
    assert out["format"] == "casino-answers/1"
    assert out["id"] == VALID[0]["scenario"]["id"]


def test_the_corpus_asks_about_every_refusal_reason() -> None:
    from trainer.games.casino.engine import REASONS

    given = {
        answer.get("reason")
        for case in VALID
        for answer in case["expect"]
        if isinstance(answer, dict) and answer.get("legal") is False
    }
    assert given == set(REASONS)
