"""Scarne's Casino behind the game seam (issue 26): registered by its module, its answer key
the engine's with a prompt, a view and a rule for each question, every word a person reads
free of internal names, and `manage.py play_scenario --game casino` printing the engine's
own lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from trainer.games import game_named
from trainer.games.casino import engine, words
from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.rulings import RULINGS, SITUATIONS
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.games.casino.engine.scoring import LINES

CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
INTERNAL = re.compile(r"[a-z]_[a-z]|non_dealer|is_legal|may_take|legal_plays|score_hand|rule_on")


def _documents():
    return [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]


def _person_reads(text: str) -> None:
    assert text.strip(), "no words"
    assert not INTERNAL.search(text), text


@pytest.fixture
def casino():
    return game_named("casino")


def test_casino_is_a_game_the_house_deals(casino):
    assert "trainer.games.casino" in settings.SHOESCHOOL_GAMES
    assert casino.name == "casino"
    assert casino.scenario_format == "casino-scenario/1"
    assert casino.table_template == "games/casino/_table.html"


def test_every_kind_reason_ruling_line_and_situation_has_words_a_dealer_reads(casino):
    assert set(words.KIND_WORDS) == set(QUESTION_KINDS)
    assert casino.kind_words("is_legal") == "Is this play legal?"
    assert casino.kind_words("may_take") == "What may this card take?"
    assert casino.kind_words("legal_plays") == "Every legal play of this card"
    assert casino.kind_words("score_hand") == "Score the hand"
    assert casino.kind_words("rule_on") == "Rule on this"
    for kind in QUESTION_KINDS:
        _person_reads(casino.kind_words(kind))
    for reason in REASONS:
        _person_reads(words.REASON_WORDS[reason])
        _person_reads(casino.answer_words({"legal": False, "reason": reason}))
    for ruling in RULINGS:
        _person_reads(words.RULING_WORDS[ruling])
        _person_reads(casino.answer_words({"ruling": ruling}))
    for line in LINES:
        _person_reads(words.LINE_WORDS[line])
        _person_reads(words.LINE_HELP[line])
    assert set(words.SITUATION_WORDS) == set(SITUATIONS)
    for code, category in casino.categories.items():
        _person_reads(category.words)
        assert "_" in code or code.isalpha()
    for skill in casino.skills.values():
        _person_reads(skill)


def test_the_players_cards_and_builds_are_said_as_at_the_table():
    assert words.player_words("non_dealer") == "the non-dealer"
    assert words.player_words("non_dealer", title=True) == "Non-dealer"
    assert words.card_words("Td") == "10♦"
    assert words.card_words("As") == "A♠"
    build = {"kind": "single", "cards": ["3h", "6s"], "value": 9, "owner": "dealer"}
    assert words.item_words(build) == "building 9 (3♥ 6♠), the dealer's"
    multiple = {"kind": "multiple", "cards": ["3h", "6s", "9d"], "value": 9, "owner": "non_dealer"}
    assert (
        words.item_words(multiple) == "building 9s, a multiple build (3♥ 6♠ 9♦), the non-dealer's"
    )


def test_the_answer_key_is_the_engines_with_a_prompt_a_view_and_a_rule(casino):
    for document in _documents():
        key = casino.answer_key(document)
        assert [(q["n"], q["kind"], q["expected"]) for q in key] == [
            (q["n"], q["kind"], q["expected"]) for q in engine.answer_key(document)
        ]
        for question in key:
            _person_reads(question["prompt"])
            _person_reads(question["rule"])
            _person_reads(casino.question_words(question, document, note=True))
            _person_reads(casino.answer_words(question["expected"]))
            view = question["view"]
            assert view["turn"] == document["turn"]
            assert view["deal"] == document["deal"]
            assert len(view["table"]) == len(document["table"])
            public = casino.public_question(question, answer_key=key, document=document)
            assert "expected" not in json.dumps(public)
            assert "rule" not in public


def test_the_view_shows_the_player_to_play_and_what_the_question_names(casino):
    document = {
        "format": "casino-scenario/1",
        "rules": "scarne-casino",
        "deal": 3,
        "turn": "non_dealer",
        "table": [{"build": ["3h", "2c"], "value": 5, "kind": "single", "owner": "dealer"}, "9d"],
        "hands": {"non_dealer": ["Ad", "6h", "9s", "Qc"], "dealer": ["5d", "7c", "8c", "Jh"]},
        "taken": {"non_dealer": ["Kd", "Ks"], "dealer": []},
        "questions": [
            {"kind": "is_legal", "play": {"card": "Ad", "build": 6, "on": "3h+2c"}},
            {"kind": "may_take", "card": "9s"},
        ],
    }
    legal, take = casino.answer_key(document)
    view = legal["view"]
    assert view["hands"] == {"non_dealer": ["Ad", "6h", "9s", "Qc"]}  # not the dealer's
    assert view["held"] == {"non_dealer": 4, "dealer": 4}
    assert view["taken"] == {"non_dealer": 2, "dealer": 0}
    assert view["table"][0] == {
        "key": "2c+3h",
        "kind": "single",
        "cards": ["3h", "2c"],
        "value": 5,
        "owner": "dealer",
    }
    assert view["table"][1]["kind"] == "card"
    assert view["play"] == {"card": "Ad", "build": 6, "on": "2c+3h", "with": []}
    assert legal["prompt"] == (
        "The non-dealer plays: A♦ raises building 5 (3♥ 2♣), the dealer's, to 6. "
        "Is this play legal?"
    )
    assert take["view"]["card"] == "9s"
    assert take["prompt"] == "The non-dealer plays 9♠. What may this card take?"
    assert casino.answer_words(take["expected"]) == "Takes 9♦"


def test_a_bad_document_is_refused_at_its_path(casino):
    from trainer.games import DocumentError

    document = _documents()[0]
    bad = {**document, "table": ["Th", "Zz"]}
    with pytest.raises(DocumentError) as refused:
        casino.answer_key(bad)
    assert (refused.value.field, refused.value.reason) == ("table[1]", "bad_card")
    with pytest.raises(DocumentError) as invalid:
        casino.validate({**document, "deal": 9})
    assert (invalid.value.field, invalid.value.reason) == ("deal", "bad_deal")


def test_under_a_recorded_version_the_rules_become_overrides(casino):
    document = _documents()[0]
    same = casino.under_profile(
        document, profile="scarne-casino", parameters={"sweeps": False, "match_goal": None}
    )
    assert same["rules"] == "scarne-casino"
    swept = casino.under_profile(
        document, profile="scarne-casino", parameters={"sweeps": True, "match_goal": 21}
    )
    assert swept["rules"] == {
        "profile": "scarne-casino",
        "overrides": {"sweeps": True, "match_goal": 21},
    }
    assert casino.answer_key(swept)[0]["expected"] == casino.answer_key(document)[0]["expected"]


def test_play_scenario_settles_casino_documents_as_the_engines_answers(tmp_path, capsys):
    documents = _documents()
    rounds = tmp_path / "casino.jsonl"
    rounds.write_text(
        "".join(json.dumps(d) + "\n" for d in documents) + '{"format": "casino-scenario/1"}\n'
    )
    with pytest.raises(CommandError, match=f"1 of {len(documents) + 1} scenarios were rejected"):
        call_command("play_scenario", str(rounds), "--game", "casino")
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(documents) + 1
    for line, document in zip(lines, documents, strict=False):
        assert json.loads(line) == engine.answers(document)
        assert line == json.dumps(
            engine.answers(document), separators=(",", ":"), ensure_ascii=False
        )
    assert json.loads(lines[-1]) == {
        "error": "rules: is required",
        "path": "rules",
        "reason": "missing",
    }


def test_play_scenario_prints_casino_answer_keys(tmp_path, capsys):
    document = _documents()[0]
    rounds = tmp_path / "one.json"
    rounds.write_text(json.dumps(document))
    call_command("play_scenario", str(rounds), "--game", "casino", "--answer-key")
    out = json.loads(capsys.readouterr().out)
    assert out["id"] == document["id"]
    assert [q["expected"] for q in out["answer_key"]] == [
        q["expected"] for q in engine.answer_key(document)
    ]


def test_play_scenario_answer_keys_name_a_bad_documents_path(tmp_path, capsys):
    rounds = tmp_path / "bad.jsonl"
    bad = {**_documents()[0], "table": ["Th", "Zz"]}
    rounds.write_text(json.dumps(bad) + "\n[1]\nnot json\n")
    with pytest.raises(CommandError, match="3 of 3 scenarios were rejected"):
        call_command("play_scenario", str(rounds), "--game", "casino", "--answer-key")
    first, second, third = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (first["path"], first["reason"]) == ("table[1]", "bad_card")
    assert first["error"].startswith("table[1]: ")
    assert second["reason"] == "not_object"
    assert third["reason"] == "bad_json"


def test_a_takes_rule_names_the_card_and_what_it_takes(casino):
    rules = {
        q["view"]["card"]: q["rule"]
        for document in _documents()
        for q in casino.answer_key(document)
        if q["kind"] == "may_take"
    }
    assert rules["Ts"].startswith("10♠ takes, in one play, every loose 10, as many groups")
    assert rules["Kh"] == (
        "K♥ takes one loose K at a time; only the fourth K takes the other three together. "
        "A court card never takes a build or a sum."
    )
