"""In Chromium: the table's markers as a trainee sees them (surrender, double, split, cut card,
insurance, even money, 7-7-7, shared box, bust), each in words, under the CSP; screenshots in
test-artifacts/table-markers/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.audit.factories import TrainingClassFactory
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in, through_briefing
from tests.factories import PASSWORD
from tests.trainer.factories import AssignmentFactory, DrillFactory
from tests.trainer.test_table_browser import graded
from trainer.models import Attempt, Grade, Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def every_marker() -> dict[str, Any]:
    """european-enhc-6deck (7-7-7 prize, even money, double after split), dealer's ace up.
    Questions: 1 offer insurance, 2 offer even money (box 2), 3 pay even money, 4 dealer
    stands on soft 17, 5 box 5 (doubled 11), 6 box 4 (bust), 7 box 4's insurance, 8 box 3
    (7-7-7), 9 its prize, 10-13 box 1 (shared by host and guest, split, hand 1 doubled),
    14 reshuffle (the cut card came out)."""
    return {
        "format": "blackjack-scenario/1",
        "id": "markers-every-marker",
        "title": "Every marker on one table",
        "rules": "european-enhc-6deck",
        "boxes": [
            {
                "box": 1,
                "stakes": [
                    {"player": "host", "amount": "20"},
                    {"player": "guest", "amount": "10"},
                ],
                "actions": ["split", "double", "stand"],
            },
            {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "even_money": ["p2"]},
            {"box": 3, "stakes": [{"player": "p3", "amount": "10"}], "actions": ["hit"]},
            {
                "box": 4,
                "stakes": [{"player": "p4", "amount": "20"}],
                "insurance": {"p4": "10"},
                "actions": ["hit"],
            },
            {"box": 5, "stakes": [{"player": "p5", "amount": "15"}], "actions": ["double"]},
        ],
        "burn": ["4c"],
        "shoe": [
            *("8h", "As", "7h", "Ts", "6c", "Ac", "8d", "Kd", "7d", "6s", "5d"),
            *("3c", "Th", "9s", "7s", "Kh", "9h", "6h", "2c", "5s"),
        ],
        "cut_card_at": 15,
    }


def a_surrender() -> dict[str, Any]:
    """casino-shoe: box 2 surrenders 16 against a ten. Questions: 1 peek, 2 dealer stands,
    3 box 4, 4 box 2 (surrendered: take half 10.00), 5 continue (no cut card reached)."""
    return {
        "format": "blackjack-scenario/1",
        "id": "markers-surrender",
        "title": "A late surrender",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 2, "stakes": [{"player": "p1", "amount": "20"}], "actions": ["surrender"]},
            {"box": 4, "stakes": [{"player": "p2", "amount": "15"}], "actions": ["stand"]},
        ],
        "shoe": ["Ts", "9c", "Th", "6s", "9d", "7c"],
    }


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("table-markers")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 1000}) as page:
        yield page


def question_number(page: Page) -> tuple[int, int]:
    """The round and question on screen, from the page's title."""
    expect(page.locator("#q-prompt")).to_be_visible()
    found = re.match(r"Round (\d+), question (\d+)", page.title())
    assert found, page.title()
    return int(found[1]), int(found[2])


def answer_anything(page: Page) -> None:
    """An exam says nothing until graded: any answer moves the table on."""
    before = page.title()
    if page.locator("button.settle-submit").count():
        page.locator("#q-prompt").focus()
        page.keyboard.press("u")  # push: moves no money, so needs no amount
        page.click("button.settle-submit")
    else:
        page.locator("button.answer").first.click()
    expect(page).not_to_have_title(before)


def box(page: Page, number: int) -> Locator:
    return page.locator(f".box[data-box='{number}']")


