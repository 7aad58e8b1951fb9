"""The question vocabulary: typed answer-key records that write exactly the stored JSON,
and enums whose members are the strings the database has always held."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from trainer import rules
from trainer.rules import (
    CHIP_KINDS,
    MONEY_KINDS,
    PROCEDURE_ANSWERS,
    Category,
    Kind,
    MoneyAction,
    ProcedureAnswer,
    Question,
    answer_key,
    compare,
    key_questions,
    unanswered,
)

VALID = Path(__file__).parent / "conformance" / "valid.jsonl"
DOCUMENTS = [json.loads(line)["scenario"] for line in VALID.read_text().splitlines() if line]


def test_the_enums_are_the_stored_strings():
    assert [k.value for k in Kind] == [
        "offer_insurance",
        "offer_even_money",
        "even_money",
        "peek",
        "settle_insurance",
        "dealer_play",
        "settle_hand",
        "bonus_777",
        "reshuffle",
        "change",
        "pay_in_chips",
        "colour_up",
    ]
    assert [a.value for a in MoneyAction] == ["pay", "take", "push", "take_half"]
    assert [w.value for w in ProcedureAnswer] == [
        "offer", "no_offer", "peek", "no_peek", "hit", "stand", "reshuffle", "continue",
    ]  # fmt: skip
    money = {"settle_hand", "settle_insurance", "even_money", "bonus_777", "pay_in_chips"}
    assert money == MONEY_KINDS
    assert {"pay_in_chips", "colour_up", "change"} == CHIP_KINDS
    assert Kind.SETTLE_HAND == "settle_hand"
    assert json.dumps(Kind.PEEK) == '"peek"'
    # Every kind is a money question, a chip question or a procedure with its words; a
    # procedure is never either of the others.
    assert set(PROCEDURE_ANSWERS) | MONEY_KINDS | CHIP_KINDS == set(Kind)
    assert not set(PROCEDURE_ANSWERS) & CHIP_KINDS
    assert not set(PROCEDURE_ANSWERS) & MONEY_KINDS
    assert [a.sign for a in MoneyAction] == [1, -1, 0, -1]


@pytest.mark.parametrize("doc", DOCUMENTS[::10], ids=lambda d: d.get("id", "?"))
def test_records_write_and_read_the_stored_json_unchanged(doc):
    typed = key_questions(doc)
    stored = answer_key(doc)
    assert [q.to_dict() for q in typed] == stored
    text = json.dumps(stored)
    assert [Question.from_dict(item) for item in json.loads(text)] == typed
    assert json.dumps([Question.from_dict(i).to_dict() for i in json.loads(text)]) == text
    for item in stored:
        # Plain strings in the JSON, not enum members: what is stored cannot change.
        assert type(item["kind"]) is str
        word = item["expected"].get("answer", item["expected"].get("action"))
        assert type(word) is str


def test_a_record_compares_as_its_stored_dict_does():
    doc = DOCUMENTS[0]
    for question, item in zip(key_questions(doc), answer_key(doc), strict=True):
        for given in ({"action": "pay", "amount": "10.00"}, {"answer": "stand"}, {}):
            assert compare(question, given) == compare(item, given)


def test_a_missed_question_is_wrong_moves_no_money_and_is_its_own_category():
    verdict = unanswered()
    assert (verdict.right, verdict.money_diff) == (False, Decimal(0))
    assert verdict.category is Category.UNANSWERED
    assert rules.unanswered is unanswered
