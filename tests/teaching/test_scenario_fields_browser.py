"""A Casino situation authored in Chromium, in a dealer's words (issue #26): the pit boss
opens the form from the library, sets the table (a build, the hands), asks whether the ace
may raise the five to six, meets a refusal at its field, previews the engine's answers and
saves. Only the fields the chosen question needs are shown; axe finds nothing; the form is
drawn at 1280 and at a phone's 390."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import Scenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_a_pit_boss_authors_a_casino_situation_in_a_dealers_words(live_server, pit_boss, page):
    shots = artifacts_dir("casino-author")
    refused = csp_violations(page)
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/teach/scenarios/")
    assert_accessible(page)
    page.get_by_role("link", name="Stage a Scarne's Casino situation").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stage a Scarne's Casino situation")
    # Nothing about a play or a penalty is asked before the question says so.
    first = page.get_by_role("group", name="Question 1")
    expect(first.get_by_label("What the card does")).to_be_visible()  # is this play legal?
    expect(first.get_by_label("What happened")).to_be_hidden()
    second = page.get_by_role("group", name="Question 2 (optional)")
    expect(second.get_by_label("The card played, or asked about")).to_be_hidden()
    page.screenshot(path=shots / "casino-form-1280.png", full_page=True)
    assert_accessible(page)

    page.get_by_label("Title").fill("The five raised to six")
    page.get_by_role("checkbox", name="Raising a build").check()
    page.get_by_label("Which deal").select_option(label="Deal 3 of 6")
    page.get_by_label("Whose turn").select_option(label="The non-dealer")
    page.get_by_label("Build 1: its cards").fill("3♥ 2♣")
    page.get_by_label("Build 1: the value announced").fill("5")
    page.get_by_label("Build 1: whose build").select_option(label="The dealer's")
    page.locator("#id_hand_non_dealer").fill("A♦ 6♥ 9♠ Q♣")
    # The picker follows the cards field entered and writes a dealer's words into it.
    page.locator("#id_hand_dealer").fill("5♦ 7♣ 8♣")
    page.locator("#id_hand_dealer").focus()
    picker = page.locator("[data-fields-picker]")
    expect(picker).to_contain_text("The picker adds to: Dealer: the hand.")
    picker.get_by_role("button", name="J", exact=True).click()
    picker.get_by_role("button", name="hearts").click()
    expect(page.locator("#id_hand_dealer")).to_have_value("5♦ 7♣ 8♣ J♥")
    question = page.get_by_role("group", name="Question 1")
    question.get_by_label("The question asked").select_option(
        label="Is this play legal? (and if not, why not)"
    )
    expect(question.get_by_label("What the card does")).to_be_visible()
    question.get_by_label("The card played, or asked about").fill("A♦")
    question.get_by_label("What the card does").select_option(label="Builds")
    question.get_by_label("The build it raises or adds to").select_option(label="Build 1")
    question.get_by_label("The value it announces (a build)").fill("6")
    second = page.get_by_role("group", name="Question 2 (optional)")
    second.get_by_label("The question asked").select_option(
        label="What may the player do with this card?"
    )
    second.get_by_label("The card played, or asked about").fill("2♦")  # not in the hand
    page.get_by_role("button", name="Preview").click()
    error = page.locator("#id_q2_card-error")
    expect(error).to_have_text("2♦ is not in the hand of the player to play")
    page.screenshot(path=shots / "casino-form-refused-1280.png", full_page=True)
    assert_accessible(page)

    page.get_by_role("group", name="Question 2 (optional)").get_by_label(
        "The card played, or asked about"
    ).fill("A♦")
    page.get_by_role("button", name="Preview").click()
    key = page.locator("details.answer-key")
    expect(key).to_contain_text("Legal")
    expect(key).to_contain_text("Raise the 5 build (2♣ 3♥) to 6")
    expect(page.locator(".casino-felt")).to_contain_text("Building 5")
    page.screenshot(path=shots / "casino-form-preview-1280.png", full_page=True)
    assert_accessible(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots / "casino-form-preview-390.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    page.set_viewport_size({"width": 1280, "height": 900})

    page.get_by_role("button", name="Save to the library").click()
    expect(page).to_have_url(f"{live_server.url}/teach/scenarios/")
    scenario = Scenario.objects.get()
    assert scenario.document["questions"][0]["play"] == {
        "card": "Ad",
        "build": 6,
        "on": "2c+3h",
        "with": [],
    }
    # It opens again filled in, at a phone's width too.
    page.goto(f"{live_server.url}/teach/scenarios/{scenario.pk}/edit/")
    expect(page.get_by_label("Build 1: its cards")).to_have_value("3♥ 2♣")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots / "casino-form-390.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    assert_accessible(page)
    assert refused == []