def test_every_marker_is_on_the_trainees_table_in_words(
    live_server, page, artifacts, trainee, pit_boss, celery_worker
):
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    drill = DrillFactory(title="Markers", documents=[every_marker(), a_surrender()])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    refused = csp_violations(page)
    page.goto(f"{live_server.url}/accounts/login/?next=/train/")
    page.fill("#id_username", trainee.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.locator("tr", has_text="Markers").get_by_role("button", name="Start").click()
    through_briefing(page)
    felt = page.locator(".felt")
    seen: set[tuple[int, int]] = set()

    while True:
        if page.locator("h1", has_text="Every question is answered").count():
            break
        at = question_number(page)
        seen.add(at)
        if at == (1, 3):  # paying even money on box 2's natural
            expect(box(page, 2).locator(".marker-blackjack")).to_have_text(re.compile("Blackjack"))
            expect(box(page, 2).locator(".even-money")).to_contain_text("Even money taken")
            expect(box(page, 2).locator(".even-money")).to_contain_text("25.00")
            box(page, 2).screenshot(path=artifacts / "even-money.png")
        if at == (1, 5):  # every hand played: the whole table, for the trainee guide
            felt.screenshot(path=artifacts / "table.png")
            expect(box(page, 1).locator(".hand")).to_have_count(2)
            expect(box(page, 1).locator(".hand-name")).to_have_text(["Hand 1", "Hand 2"])
            expect(box(page, 1).locator(".marker-split")).to_have_count(2)
            expect(box(page, 2).locator(".even-money")).to_contain_text("Even money paid")
            expect(box(page, 4).locator(".marker-bust")).to_contain_text("bust: over 21")
            box(page, 4).screenshot(path=artifacts / "bust.png")
            shoe = page.locator(".shoe")
            expect(shoe).to_contain_text("Burned: 1 card")
        if at == (1, 7):  # box 4's insurance, settled after the box's hands (no hole card)
            expect(box(page, 4).locator(".insurance")).to_contain_text("Seat 4 insured for 10.00")
            box(page, 4).screenshot(path=artifacts / "insurance.png")
        if at == (1, 9):
            expect(box(page, 3).locator(".marker-sevens")).to_contain_text("7-7-7")
            expect(box(page, 3).locator(".marker-sevens")).to_contain_text("three sevens")
            box(page, 3).screenshot(path=artifacts / "prize.png")
        if at == (1, 10):  # box 1: shared, split, hand 1 doubled
            hand = box(page, 1).locator(".hand[data-hand='1']")
            expect(hand.locator(".marker-doubled")).to_contain_text("Doubled")
            expect(hand.locator(".double-card")).to_contain_text("dealt sideways on the double")
            # The host is "Seat 1", the guest "Seat 1, second player" (the dealer's names).
            host, guest = hand.locator(".stake").nth(0), hand.locator(".stake").nth(1)
            expect(host.locator(".player")).to_have_text("Seat 1")
            expect(guest.locator(".player")).to_have_text("Seat 1, second player")
            expect(host.locator(".stack")).to_have_count(2)
            expect(host).to_contain_text("(20.00 + 20.00 double)")
            expect(guest).to_contain_text("(10.00 + 10.00 double)")
            # The double's card lies across the hand: drawn wider than it is tall.
            turned = hand.locator(".double-card .playing-card").bounding_box()
            upright = hand.locator(".playing-card").first.bounding_box()
            assert turned is not None
            assert upright is not None
            assert turned["width"] > turned["height"]
            assert upright["width"] < upright["height"]
            box(page, 1).screenshot(path=artifacts / "double-split-shared-box.png")
        if at == (1, 14):
            shoe = page.locator(".shoe")
            expect(shoe).to_have_class(re.compile("cut-out"))
            expect(shoe).to_contain_text("Cut card came out this round (it lay after card 15)")
            expect(shoe).to_contain_text("Dealt this round: 18 cards")
            page.locator(".dealer").screenshot(path=artifacts / "cut-card.png")
        if at == (2, 4):  # the surrendered 16: take half
            hand = box(page, 2).locator(".hand")
            expect(hand.locator(".marker-surrender")).to_contain_text("Surrender")
            expect(hand).to_contain_text("surrendered: the player gave up the hand")
            expect(hand.locator(".stake-amount")).to_have_text("20.00")
            felt.screenshot(path=artifacts / "surrender.png")
        if at == (2, 5):
            expect(page.locator(".shoe")).to_contain_text("Cut card still in the shoe")
        answer_anything(page)

    assert {(1, n) for n in (3, 5, 7, 9, 10, 14)} | {(2, 4), (2, 5)} <= seen

    # The pit's drill-down of the surrendered hand draws the same table.
    page.get_by_role("button", name="Submit for grading").click()
    attempt = Attempt.objects.get()
    assert graded(attempt.pk)
    grade = Grade.objects.get(item__position=2, question=4)
    page.context.clear_cookies()
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/grades/{grade.pk}/")
    surrendered = page.locator(".felt .box[data-box='2'] .hand")
    expect(surrendered.locator(".marker-surrender")).to_contain_text("Surrender")
    expect(page.locator(".felt .shoe")).to_contain_text("Cut card still in the shoe")
    page.locator(".felt").screenshot(path=artifacts / "pit-drill-down-surrender.png")
    assert refused == []
