"""In Chromium: the pages still work under the Content-Security-Policy (the table's script
runs, the pit's charts keep their colours, the API docs start), with no violation; the
lockout, refusal and not-found pages read well (screenshots in test-artifacts/security)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.audit.factories import TrainingClassFactory
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from tests.graded import RIGHT, make_attempt, wrong
from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from trainer.models import Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("security")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1024, "height": 800}) as page:
        yield page


@pytest.fixture
def violations(page: Page) -> list[str]:
    return csp_violations(page)


def log_out(page: Page) -> None:
    page.click("button:has-text('Log out')")
    expect(page.locator("h1")).to_have_text("Log in")


def test_the_table_the_charts_and_the_api_docs_work_under_the_policy(
    live_server, page, artifacts, violations, trainee, pit_boss
):
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    drill = DrillFactory(title="Naturals", documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00"), RIGHT], mode=Mode.PRACTICE)

    log_in(page, live_server.url, trainee.username)
    page.goto(f"{live_server.url}/train/")
    page.locator("tr", has_text="Naturals").get_by_role("button", name="Start").click()
    # The table's script draws the question and builds the amount from the chips.
    expect(page.locator("#q-prompt")).to_contain_text("Settle the bet of Seat 1: 25.00")
    page.locator("label.action-choice", has_text="Pay").click()
    for chip in ("25", "5"):
        page.click(f"button[data-chip='{chip}']")
    expect(page.locator("#amount")).to_have_value("30.00")
    log_out(page)

    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/")
    bar = page.locator("figure svg .color-0 rect, figure svg .color-0 path").first
    expect(bar).to_be_visible()
    # The chart's own stylesheet applied (its nonce let it): the bars are the house green,
    # not the black an unstyled SVG shape is filled with.
    assert bar.evaluate("el => getComputedStyle(el).fill") == "rgb(15, 81, 50)"
    page.screenshot(path=artifacts / "charts.png", full_page=True)

    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Shoe School API")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    page.screenshot(path=artifacts / "api-docs.png")

    assert violations == []


def test_the_lockout_refusal_and_not_found_pages_read_well(
    live_server, page, artifacts, violations, trainee, other_trainee
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(page, live_server.url, other_trainee.username, "a-wrong-guess")
    expect(page.locator("h1")).to_have_text("Signing in is paused")
    expect(page.locator("[role=alert]")).to_contain_text(
        f"paused for {settings.SHOESCHOOL_LOGIN_COOLOFF_MINUTES} minutes"
    )
    page.screenshot(path=artifacts / "1-locked-out.png", full_page=True)
    page.click("text=Back to the login page")
    expect(page.locator("h1")).to_have_text("Log in")

    log_in(page, live_server.url, trainee.username)
    expect(page.locator(".who")).to_be_visible()
    page.goto(f"{live_server.url}/pit/")
    expect(page.locator("h1")).to_have_text("You can't open this page")
    expect(page.locator("[role=alert]")).to_contain_text("The pit's pages are for pit bosses")
    page.screenshot(path=artifacts / "2-refused.png", full_page=True)

    page.goto(f"{live_server.url}/no-such-page/")
    expect(page.locator("h1")).to_have_text("Page not found")
    page.screenshot(path=artifacts / "3-not-found.png", full_page=True)
    page.click("text=Back to the start")
    expect(page.locator("h1")).not_to_have_text("Page not found")

    assert violations == []
