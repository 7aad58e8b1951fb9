"""The trainee's table on a phone and from the keyboard (issue #24, found point 9).

- At 390 px and 320 px wide, on a settle question the felt's box in question, the question
  and the amount stay in view together (before, the amount's focus scrolled the felt off
  the screen), and the round's feedback fits the screen, its right/wrong column included.
- After House rules is opened, the letter and number keys still answer (before, they
  stopped silently), Escape brings the focus back to the question, and the change chip is
  on the placard.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, log_in
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    chip_document,
    natural_document,
)
from trainer.models import Decision, Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def three_boxes(doc_id: str = "three-boxes") -> dict:
    """casino-shoe, three boxes (a wide felt): box 1 wins, box 2 loses, box 3 busts."""
    return {
        "format": "blackjack-scenario/1",
        "id": doc_id,
        "title": "Three boxes",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 1, "stakes": [{"player": "p1", "amount": "25"}], "actions": ["stand"]},
            {"box": 2, "stakes": [{"player": "p2", "amount": "10"}], "actions": ["stand"]},
            {"box": 3, "stakes": [{"player": "p3", "amount": "5"}], "actions": ["hit"]},
        ],
        "shoe": ["Ts", "9h", "8d", "7c", "9s", "7h", "Kd", "Qc", "5s", "6h"],
        "cut_card_at": 60,
    }


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("phone-table")


def _within(page: Page, selector: str) -> dict:
    """The element's box and whether it lies wholly inside the viewport."""
    return page.locator(selector).first.evaluate(
        """e => { const r = e.getBoundingClientRect();
                  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                          inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                                  && r.right <= innerWidth}; }"""
    )


def _start(page: Page, base: str, username: str, title: str) -> None:
    log_in(page, base, username)
    page.goto(f"{base}/train/")
    page.locator("tr", has_text=title).get_by_role("button", name="Start").click()
    expect(page.locator("[data-shortcut-switch]")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 640)])
def test_on_a_phone_the_felt_and_the_question_stay_in_view(
    live_server, trainee, artifacts, width, height
):
    drill = DrillFactory(title="Three boxes", documents=[three_boxes()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    with chromium_page(viewport={"width": width, "height": height}) as page:
        _start(page, live_server.url, trainee.username, "Three boxes")
        # The dealer's hand first: the dealer stands on 17.
        page.get_by_role("button", name="Stand").click()
        expect(page.locator("#amount")).to_be_visible()
        settled = 0
        while page.locator("#amount").count():
            expect(page.locator("#q-prompt")).to_contain_text("Settle")
            page.screenshot(path=artifacts / f"settle-{width}px-{settled}.png")
            for selector in (".box.current", "#q-prompt", "#amount"):
                box = _within(page, selector)
                assert box["inside"], f"{selector} at {width}px is out of view: {box}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            if not settled:
                # The felt scrolls within itself here: it takes the focus (axe-core's
                # scrollable-region-focusable), and the page passes the WCAG checks.
                assert_accessible(page)
            page.keyboard.press("p")
            page.keyboard.type("10")
            page.keyboard.press("Enter")
            settled += 1
            expect(page.locator("#q-prompt, h1#feedback-title").first).to_be_visible()
            if page.locator("h1#feedback-title").count():
                break
        assert settled >= 2
        # The remaining questions of the round, until its feedback.
        while not page.locator("h1#feedback-title").count():
            page.locator(".answer-buttons button").first.click()
            page.wait_for_load_state()
        page.screenshot(path=artifacts / f"feedback-{width}px.png", full_page=True)
        assert_accessible(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # No table scrolled sideways inside its box either: every verdict is on the screen
        # as the page is read down (scrolled vertically only).
        for table in page.locator(".feedback table").all():
            sideways = table.evaluate("e => e.scrollWidth - e.clientWidth")
            assert sideways <= 0, f"the feedback scrolls {sideways}px sideways at {width}px"
        verdicts = page.locator(".verdict").all()
        assert verdicts
        for verdict in verdicts:
            box = verdict.evaluate(
                """e => { window.scrollTo(0, e.getBoundingClientRect().top + scrollY - 100);
                          const r = e.getBoundingClientRect();
                          return [r.left, r.right, r.top, r.bottom]; }"""
            )
            assert box[0] >= 0, f"a verdict at {width}px: {box}"
            assert box[1] <= width, f"a verdict at {width}px: {box}"
            assert 0 <= box[2] <= box[3] <= height, f"a verdict at {width}px: {box}"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 640)])
