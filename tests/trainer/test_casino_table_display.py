"""Scarne's Casino's table view model (trainer/games/casino/display.py) and its templates:
builds stacked with value and owner, a multiple build as its groups, the hidden hand as card
backs with a count, the piles taken, the deal, the card in question and the items its play
names; the answer form's composer, reasons and rulings in words; no internal name drawn."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from trainer.games.casino import display, page
from trainer.games.casino.keying import answer_key
from trainer.games.casino.presenting import CasinoPresenting

CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
INTERNAL = re.compile(
    r"non_dealer|is_legal|may_take|legal_plays|score_hand|rule_on|build_over_ten|loss_of_game"
    r"|not_in_hand|wrong_sum|\b(?:[2-9TJQKA][shdc])\b|\w\+\w"
)


def _key(doc_id: str) -> list[dict]:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    return answer_key(next(row for row in rows if row["id"] == doc_id))


def _visible(html: str) -> str:
    """What a person reads or hears: the text and the aria labels, not the fields' values."""
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', html))
    text = re.sub(r"<[^>]+>", " ", html)
    return f"{text} {labels}"


VIEW = {
    "deal": 3,
    "last": False,
    "turn": "non_dealer",
    "table": [
        {"key": "3h+6s", "kind": "single", "cards": ["6s", "3h"], "value": 9, "owner": "dealer"},
        {
            "key": "4c+5d+9h",
            "kind": "multiple",
            "cards": ["4c", "9h", "5d"],
            "value": 9,
            "owner": "non_dealer",
        },
        {"key": "Td", "kind": "card", "cards": ["Td"], "value": 10, "owner": None},
    ],
    "hands": {"non_dealer": ["9c", "4h"]},
    "held": {"non_dealer": 2, "dealer": 3},
    "taken": {"non_dealer": 5, "dealer": 1},
    "sweeps_scored": True,
    "sweeps": {"non_dealer": 1, "dealer": 0},
    "play": {"card": "9c", "take": ["3h+6s", "4c+5d+9h"]},
}


def test_builds_are_stacked_with_their_value_and_owner_and_a_multiple_build_as_groups():
    single, multiple, loose = display.felt_items(VIEW)
    assert single["title"] == "Building 9 — the dealer's"
    assert [c["label"] for c in single["groups"][0]] == ["6♠", "3♥"]
    assert multiple["title"] == "Building 9s, a multiple build — the non-dealer's"
    assert [[c["label"] for c in group] for group in multiple["groups"]] == [["4♣", "5♦"], ["9♥"]]
    assert (loose["build"], loose["title"]) == (False, "")
    assert loose["groups"] == [[display.card("Td")]]
    assert display.card("Td") | {"asked": False} == {
        "code": "Td",
        "rank": "10",
        "suit": "♦",
        "red": True,
        "label": "10♦",
        "hidden": False,
        "asked": False,
    }
    # The items the play names are marked; the loose ten is not.
    assert [item["named"] for item in (single, multiple, loose)] == [True, True, False]


def test_the_hand_shown_face_up_the_other_as_backs_with_a_count_and_the_piles():
    to_play, other = display.piles(VIEW)
    assert (to_play["name"], to_play["to_play"], other["name"], other["to_play"]) == (
        "Non-dealer",
        True,
        "Dealer",
        False,
    )
    assert [c["label"] for c in to_play["hand"]] == ["9♣", "4♥"]
    assert [c["asked"] for c in to_play["hand"]] == [True, False]  # the card played
    assert (to_play["hidden"], to_play["backs"]) == (0, [])
    assert (other["hand"], other["hidden"], len(other["backs"])) == ([], 3, 3)
    assert other["held_words"] == "3 cards in hand"
    assert (to_play["taken_words"], other["taken_words"]) == ("5 cards taken", "1 card taken")
    assert (to_play["sweeps_words"], other["sweeps_words"]) == ("1 sweep", "0 sweeps")
    assert display.piles({**VIEW, "sweeps_scored": False})[0]["sweeps"] is None


