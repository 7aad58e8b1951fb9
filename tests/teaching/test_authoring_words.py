"""Authoring in a dealer's terms (issue #24, found 8): cards in rank and suit, actions as
said, the cut card counted from 1, the engine's refusals in words at the field, and the
preview showing the placard and house rules the trainee will see."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from teaching.web.workspace.authoring_words import (
    actions_from_words,
    card_code,
    error_words,
    ordinal,
)
from tests.graded import client_for
from tests.teaching.test_workspace_scenarios import staged
from trainer.models import Scenario

pytestmark = pytest.mark.django_db
TABLES = {"casino-shoe": "Six-deck shoe", "casino-single-deck-6to5": "Single deck"}


def field_error(text: str, field: str) -> str:
    found = re.search(rf'id="id_{field}-error">([^<]*)<', text)
    assert found, f"no error at {field}"
    return html.unescape(found.group(1))


def test_cards_are_read_in_rank_and_suit_as_picked_or_typed():
    assert [card_code(c) for c in ("A♥", "a♥", "10♦", "Ah", "10d", "tc", "K♣")] == [
        "Ah", "Ah", "Td", "Ah", "Td", "Tc", "Kc",
    ]  # fmt: skip
    assert card_code("Zz") is None
    assert card_code("11♥") is None
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
    ]  # fmt: skip


def test_actions_are_read_as_a_dealer_says_them():
    words = ["split", "double", "for", "10", "hit", "DOUBLE", "7.50", "stand"]
    assert actions_from_words(words) == ["split", "double:10", "hit", "double:7.50", "stand"]


@pytest.mark.parametrize(
    ("message", "reason", "want"),
    [
        (
            "shoe[6] is not a card: 'Zz'; cards are a rank A 2-9 T J Q K (or 10) and a suit",
            "bad_card",
            "The 7th card of the shoe ('Zz') is not a card: use a rank and a suit, e.g. 'A♥'",
        ),
        (
            "shoe[5] is Ah number 2, but casino-single-deck-6to5's 1 deck(s) hold only 1",
            "too_many_cards",
            "The 6th card of the shoe is A♥ number 2, but the table's one deck holds only one",
        ),
        (
            "the shoe ran out: card 10 was needed but the shoe holds 9",
            "shoe_exhausted",
            "The shoe runs out: the round needs a 10th card but the shoe holds 9",
        ),
        (
            "box 3: unknown action 'fly'; actions are hit, stand, double, split, surrender or "
            "double:AMOUNT",
            "unknown_action",
            "Box 3: 'fly' is not an action: use hit, stand, double, double for an amount",
        ),
        (
            "box 1: 'split' would make 5 hands; casino-shoe allows at most 4",
            "illegal_action",
            "Box 1: 'split' would make 5 hands; the Six-deck shoe table allows at most 4",
        ),
        (
            "box 2: hand 1 (Th 6d, 16) needs a decision but the actions ran out",
            "missing_action",
            "Box 2: hand 1 (10♥ 6♦, 16) needs a decision",
        ),
        (
            "box 1: boxes[0].stakes[0].amount must be a decimal string with at most 2 decimals "
            "and at most 13 digits, like \"12.50\"; got 'ten'",
            "bad_amount",
            "Box 1: the stake must be an amount in money with at most 2 decimals",
        ),
        (
            "rules.overrides.blackjack_pays: must be one of 3:2, 6:5, 1:1, not '7:5'",
            "bad_rule_value",
            "The value must be one of 3:2, 6:5, 1:1, not '7:5'",
        ),
        (
            "box 1: 1 action(s) left over ('hit'): the box's hands were finished",
            "actions_left_over",
            "Box 1: 1 action left over ('hit')",
        ),
        (
            "box 1: ana's stake 1 is below the minimum 5 of casino-shoe",
            "stake_below_min",
            "Box 1: ana's stake 1 is below the minimum 5 of the Six-deck shoe table",
        ),
        (
            "box 1: 'double:30' is more than the original stake",
            "illegal_action",
            "Box 1: 'double for 30' is more than",
        ),
    ],
)
def test_engine_refusals_are_rewritten_in_words(message, reason, want):
    said = error_words(message, reason=reason, tables=TABLES)
    assert said.startswith(want), said
    for internal in ("shoe[", "double:", "casino-", "AMOUNT", "(s)", "boxes[", "rules."):
        assert internal not in said


def test_a_bad_card_is_named_by_its_place_in_the_shoe_at_the_field(pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:scenario-new"), staged(shoe="T♠ 9♥ 7♦ 8♣ 3♥ K♦ Zz 4c Qh 9d")
    )
    assert response.status_code == 400
    said = field_error(response.content.decode(), "shoe")
    assert said == "The 7th card of the shoe ('Zz') is not a card: use a rank and a suit, e.g. 'A♥'"
    assert not Scenario.objects.exists()


def test_too_many_of_a_card_is_refused_in_words(pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:scenario-new"),
        staged(shoe="T♠ 9♥ 7♦ 8♣ 3♥ K♦ 5♠ 4♣ Q♥ " + " ".join(["A♥"] * 7)),
    )
    said = field_error(response.content.decode(), "shoe")
    assert said.startswith("The 16th card of the shoe is A♥ number 7, but the table's 6 decks")
    assert not Scenario.objects.exists()


def test_picked_cards_actions_in_words_and_a_cut_card_counted_from_one_are_saved(pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:scenario-new"),
        staged(shoe="T♠ 9♥ 7♦ 8♣ 3♥ K♦ 5♠ 4♣ Q♥ 9♦", burn="Q♥", cut_card_before="9"),
    )
    assert response.status_code == 302
    document = Scenario.objects.get().document
    assert document["shoe"] == ["Ts", "9h", "7d", "8c", "3h", "Kd", "5s", "4c", "Qh", "9d"]
    assert (document["burn"], document["cut_card_at"]) == (["Qh"], 8)


def test_the_cut_card_before_card_zero_is_refused_in_words(pit_boss):
    response = client_for(pit_boss).post(reverse("teach:scenario-new"), staged(cut_card_before="0"))
    assert response.status_code == 400
    assert "the first card is 1" in field_error(response.content.decode(), "cut_card_before")


def test_double_for_less_is_written_and_read_back_in_words(pit_boss):
    # Box 1 holds T♠ 8♣ = 18 against the dealer's 7: doubling for 5 on the 10 stake.
    client = client_for(pit_boss)
    response = client.post(
        reverse("teach:scenario-new"),
        staged(box_1_actions="double for 5", shoe="6♠ 9♥ 7♦ 5♣ 3♥ K♦ 5♠ 4♣ Q♥ 9♦ 2♣ 3♦ 4♥"),
    )
    assert response.status_code == 302, field_error(response.content.decode(), "box_1_actions")
    scenario = Scenario.objects.get()
    assert scenario.document["boxes"][0]["actions"] == ["double:5"]
    page = client.get(reverse("teach:scenario-edit", kwargs={"scenario_id": scenario.pk}))
    text = page.content.decode()
    assert 'value="double for 5"' in text
    assert "6♠ 9♥ 7♦" in text


def test_the_preview_shows_the_placard_and_house_rules_with_the_rounds_rule_change(pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:scenario-new"),
        staged(action="preview", rule_1_name="blackjack_pays", rule_1_value="6:5"),
    )
    text = response.content.decode()
    assert response.status_code == 200
    placard = re.search(r'<p class="placard">(.*?)</p>', text, re.S)
    assert placard
    assert "Blackjack pays 6 to 5" in placard.group(1)
    assert "Six-deck shoe" in placard.group(1)
    assert "House rules" in text
    assert 'class="house-rules"' in text
    assert "casino-shoe" not in text.split("<main", 1)[-1].split("</main>", 1)[0]


def test_a_trainee_never_reaches_the_authoring_page_or_its_preview(trainee):
    client = client_for(trainee)
    assert client.get(reverse("teach:scenario-new")).status_code in (302, 403)
    response = client.post(reverse("teach:scenario-new"), staged(action="preview"))
    assert response.status_code in (302, 403)
    assert "Answer key" not in response.content.decode()