def test_on_a_phone_a_chip_question_keeps_the_box_and_the_question_in_view(
    live_server, trainee, artifacts, width, height
):
    drill = DrillFactory(title="Chips", documents=[chip_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    with chromium_page(viewport={"width": width, "height": height}) as page:
        _start(page, live_server.url, trainee.username, "Chips")
        expect(page.locator("[data-rack]")).to_be_visible()
        page.screenshot(path=artifacts / f"chips-{width}px.png")
        for selector in (".box.current", "#q-prompt"):
            box = _within(page, selector)
            assert box["inside"], f"{selector} at {width}px is out of view: {box}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # The stack built with the keys is drawn on the felt, in view above the question.
        for key in ("1", "2", "2", "4"):
            page.keyboard.press(key)
        expect(page.locator("[data-stack-drawn]")).to_be_visible()
        drawn = _within(page, "[data-stack-drawn]")
        felt = _within(page, ".felt")
        assert felt["top"] <= drawn["top"], (felt, drawn)
        assert drawn["bottom"] <= felt["bottom"], (felt, drawn)
        page.screenshot(path=artifacts / f"chips-{width}px-stack.png")


def test_keys_keep_answering_after_house_rules_is_opened(live_server, trainee, artifacts):
    drill = DrillFactory(title="Naturals", documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    with chromium_page(viewport={"width": 1024, "height": 900}) as page:
        _start(page, live_server.url, trainee.username, "Naturals")
        # The change chip is on the placard, not only behind House rules.
        expect(page.locator(".placard")).to_contain_text(
            "Blackjack winnings rounded down to the 0.50 chip"
        )
        page.get_by_text("House rules").click()
        expect(page.locator(".house-rules")).to_be_visible()
        page.screenshot(path=artifacts / "house-rules-open.png")
        # A letter and the digits from the opened House rules: Pay, 37.50, Enter settles.
        page.keyboard.press("p")
        expect(page.locator("input[name=action][value=pay]")).to_be_checked()
        page.keyboard.type("37.50")
        expect(page.locator("#amount")).to_have_value("37.50")
        page.keyboard.press("Enter")
        expect(page.locator("#q-prompt")).to_contain_text("Reshuffle or continue?")
        assert Decision.objects.get(question=1).answer == {"action": "pay", "amount": "37.50"}

        # Opened again, and a procedure answer by its letter.
        page.get_by_text("House rules").click()
        page.keyboard.press("c")
        expect(page.locator("h1#feedback-title")).to_be_visible()
        assert Decision.objects.filter(question=2).exists()


def test_escape_brings_the_keys_back_and_a_key_elsewhere_says_why(live_server, trainee, artifacts):
    drill = DrillFactory(title="Naturals", documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    with chromium_page(viewport={"width": 1024, "height": 900}) as page:
        _start(page, live_server.url, trainee.username, "Naturals")
        # A key on a link elsewhere on the page answers nothing, and the page says why.
        page.locator(".site-header a").first.focus()
        page.keyboard.press("p")
        expect(page.locator("[data-keys-hint]")).to_contain_text("press Esc")
        expect(page.locator("input[name=action][value=pay]")).not_to_be_checked()
        page.keyboard.press("Escape")
        expect(page.locator("#q-prompt")).to_be_focused()
        expect(page.locator("[data-keys-hint]")).to_have_text("")
        page.keyboard.press("p")
        expect(page.locator("input[name=action][value=pay]")).to_be_checked()
