"""A play on a build in a dealer's words (issue #26): "Raise the 5 build (2♣ 3♥) to 6" for a
new value, "Add to the build of 9 (3♥ 6♠)" for its own; the composer (js/casino-table.js),
a refused form's list, the feedback and the records say every written play alike, and an
answer stored in the grammar reads and grades as it did."""

from __future__ import annotations

import pytest

from trainer.games.casino import CASINO, grammar, words

B5 = "2c+3h"  # a single build of 5
B9 = "3h+6s"  # a single build of 9
NINES = "3h+6s+9c"  # a multiple build of 9s
SEVENS = "3d+4s+7c"  # a multiple build of 7s
FOURS = "4s+4h"  # two fours: a multiple build of 4s, or a single 8


@pytest.mark.parametrize(
    ("text", "values", "said"),
    [
        ("take 7h 3h+6s", None, "Take the build (3♥ 6♠) and 7♥"),
        ("build 9 with 2d 6s", None, "Build 9 with 2♦ and 6♠"),
        ("trail", None, "Trail"),
        # A single build raised: its value read from its cards, or the table's.
        (f"build 6 on {B5}", None, "Raise the 5 build (2♣ 3♥) to 6"),
        (f"build 6 on {B5}", {B5: 5}, "Raise the 5 build (2♣ 3♥) to 6"),
        (f"build 8 on {B5} with 2d", None, "Raise the 5 build (2♣ 3♥) to 8, with 2♦"),
        # Added to at its own value: a single build made multiple, a multiple build.
        (f"build 9 on {B9}", None, "Add to the build of 9 (3♥ 6♠)"),
        (f"build 9 on {B9} with 5d", {B9: 9}, "Add to the build of 9 (3♥ 6♠), with 5♦"),
        (f"build 9 on {NINES}", None, "Add to the build of 9 (3♥ 6♠ 9♣)"),
        (f"build 4 on {FOURS}", {FOURS: 4}, "Add to the build of 4 (4♠ 4♥)"),
        (f"build 4 on {FOURS}", None, "Add to the build of 4 (4♠ 4♥)"),
        # A multiple build cannot be raised (illegal): said as what was played.
        (f"build 8 on {SEVENS}", {SEVENS: 7}, "Raise the 7 build (3♦ 4♠ 7♣) to 8"),
        (f"build 8 on {SEVENS}", None, "Raise the build (3♦ 4♠ 7♣) to 8"),
        (f"build 9 on {FOURS}", {FOURS: 4}, "Raise the 4 build (4♠ 4♥) to 9"),
        (f"build 11 on {B5}", None, "Raise the 5 build (2♣ 3♥) to 11"),
    ],
)
def test_a_written_play_in_a_dealers_words(text, values, said):
    assert words.written_play_words(grammar.parse_play(text, field="plays"), None, values) == said


def test_the_items_built_with_are_named_as_the_table_shows_them():
    names = {"Td": "10♦", B9: "building 9 (6♠ 3♥), the dealer's"}
    said = words.written_play_words(f"build 9 on {B9} with Td", names, {B9: 9})
    assert said == "Add to the build of 9 (3♥ 6♠), with 10♦"


@pytest.mark.parametrize(
    ("key", "announced", "value"),
    [
        (B5, 6, 5),
        (B9, 9, 9),
        (NINES, 9, 9),
        (SEVENS, 8, None),
        (FOURS, 4, 4),
        (FOURS, 9, 8),
        ("As+Ah", 1, 1),
        ("As+Ah", 2, 2),
    ],
)
def test_a_builds_value_is_read_from_its_cards_as_a_legal_play_reads_it(key, announced, value):
    assert words.build_value(key, announced) == value


def test_an_answer_stored_in_the_grammar_reads_and_grades_as_before():
    stored = {"plays": ["build 6 on 2c+3h", "build 9 on 3h+6s with 5d"]}
    typed = {"plays": ["build 6 on 3h+2c", "build 9 on 6s+3h with 5d"]}
    parsed = CASINO.parse_answer("legal_plays", typed, document={})
    assert sorted(parsed["plays"]) == sorted(stored["plays"])
    expected = {"plays": [{"card": "Ad", "build": 6, "on": "2c+3h", "with": []}]}
    question = {"kind": "legal_plays", "expected": expected}
    assert CASINO.compare(question, {"plays": [stored["plays"][0]]}).right
    assert CASINO.answer_words(stored) == (
        "Raise the 5 build (2♣ 3♥) to 6; Add to the build of 9 (3♥ 6♠), with 5♦"
    )


@pytest.mark.parametrize(
    ("play", "values", "said"),
    [
        (
            {"card": "Ad", "build": 6, "on": B5, "with": []},
            {B5: 5},
            "A♦ raises the build (2♣ 3♥) to 6",
        ),
        ({"card": "9h", "build": 9, "on": B9, "with": []}, None, "9♥ adds to the build (3♥ 6♠)"),
        (
            {"card": "4c", "build": 9, "on": B9, "with": ["5d"]},
            {B9: 9},
            "4♣ adds to the build (3♥ 6♠), with 5♦",
        ),
        (
            {"card": "Ah", "build": 8, "on": SEVENS, "with": []},
            {SEVENS: 7},
            "A♥ raises the build (3♦ 4♠ 7♣) to 8",
        ),
        ({"card": "Ah", "build": 9, "with": ["8c"]}, None, "A♥ builds 9 with 8♣"),
    ],
)
def test_a_questions_play_on_a_build_is_asked_in_a_dealers_words(play, values, said):
    assert words.play_words(play, None, values) == said
