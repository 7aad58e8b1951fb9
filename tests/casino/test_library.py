"""Casino's shipped library: every document valid, keyed by the engine, and each skill it
names exercised by a question that asks about it."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from trainer.games.casino.engine import REASONS, answer_key, read, value_of
from trainer.games.casino.engine.cards import is_court, rank_of
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.games.casino.engine.table import build_key
from trainer.games.casino.library import LIBRARY_FILES, library_documents

Doc = dict[str, Any]
SKILLS = (
    "capture-pair",
    "capture-sum",
    "court-cards",
    "single-build",
    "multiple-build",
    "raise-build",
    "trailing",
    "last-take",
    "scoring",
    "penalties",
    "misdeals",
)
PENALTY_SITUATIONS = {"faulty_build", "trail_owning_build", "last_not_announced", "looked_at_taken"}
MISDEAL_SITUATIONS = {"card_exposed", "face_up_in_pack", "wrong_number"}
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
    "Fours are not taken with an eight",
    "A king takes only one of two kings",
    "The fourth king takes the three on the table",
)

LIBRARY = library_documents()


def _loose(doc: Doc) -> list[str]:
    return [item for item in doc["table"] if isinstance(item, str)]


def _builds(doc: Doc) -> list[Doc]:
    return [item for item in doc["table"] if isinstance(item, dict)]


def _questions(doc: Doc) -> Iterator[tuple[Doc, dict[str, Any]]]:
    """Each question with its expected answer."""
    for question, key in zip(doc["questions"], answer_key(doc), strict=True):
        yield question, key["expected"]


def _plays(doc: Doc, kind: str) -> list[Doc]:
    """The plays of the is_legal questions of one kind (take, build, trail)."""
    return [q["play"] for q, _ in _questions(doc) if q["kind"] == "is_legal" and kind in q["play"]]


def _asked_cards(doc: Doc) -> list[str]:
    return [
        q["card"] if "card" in q else q["play"]["card"]
        for q in doc["questions"]
        if "card" in q or "play" in q
    ]


def _pairs(doc: Doc) -> bool:
    alone = any(
        (len(p["take"]) == 1 and p["take"][0] in _loose(doc))  # one card: its pair, or not
        or (p["take"] and all(rank_of(item) == rank_of(p["card"]) for item in p["take"]))
        for p in _plays(doc, "take")
    )
    ranks = {rank_of(card) for card in _loose(doc)}
    asked = [q["card"] for q in doc["questions"] if q["kind"] in ("may_take", "legal_plays")]
    return alone or any(not is_court(card) and rank_of(card) in ranks for card in asked)


def _sums(doc: Doc) -> bool:
    named = any(len(p["take"]) != 1 for p in _plays(doc, "take"))
    values = [value_of(card) for card in _loose(doc) if not is_court(card)]
    asked = [q["card"] for q in doc["questions"] if q["kind"] in ("may_take", "legal_plays")]
    return named or any(
        sum(group) == value_of(card)  # type: ignore[arg-type]
        for card in asked
        if not is_court(card)
        for size in range(2, len(values) + 1)
        for group in combinations(values, size)
    )


def _courts(doc: Doc) -> bool:
    named = [item for p in _plays(doc, "take") for item in p["take"]]
    return any(is_court(card) for card in [*_asked_cards(doc), *named])


def _single_builds(doc: Doc) -> bool:
    answered = any(
        "build" in play
        for q, got in _questions(doc)
        if q["kind"] == "legal_plays"
        for play in got["plays"]
    )
    return (
        answered or bool(_plays(doc, "build")) or any(b["kind"] == "single" for b in _builds(doc))
    )


def _key(cards: list[str]) -> str:
    return build_key(card for name in cards for card in name.split("+"))


def _build_total(doc: Doc, play: Doc) -> int:
    target = [
        b
        for b in _builds(doc)
        if "+".join(sorted(b["build"])) == "+".join(sorted(play.get("on", "").split("+")))
    ]
    cards = [play["card"], *play["with"], *(target[0]["build"] if target else [])]
    return sum(value_of(card) or 0 for card in cards)


def _multiple_builds(doc: Doc) -> bool:
    made = any(_build_total(doc, p) > p["build"] for p in _plays(doc, "build"))
    return made or any(b["kind"] == "multiple" for b in _builds(doc))


def _raises(doc: Doc) -> bool:
    on = {_key(b["build"]): b["value"] for b in _builds(doc)}
    asked = any("on" in p and p["build"] != on[_key([p["on"]])] for p in _plays(doc, "build"))
    answered = any(
        "on" in play and play["build"] != on[play["on"]]
        for q, got in _questions(doc)
        if q["kind"] == "legal_plays"
        for play in got["plays"]
    )
    return asked or answered


def _trails(doc: Doc) -> bool:
    refused = any(
        q["kind"] == "legal_plays" and all("trail" not in play for play in got["plays"])
        for q, got in _questions(doc)
    )
    only = any(
        q["kind"] == "legal_plays" and [play.get("trail") for play in got["plays"]] == [True]
        for q, got in _questions(doc)
    )
    ruled = any(
        q["kind"] == "rule_on" and q["situation"]["kind"] == "trail_owning_build"
        for q in doc["questions"]
    )
    return bool(_plays(doc, "trail")) or refused or only or ruled


def _last_take(doc: Doc) -> bool:
    scored = any(q["kind"] == "score_hand" for q in doc["questions"]) and bool(doc["table"])
    last_deal = doc["deal"] == 6 and any(q["kind"] != "score_hand" for q in doc["questions"])
    return scored or last_deal


def _situations(doc: Doc) -> set[str]:
    return {q["situation"]["kind"] for q in doc["questions"] if q["kind"] == "rule_on"}


def _forfeits(doc: Doc) -> bool:
    """A ruling that the offender loses the game (the penalty of a wrong count after play)."""
    return any(
        q["kind"] == "rule_on" and got["ruling"] == "loss_of_game" for q, got in _questions(doc)
    )


EXERCISES: dict[str, Callable[[Doc], bool]] = {
    "capture-pair": _pairs,
    "capture-sum": _sums,
    "court-cards": _courts,
    "single-build": _single_builds,
    "multiple-build": _multiple_builds,
    "raise-build": _raises,
    "trailing": _trails,
    "last-take": _last_take,
    "scoring": lambda doc: any(q["kind"] == "score_hand" for q in doc["questions"]),
    "penalties": lambda doc: bool(_situations(doc) & PENALTY_SITUATIONS) or _forfeits(doc),
    "misdeals": lambda doc: bool(_situations(doc) & MISDEAL_SITUATIONS),
}


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
    folder = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
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
    (path,) = LIBRARY_FILES
    assert path.read_text(encoding="utf-8") == text


def test_the_library_is_not_among_the_shells_fixture_files_yet() -> None:
    # the shell's load_library imports fixtures/scenarios/*.jsonl through the game seam;
    # Casino's format is read there once the game is wired (issue 26).
    folder = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
    assert not (folder / "scarne-casino.jsonl").exists()
