"""A pit boss's week in Chromium, on the demo data, with no shell and no /admin/ (issue #24):
the dashboard counts the mistakes waiting; the review queue takes them oldest first, "Mark
reviewed and next" stepping from one to the next under the queue's filters; the trainee's
record opens section by section; the ready sitting is signed on the sign-off page, a wrong
password refused at the form first. axe checks each new page and no page breaks the CSP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from audit.models import Certification, Review
from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("review-week")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def checked(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    assert_accessible(page)


def waiting(page: Page) -> int:
    return int(page.locator("#waiting").inner_text())


def test_the_demo_pit_boss_works_the_week_in_the_browser(live_server, page, artifacts, settings):
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    call_command("setup_demo_history", verbosity=0)
    settings.ENVIRONMENT = "test"
    base = live_server.url
    violations = csp_violations(page)

    # The dashboard says what waits, and leads to the queue.
    log_in(page, base, "pitboss", DEMO_PASSWORD)
    page.get_by_role("link", name="Pit", exact=True).click()
    waited = waiting(page)
    assert waited > 2
    page.get_by_role("link", name="Open the review queue").click()
    expect(page.locator("h1")).to_have_text("Review queue")
    assert waiting(page) == waited
    checked(page, artifacts, "1-queue")

    # The oldest first; "Mark reviewed and next" goes on to the next one.
    page.get_by_role("link", name="Review the oldest").click()
    first = page.url
    page.fill("textarea[name=comment]", "Count the payout twice before you pay.")
    page.get_by_role("button", name="Mark reviewed and next").click()
    expect(page.locator(".messages .success")).to_contain_text("Review recorded")
    assert page.url != first
    assert "from=queue" in page.url
    checked(page, artifacts, "2-next-mistake")
    page.fill("textarea[name=comment]", "The dealer stands on all 17s here.")
    page.get_by_role("button", name="Mark reviewed and next").click()
    expect(page.locator(".messages .success")).to_contain_text("Review recorded")
    assert Review.objects.count() == 2

    # Filtered by a skill, the next one stays within it.
    page.get_by_role("link", name="← Review queue").click()
    page.select_option("select[name=skill]", "natural-3to2")
    page.get_by_role("button", name="Filter").click()
    narrowed = waiting(page)
    assert 0 < narrowed < waited - 2
    page.get_by_role("link", name="Review the oldest").click()
    assert "skill=natural-3to2" in page.url
    page.fill("textarea[name=comment]", "A natural pays 3 to 2.")
    page.get_by_role("button", name="Mark reviewed and next").click()
    assert "skill=natural-3to2" in page.url
    page.goto(f"{base}/pit/")
    assert waiting(page) == waited - 3

    # The trainee's record, section by section.
    page.locator("[data-trainee=trainee] a").first.click()
    expect(page.locator("h1")).to_contain_text("Terry Trainee")
    checked(page, artifacts, "3-overview")
    for section in ("Mistakes", "Retraining", "Certification"):
        page.get_by_role("link", name=section, exact=True).click()
        expect(page.get_by_role("link", name=section, exact=True)).to_have_attribute(
            "aria-current", "page"
        )
        checked(page, artifacts, f"4-{section.lower()}")
    assert page.evaluate("document.documentElement.scrollHeight") < 3000

    # The ready sitting, chosen already, signed on its own page.
    page.get_by_role("link", name="Sign off a certification").click()
    form = page.locator("#sign-off")
    ready = form.locator("select[name=attempt]").input_value()
    assert ready
    expect(page.locator("#ready")).to_contain_text("Six-deck shoe")
    form.locator("input[name=password]").fill("not-my-password")
    form.locator("button[type=submit]").click()
    expect(page.locator("#sign-off-refused")).to_be_visible()
    expect(page.locator("#sign_password_error")).to_contain_text("nothing was signed")
    # The refusal is in view with the form, not thousands of pixels above it.
    box = page.locator("#sign_password_error").bounding_box()
    assert box is not None
    assert box["y"] < 1500
    checked(page, artifacts, "5-sign-off-refused")
    form = page.locator("#sign-off")
    assert form.locator("select[name=attempt]").input_value() == ready
    form.locator("input[name=password]").fill(DEMO_PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text("certified to deal Six-deck shoe")
    checked(page, artifacts, "6-signed")
    signed = Certification.objects.get(attempt_id=int(ready))
    assert signed.signed_by.username == "pitboss"
    assert re.search(r"/pit/trainees/\d+/certification/$", page.url)
    assert violations == []
