"""Casino's shipped library: every document valid, keyed by the engine, and each skill it
names exercised by a question that asks about it."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from trainer.games.casino.engine import REASONS, answer_key, read, read_lines
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.games.casino.generator import SKILLS

from .exercises import EXERCISES, Doc, check_scores

WORKED_EXAMPLES = (
    "A ten takes three tens and an ace-six-three",
    "A six, or a deuce, takes three deuces",
    "Three deuces and a six: the six takes all four",
    "A six takes a four and a deuce",
    "Building nine: an ace on a six and a deuce",
    "A four on the table's six: building tens",
    "The opponent's five raised to six with an ace from the hand",
    "A table card never changes a single build's value",
    "A nine on one's own nine: multiple nines",
    "A four with the table's five added to one's own nine",
    "A multiple build of sevens is never raised",
    "Nines of a six and a three, and a duplicate of an eight and an ace",
    "Raised to six, the build is taken only by a six",
    "Fours are not taken with an eight",
    "A king takes only one of two kings",
    "The fourth king takes the three on the table",
)

FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
# Among the shell's library files: load_library imports it with blackjack's (tests/trainer).
LIBRARY_FILE = FOLDER / "scarne-casino.jsonl"
LIBRARY = read_lines(LIBRARY_FILE.read_text(encoding="utf-8"))


def test_the_library_is_at_least_80_documents_with_unique_ids() -> None:
    ids = [doc["id"] for doc in LIBRARY]
    assert len(LIBRARY) >= 80
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"casino-\d{3}", doc_id) for doc_id in ids)


@pytest.mark.parametrize("doc", LIBRARY, ids=lambda doc: doc["id"])
def test_every_document_is_valid_and_keyed_by_the_engine(doc: Doc) -> None:
    scenario = read(doc)
    assert doc["rules"] == "scarne-casino"
    key = answer_key(doc)
    assert [entry["kind"] for entry in key] == [q["kind"] for q in doc["questions"]]
    # a real position: every card dealt by this deal is somewhere (52 with the stock)
    placed = scenario.state.all_cards()
    assert len(placed) == len(set(placed)) == 4 + 8 * doc["deal"]
    check_scores(doc)


def test_each_skill_at_least_five_times_and_each_kind_present() -> None:
    skills = Counter(skill for doc in LIBRARY for skill in doc["skills"])
    assert set(skills) == set(SKILLS)
    assert min(skills.values()) >= 5, skills
    kinds = Counter(q["kind"] for doc in LIBRARY for q in doc["questions"])
    assert set(kinds) == set(QUESTION_KINDS)


@pytest.mark.parametrize("doc", LIBRARY, ids=lambda doc: doc["id"])
def test_each_document_exercises_the_skills_it_names(doc: Doc) -> None:
    missing = [skill for skill in doc["skills"] if not EXERCISES[skill](doc)]
    assert not missing, f"{doc['title']}: does not exercise {missing}"


def test_the_skill_checks_can_fail() -> None:
    plain = next(doc for doc in LIBRARY if doc["title"] == "A build made without a card to take it")
    assert [skill for skill in SKILLS if EXERCISES[skill](plain)] == ["penalties"]


def test_titles_are_plain_dealer_words() -> None:
    internal = {*REASONS, *QUESTION_KINDS, *SKILLS, "non_dealer", "scarne-casino"}
    titles = [doc["title"] for doc in LIBRARY]
    assert len(set(titles)) == len(titles)
    for title in titles:
        assert "_" not in title, title
        assert not any(name in title for name in internal), title
        assert title[0].isupper(), title
        assert not title.endswith("."), title


def test_every_worked_example_of_the_rules_and_the_seed_is_in_the_library() -> None:
    titles = {doc["title"] for doc in LIBRARY}
    assert set(WORKED_EXAMPLES) <= titles


def test_the_file_is_what_the_builder_writes() -> None:
    folder = FOLDER
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(
            "build_casino_library", folder / "build_casino_library.py"
        )
        assert spec is not None
        assert spec.loader is not None
        builder = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(builder)
        text = builder.library_text()
    finally:
        sys.path.remove(str(folder))
    assert LIBRARY_FILE.read_text(encoding="utf-8") == text
