"""End to end in Chromium (issue #24, found 8): a pit boss builds a round with the card
picker and the action buttons, places the cut card on the drawn shoe, previews it with the
placard the trainee will read, saves it, makes a drill of it and assigns the drill from its
own page. Each page passes axe and fits a phone at 390 and 320 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.accessibility import axe_violations, dangling_references, describe
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import Assignment, Drill, Scenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("authoring")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def accessible(page: Page) -> None:
    assert not axe_violations(page), describe(axe_violations(page))
    assert not dangling_references(page)


def pick(page: Page, rank: str, suit: str) -> None:
    page.get_by_role("group", name="Rank: choose one, then a suit").get_by_role(
        "button", name=rank, exact=True
    ).click()
    page.get_by_role("button", name=suit, exact=True).click()


def test_a_pit_boss_builds_a_round_with_the_picker_and_assigns_its_drill(
    live_server, page, artifacts, pit, pit_boss
):
    violations = csp_violations(page)
    base = live_server.url
    log_in(page, base, pit_boss.username)
    page.goto(f"{base}/teach/scenarios/new/")
    page.get_by_label("Title").fill("Nineteen stands against a dealer 17")
    page.get_by_label("Table").select_option(label="Six-deck shoe")
    page.get_by_label("Push").check()
    page.get_by_label("Box 1: stakes").fill("ana 10")
    # The host's action, from the buttons; the cards, from the picker, by keyboard too.
    page.get_by_label("Box", exact=True).select_option("1")
    page.get_by_role("group", name="Add the host's next action").get_by_role(
        "button", name="Stand"
    ).click()
    expect(page.get_by_label("Box 1: the host's actions")).to_have_value("stand")
    pick(page, "10", "spades")
    pick(page, "9", "hearts")
    pick(page, "9", "diamonds")
    page.get_by_role("button", name="8", exact=True).focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="clubs", exact=True).focus()
    page.keyboard.press("Enter")
    pick(page, "2", "clubs")
    expect(page.locator("#id_shoe")).to_have_value("10♠ 9♥ 9♦ 8♣ 2♣")
    shoe = page.locator("[data-drawn-shoe]")
    expect(shoe).to_contain_text("1. Box 1")
    expect(shoe).to_contain_text("2. Dealer's up card")
    expect(shoe).to_contain_text("4. Dealer's hole card")
    shoe.get_by_role("button", name="Cut card before card 5").click()
    expect(page.locator("#id_cut_card_before")).to_have_value("5")
    expect(shoe.get_by_role("button", name="Cut card before card 5")).to_have_attribute(
        "aria-pressed", "true"
    )
    # A rule changed for this round: the preview's placard shows it.
    page.get_by_label("Rule change 1", exact=True).select_option("blackjack_pays")
    page.get_by_label("Rule change 1: the round's value").fill("6:5")
    page.get_by_role("button", name="Preview").click()
    preview = page.get_by_role("region", name="Preview")
    expect(preview.locator(".placard")).to_contain_text("Blackjack pays 6 to 5")
    expect(preview.locator(".placard")).to_contain_text("Six-deck shoe")
    # The picker draws the shoe again from the field after the round trip.
    expect(page.locator("[data-drawn-shoe]")).to_contain_text("5. Drawn")
    page.screenshot(path=artifacts / "1-preview.png", full_page=True)
    accessible(page)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=artifacts / f"1-preview-{width}px.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 1280, "height": 900})

    page.get_by_role("button", name="Save to the library").click()
    expect(page.locator("h1")).to_have_text("Scenarios")
    scenario = Scenario.objects.get(title="Nineteen stands against a dealer 17")
    assert scenario.document["shoe"] == ["Ts", "9h", "9d", "8c", "2c"]
    assert scenario.document["cut_card_at"] == 4
    page.get_by_label("Title has the words").fill("nineteen")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("table.scenarios tbody tr")).to_have_count(1)
    accessible(page)

    page.goto(f"{base}/teach/drills/new/library/")
    page.get_by_role("checkbox", name="Nineteen stands against a dealer 17").check()
    page.locator("#id_title").fill("Nineteen at 6 to 5")
    page.get_by_role("button", name="Make the drill").click()
    expect(page.locator("h1")).to_have_text("Nineteen at 6 to 5")
    drill = Drill.objects.get(title="Nineteen at 6 to 5")
    expect(page.locator(".round-preview .placard")).to_contain_text("Blackjack pays 6 to 5")
    form = page.get_by_role("form", name="Assign this drill")
    form.get_by_label("Class").select_option(label="Morning")
    form.get_by_label("Mode").select_option("practice")
    form.get_by_label("Due on").fill("2030-05-01")
    page.screenshot(path=artifacts / "2-drill.png", full_page=True)
    accessible(page)
    form.get_by_role("button", name="Assign this drill").click()
    expect(page.locator("[data-assignment]")).to_have_count(1)
    assignment = Assignment.objects.get()
    assert (assignment.drill, assignment.training_class) == (drill, pit["mine"])
    assert assignment.assigned_by_id == pit_boss.pk
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=artifacts / f"3-assigned-{width}px.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert violations == []
