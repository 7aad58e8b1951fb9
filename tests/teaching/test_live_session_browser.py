"""End to end in Chromium: an instructor leads three trainees (three browser contexts,
as three tablets) through a class session to its end; axe on both screens; both screens
photographed at a projector's and a phone's width."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connections
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.accessibility import assert_accessible
from tests.audit.factories import TrainingClassFactory
from tests.browser import CHROMIUM, CHROMIUM_ARGS, artifacts_dir
from tests.factories import PASSWORD, UserFactory
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Attempt, AttemptStatus, Decision, LiveSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
            connections.close_all()


def signed_in(browser: Browser, base: str, username: str, width: int, height: int) -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/accounts/login" not in url)
    return page


def settle(page: Page, amount: str) -> None:
    page.locator("input[name=action][value=pay]").check()
    page.fill("#amount", amount)
    page.locator(".settle-submit").click()


def test_an_instructor_leads_three_trainees_to_the_end(live_server, browser, pit_boss):
    base = live_server.url
    people = [UserFactory(username=name, roles=["trainee"]) for name in ("tina", "tom", "tess")]
    TrainingClassFactory(name="Morning", trainees=people, instructors=[pit_boss])
    DrillFactory(title="Naturals", documents=[natural_document()])
    shots = artifacts_dir("live-session")

    boss = signed_in(browser, base, "boss", 1280, 900)
    boss.goto(f"{base}/teach/live/")
    boss.select_option("#id_training_class", label="Morning")
    boss.select_option("#id_drill", label="Naturals")
    boss.get_by_role("button", name="Start the session").click()
    expect(boss.locator(".live-code .code")).to_be_visible()
    session = LiveSession.objects.get()
    assert boss.locator(".live-code .code").inner_text() == session.code

    seats = []
    for person, width in zip(people, (1280, 390, 390), strict=True):
        seat = signed_in(browser, base, person.username, width, 844)
        seat.goto(f"{base}/train/")
        seat.get_by_role("button", name="Join the class session").click()
        expect(seat.get_by_role("heading", name="Wait for the question")).to_be_visible()
        seats.append(seat)
    expect(boss.locator("[data-live-field=joined]").first).to_have_text("3")
    assert_accessible(boss)

    boss.get_by_role("button", name="Open the question").click()
    for seat in seats:
        expect(seat.locator("#answer-form")).to_be_visible(timeout=10_000)
    assert_accessible(seats[0])
    seats[1].screenshot(path=str(shots / "seat-390-open.png"), full_page=True)
    settle(seats[0], "37.50")
    settle(seats[1], "37.50")
    settle(seats[2], "25")
    for seat in seats:
        expect(seat.locator(".live-mine")).to_contain_text("Your answer")
    expect(boss.locator("[data-live-field=answered]")).to_have_text("3", timeout=5_000)

    boss.get_by_role("button", name="Close answers").click()
    expect(boss.locator(".live-right")).to_contain_text("Right: 2 of 3")
    assert "tess" not in boss.locator(".live-counts").inner_text()
    for seat in seats:
        expect(seat.locator(".live-mine")).to_contain_text("Answers are closed", timeout=10_000)
    boss.get_by_role("button", name="Show the right answer").click()
    expect(boss.locator(".live-reveal")).to_contain_text("Pay 37.50")
    boss.screenshot(path=str(shots / "instructor-1280-revealed.png"), full_page=True)
    boss.set_viewport_size({"width": 390, "height": 844})
    boss.screenshot(path=str(shots / "instructor-390-revealed.png"), full_page=True)
    assert_accessible(boss)
    expect(seats[0].locator(".live-mine")).to_contain_text("you were right", timeout=10_000)
    expect(seats[2].locator(".live-mine")).to_contain_text("yours was not", timeout=10_000)
    seats[0].screenshot(path=str(shots / "seat-1280-revealed.png"), full_page=True)
    seats[2].screenshot(path=str(shots / "seat-390-revealed.png"), full_page=True)
    assert_accessible(seats[2])

    boss.get_by_role("button", name="End the session").click()
    boss.wait_for_load_state()
    boss.screenshot(path=str(shots / "after-end.png"), full_page=True)
    expect(boss.get_by_role("heading", level=1)).to_contain_text(
        "class session summary", timeout=15_000
    )
    assert_accessible(boss)  # the summary
    boss.screenshot(path=str(shots / "summary-390.png"), full_page=True)
    for seat in seats:
        expect(seat.get_by_role("heading", name="The class session has ended")).to_be_visible(
            timeout=10_000
        )
    seats[0].goto(f"{base}/train/live/")
    assert_accessible(seats[0])  # joining with a code
    assert Decision.objects.count() == 3
    assert set(Attempt.objects.values_list("status", flat=True)) == {AttemptStatus.SUBMITTED}