def test_the_deal_whose_turn_and_the_card_in_question():
    model = display.table_model(VIEW, prompt="Is this play legal?")
    assert (model["deal_words"], model["turn_words"]) == ("Deal 3 of 6", "Non-dealer to play")
    assert (model["asked_words"], model["asked_card"]["label"]) == ("Card played", "9♣")
    assert model["pickable"] is False
    last = display.table_model({**VIEW, "deal": 6, "last": True, "play": None, "card": "4h"})
    assert (last["deal_words"], last["asked_words"]) == ("Last deal (6 of 6)", "Card in question")


def test_the_scored_hand_shows_every_card_taken_and_no_turn():
    view = _key("score-last-take")[0]["view"]
    model = display.table_model(view)
    assert model["turn_words"] == "The hand is over"
    assert model["last_capturer"] == "the non-dealer"
    assert [p["to_play"] for p in model["players"]] == [False, False]
    assert len(model["players"][0]["taken_cards"]) == 17


@pytest.mark.parametrize(
    "doc_id",
    ["seed-multiple-nines-four-and-five", "raise-with-a-loose-six", "score-last-take", "rulings"],
)
def test_the_felt_and_the_answer_form_say_nothing_internal(doc_id):
    presenting = CasinoPresenting()
    for question in _key(doc_id):
        public = {"kind": question["kind"], "view": question["view"]}
        shown = presenting.table_page(public, None, parameters={}, posted=None)
        felt = render_to_string("games/casino/_table.html", shown)
        form = render_to_string("games/casino/_answer.html", shown)
        found = INTERNAL.search(
            _visible(felt)
            + _visible(
                re.sub(
                    r"<textarea.*?</textarea>|"
                    r'<p class="muted" id="casino-play-help">.*?</p>',
                    "",
                    form,
                    flags=re.S,
                )
            )
        )
        assert found is None, (doc_id, question["kind"], found.group(0) if found else "")
        assert 'data-game="casino"' in felt
        assert shown["game_scripts"] == ["js/casino-table.js"]
        # The pit's drill-down and an author's preview draw the same felt, never to pick.
        review = presenting.review_table(
            public, view=question["view"], answer_key=[], document=None
        )
        preview = presenting.table(public, None)
        for model in (review, preview):
            drawn = render_to_string("games/casino/_table.html", {"table": model})
            assert "<button" not in drawn
            assert "casino-item" in drawn or "Nothing on the table" in drawn


def test_items_are_buttons_to_pick_only_where_the_question_picks_them():
    shown = {
        kind: CasinoPresenting().table_page(
            {"kind": kind, "view": VIEW}, None, parameters={}, posted=None
        )
        for kind in ("may_take", "legal_plays", "is_legal")
    }
    assert [shown[kind]["table"]["pickable"] for kind in shown] == [True, True, False]
    felt = render_to_string("games/casino/_table.html", shown["may_take"])
    assert felt.count('aria-pressed="false"') == 3
    assert 'aria-label="Building 9 (6♠ 3♥), the dealer&#x27;s"' in felt
    # A play on the build says its value and its cards in rank order (js/casino-table.js).
    assert 'data-value="9" data-cards="3♥ 6♠"' in felt


def test_the_composer_offers_every_value_and_refills_a_refused_list_in_words():
    form = page.answer_form(
        {"kind": "legal_plays", "view": VIEW},
        {"plays": ["build 9 on 3h+6s with Td\ntrail", "take 3h+6s"]},
    )
    assert form["build_values"] == list(range(2, 11))
    assert [play["words"] for play in form["plays"]] == [
        "Add to the build of 9 (3♥ 6♠), with 10♦",
        "Trail",
        "Take building 9 (6♠ 3♥), the dealer's",
    ]
    assert [play["text"] for play in form["plays"]][1] == "trail"


def test_the_rulings_each_say_what_they_mean():
    said = {r["name"]: r["help"] for r in page.rulings()}
    assert said["Misdeal"] == "The same dealer deals again"
    assert said["Loss of game"] == "The offender loses, the opponent is credited 11 points"
    assert said["No penalty"] == ""


def test_an_authors_preview_draws_the_felt_from_the_view_alone():
    view = _key("raise-with-a-loose-six")[0]["view"]
    model = CasinoPresenting().table({"box": None, "hand": None, "view": view}, None)
    assert model["asked"] == ""
    drawn = render_to_string("games/casino/_table.html", {"table": model})
    assert "Building 5 — the dealer&#x27;s" in drawn
    assert "Card in question" in drawn
