"""Casino's seeded generator: any seed and skill gives valid documents that exercise the
skill, whose answer keys the engine computes; the same seed gives the same documents."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.casino.engine import REASONS, answer_key, read
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.games.casino.generator import MAX_LISTED_PLAYS, SKILLS, card_words, generate
from trainer.games.casino.generator import SKILLS as GENERATED
from trainer.games.casino.grammar import MAX_PLAYS

from .exercises import EXERCISES, Doc, check_scores

SEEDS = st.integers(min_value=-(2**63), max_value=2**63)


def _check(doc: Doc, skill: str) -> None:
    scenario = read(doc)
    assert doc["skills"] == [skill]
    assert doc["rules"] == "scarne-casino"
    key = answer_key(doc)
    assert [entry["kind"] for entry in key] == [q["kind"] for q in doc["questions"]]
    assert EXERCISES[skill](doc), (skill, doc["title"], doc["questions"])
    check_scores(doc)
    # a reachable position: every card in one place, no more than this deal has dealt
    placed = scenario.state.all_cards()
    assert len(placed) == len(set(placed)) <= 4 + 8 * doc["deal"]
    for entry in key:  # an answer can list every legal play asked for
        if entry["kind"] == "legal_plays":
            assert len(entry["expected"]["plays"]) <= MAX_LISTED_PLAYS
    title = doc["title"]
    assert "_" not in title, title
    assert not any(name in title for name in (*REASONS, *QUESTION_KINDS, *SKILLS)), title


def test_the_generator_knows_the_skills_of_the_library() -> None:
    assert GENERATED == SKILLS


@settings(max_examples=40, deadline=None)
@given(skill=st.sampled_from(SKILLS), seed=SEEDS)
def test_any_seed_and_skill_gives_valid_documents_exercising_it(skill: str, seed: int) -> None:
    docs = generate([skill], count=2, seed=seed)
    assert len(docs) == 2
    for doc in docs:
        _check(doc, skill)
    assert len({doc["id"] for doc in docs}) == 2


@settings(max_examples=15, deadline=None)
@given(skills=st.lists(st.sampled_from(SKILLS), min_size=1, max_size=4), seed=SEEDS)
def test_the_same_seed_gives_the_same_documents(skills: list[str], seed: int) -> None:
    first = generate(skills, count=len(skills), seed=seed)
    again = generate(skills, count=len(skills), seed=seed)
    assert json.dumps(first) == json.dumps(again)
    assert [doc["skills"] for doc in first] == [[skill] for skill in skills]


def test_different_seeds_give_different_situations() -> None:
    one = generate(["capture-sum"], count=3, seed=1)
    two = generate(["capture-sum"], count=3, seed=2)
    assert [d["table"] for d in one] != [d["table"] for d in two]


def test_every_skill_every_kind_over_a_batch() -> None:
    docs = generate(list(SKILLS), count=3 * len(SKILLS), seed=2026)
    for doc in docs:
        _check(doc, doc["skills"][0])
    assert Counter(doc["skills"][0] for doc in docs) == dict.fromkeys(SKILLS, 3)
    kinds = {q["kind"] for doc in docs for q in doc["questions"]}
    assert kinds == set(QUESTION_KINDS)


def test_a_score_for_the_last_take_leaves_cards_on_the_table() -> None:
    for doc in generate(["last-take"], count=4, seed=5):
        assert doc["table"]
        assert doc["deal"] == 6
        ((_, expected),) = [(k["kind"], k["expected"]) for k in answer_key(doc)]
        assert expected["last_take"]["to"] == doc["last_capturer"]
        assert len(expected["last_take"]["cards"]) == len(doc["table"])


@pytest.mark.parametrize(
    ("skills", "message"),
    [
        (["capture-sum", "sweeping"], "unknown Casino skill 'sweeping'"),
        (["Capture-Sum"], "unknown Casino skill 'Capture-Sum'"),
        ("capture-sum", "list of codes"),
        ([], "list of codes"),
    ],
)
def test_unknown_skills_are_refused_naming_the_code(skills: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(skills, count=1, seed=1)


@pytest.mark.parametrize("count", [-1, 501, True])
def test_a_count_out_of_range_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="count"):
        generate(["scoring"], count=count, seed=1)


def test_an_unknown_profile_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown Casino rules"):
        generate(["scoring"], count=1, seed=1, profile="pinochle")


def test_no_documents_for_a_count_of_nought() -> None:
    assert generate(["scoring"], count=0, seed=1) == []


def test_cards_in_dealer_words() -> None:
    assert card_words("Th") == "the ten of hearts"
    assert card_words("2s") == "the deuce of spades"


def test_every_legal_play_is_asked_only_of_a_card_whose_plays_an_answer_can_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A table test once asked for a card's 70-odd legal plays: no answer could list them.
    assert MAX_LISTED_PLAYS == MAX_PLAYS
    from trainer.games.casino import generator

    monkeypatch.setattr(generator, "MAX_LISTED_PLAYS", 2)
    skills = ["capture-sum", "single-build", "multiple-build", "raise-build", "trailing"]
    docs = generate(skills, count=60, seed=11)
    asked = [
        entry["expected"]["plays"]
        for doc in docs
        for entry in answer_key(doc)
        if entry["kind"] == "legal_plays"
    ]
    assert asked
    assert all(len(plays) <= 2 for plays in asked)


def test_a_refused_raise_is_never_to_the_builds_own_value():
    # Found by the property above (seed 61942): "may the dealer raise the nine to nine?",
    # an ace played onto a nine and named nine, which is no raise at all.
    (doc,) = generate(["raise-build"], count=1, seed=61942)
    (question,) = doc["questions"]
    assert question["kind"] == "is_legal"
    assert question["play"]["on"] == "3s+6s"
    assert question["play"]["build"] != 9
    assert EXERCISES["raise-build"](doc)
