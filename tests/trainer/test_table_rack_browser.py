"""End to end in Chromium: a trainee pays a 3:2 natural on 25 in chips from the rack and
colours up a pile, by mouse and by keyboard alone; the stacks land in the database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page
from tests.trainer.factories import AssignmentFactory, DrillFactory, chip_document
from tests.trainer.test_table_browser import log_in, prompt, start
from trainer.models import Decision, Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# casino-shoe's rack, largest first, and each chip's key.
KEYS = {"500": "1", "100": "2", "25": "3", "5": "4", "2.50": "5", "1": "6", "0.50": "7"}


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("table")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1024, "height": 900}) as page:
        yield page


def said(page: Page) -> str:
    return page.locator("[data-stack-said]").inner_text()


def test_a_trainee_pays_a_natural_in_chips_and_colours_up_by_mouse(
    live_server, page, artifacts, trainee
):
    drill = DrillFactory(title="Chips", documents=[chip_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    log_in(page, live_server.url, trainee.username)
    start(page, "Chips")

    prompt(page, "Pay it in chips from the rack")
    expect(page.locator(".placard")).to_contain_text("Paid in the fewest chips")
    expect(page.locator(".chip-target")).to_contain_text("A dealer pays this in 8 s")
    # The script's rack replaces the count fields.
    expect(page.locator("[data-chip-counts]")).to_be_hidden()
    expect(page.locator(".rack-chip")).to_have_count(7)
    page.locator("label.action-choice", has_text="Pay").click()
    page.click("button[data-rack-chip='25']")
    page.click("button[data-rack-chip='5']")
    page.click("button[data-rack-chip='1']")  # a slip: taken back
    expect(page.locator(".paid-stack .mini-chip")).to_have_count(3)
    page.get_by_role("button", name="Undo").click()
    page.keyboard.press(KEYS["5"])  # the keys work alongside the mouse
    page.click("button[data-rack-chip='2.50']")
    assert said(page) == "Your stack: 25, 5, 5, 2.50 — 37.50 in 4 chips"
    expect(page.locator(".paid-stack .mini-chip")).to_have_count(4)
    expect(page.locator(".paid-stack .chip-green")).to_have_count(1)
    expect(page.locator("[data-stack-caption]")).to_have_text("Your stack: 37.50 in 4 chips")
    assert_accessible(page)
    page.screenshot(path=artifacts / "trainee-table-chips.png", full_page=True)
    page.get_by_role("button", name="Pay", exact=False).filter(has_text="Enter").click()

    prompt(page, "leaves the table with 6 × 5, 6 × 1 (36.00). Colour up.")
    expect(page.locator(".pile .stack-chip")).to_have_count(12)
    expect(page.locator(".chip-target")).to_contain_text("A dealer colours this up in 10 s")
    for chip in ("25", "5", "5", "1"):
        page.click(f"button[data-rack-chip='{chip}']")
    page.screenshot(path=artifacts / "trainee-table-colour-up.png", full_page=True)
    page.get_by_role("button", name="Colour up").filter(has_text="Enter").click()
    prompt(page, "Reshuffle or continue?")
    page.keyboard.press("c")
    expect(page.locator("h1")).to_contain_text("3 of 3 right")
    page.screenshot(path=artifacts / "trainee-feedback-chips.png", full_page=True)

    decisions = list(Decision.objects.order_by("question"))
    assert decisions[0].answer == {
        "action": "pay",
        "amount": "37.50",
        "chips": ["25", "5", "5", "2.50"],
    }
    assert decisions[1].answer == {"amount": "36.00", "chips": ["25", "5", "5", "1"]}


def test_the_rack_by_keyboard_alone_and_right_money_in_the_wrong_chips(
    live_server, page, artifacts, trainee
):
    drill = DrillFactory(title="Chips", documents=[chip_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    log_in(page, live_server.url, trainee.username)
    start(page, "Chips")

    prompt(page, "Pay it in chips from the rack")
    # Every chip is a button in the Tab order: Space on one adds it, as a click does.
    page.locator("#q-prompt").focus()
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.rackChip") == "500":
            break
    page.keyboard.press("Space")
    assert said(page).startswith("Your stack: 500 —")
    page.keyboard.press("Backspace")
    assert said(page) == "Your stack: no chips yet"
    page.keyboard.press("p")
    # Right money in the wrong chips: seven reds and a 2.50.
    for _ in range(7):
        page.keyboard.press(KEYS["5"])
    page.keyboard.press(KEYS["2.50"])
    assert said(page).endswith("37.50 in 8 chips")
    page.keyboard.press("Enter")

    prompt(page, "Colour up.")
    for chip in ("25", "5", "5", "0.50"):
        page.keyboard.press(KEYS[chip])
    page.keyboard.press("u")  # undo the slip
    page.keyboard.press(KEYS["1"])
    assert said(page) == "Your stack: 25, 5, 5, 1 — 36.00 in 4 chips"
    page.keyboard.press("x")
    assert said(page) == "Your stack: no chips yet"
    for chip in ("25", "5", "5", "1"):
        page.keyboard.press(KEYS[chip])
    page.keyboard.press("Enter")
    prompt(page, "Reshuffle or continue?")
    page.keyboard.press("c")

    expect(page.locator("h1")).to_contain_text("2 of 3 right")
    wrong = page.locator("tr.wrong")
    expect(wrong).to_have_count(1)
    expect(wrong).to_contain_text("Right money, wrong chips")
    expect(wrong).to_contain_text("Pay 37.50 in 25 + 5 + 5 + 2.50")
    expect(wrong.locator(".mini-chip")).to_have_count(12)  # 8 given, 4 expected
    assert_accessible(page)
    page.screenshot(path=artifacts / "trainee-feedback-wrong-chips.png", full_page=True)
    answers = [d.answer for d in Decision.objects.order_by("question")]
    assert answers[0]["chips"] == ["5"] * 7 + ["2.50"]


def test_letter_keys_off_leave_the_rack_to_tab_and_space(live_server, page, trainee):
    drill = DrillFactory(title="Chips", documents=[chip_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    log_in(page, live_server.url, trainee.username)
    start(page, "Chips")
    prompt(page, "Pay it in chips from the rack")
    page.locator("#letter-keys").uncheck()
    page.locator("#q-prompt").focus()
    page.keyboard.press(KEYS["25"])
    assert said(page) == "Your stack: no chips yet"
    page.locator("button[data-rack-chip='25']").focus()
    page.keyboard.press("Space")
    assert said(page) == "Your stack: 25 — 25.00 in 1 chip"


def test_without_javascript_the_rack_is_a_count_per_chip(live_server, artifacts, trainee):
    drill = DrillFactory(title="Chips", documents=[chip_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    with chromium_page(viewport={"width": 1024, "height": 900}, java_script_enabled=False) as page:
        log_in(page, live_server.url, trainee.username)
        page.locator("tr", has_text="Chips").get_by_role("button", name="Start").click()
        expect(page.locator("#q-prompt")).to_contain_text("Pay it in chips from the rack")
        expect(page.locator("[data-rack]")).to_be_hidden()
        page.locator("input[name=action][value=pay]").check()
        page.get_by_label("How many 25s").fill("1")
        page.get_by_label("How many 5s").fill("-2")
        page.get_by_role("button", name="Pay", exact=False).filter(has_text="Enter").click()
        # The browser itself holds a negative count back (the server refuses one too).
        assert not page.get_by_label("How many 5s").evaluate("field => field.validity.valid")
        assert not Decision.objects.exists()
        page.screenshot(path=artifacts / "trainee-table-chips-no-script.png", full_page=True)
        page.locator("input[name=action][value=pay]").check()
        page.get_by_label("How many 5s").fill("2")
        page.get_by_label("How many 2.50s").fill("1")
        page.get_by_role("button", name="Pay", exact=False).filter(has_text="Enter").click()
        expect(page.locator("#q-prompt")).to_contain_text("Colour up.")
    assert Decision.objects.get().answer["chips"] == ["25", "5", "5", "2.50"]
