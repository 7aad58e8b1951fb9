"""In Chromium: changing a password, resetting a forgotten one from the e-mailed link, the
top bar per role, a refusal and a missing page with their way back, and an inverted date
range on the pit's filter; all under the Content-Security-Policy, with no violation
(screenshots in test-artifacts/accounts)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from tests.audit.factories import TrainingClassFactory
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from tests.factories import PASSWORD
from tests.graded import RIGHT, make_attempt, wrong
from tests.test_security_browser import log_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW = "felt-shoe-rack-4417"


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("accounts")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1024, "height": 800}) as page:
        yield page


@pytest.fixture
def violations(page: Page) -> list[str]:
    return csp_violations(page)


def test_a_trainee_changes_the_password_from_the_top_bar(
    live_server, page, artifacts, violations, trainee
):
    log_in(page, live_server.url, trainee.username)
    page.click("header >> text=Change password")
    expect(page.locator("h1")).to_have_text("Change your password")
    expect(page.locator("#id_new_password1_helptext")).to_contain_text("at least 12 characters")
    page.screenshot(path=artifacts / "1-change-form.png", full_page=True)

    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", "too-short")
    page.fill("#id_new_password2", "too-short")
    page.click("button:has-text('Change password')")
    expect(page.locator("#id_new_password2_error")).to_contain_text("too short")
    page.screenshot(path=artifacts / "2-change-refused.png", full_page=True)

    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    page.click("button:has-text('Change password')")
    expect(page.locator("h1")).to_have_text("Password changed")
    page.screenshot(path=artifacts / "3-changed.png", full_page=True)
    log_out(page)
    log_in(page, live_server.url, trainee.username, NEW)
    expect(page.locator(".who")).to_be_visible()
    assert violations == []


def test_a_forgotten_password_is_reset_from_the_emailed_link(
    live_server, page, artifacts, violations, trainee
):
    trainee.email = "tina@casino.example"
    trainee.save()
    page.goto(f"{live_server.url}/accounts/login/")
    page.screenshot(path=artifacts / "4-login.png", full_page=True)
    page.click("text=Forgot your password?")
    expect(page.locator("h1")).to_have_text("Reset your password")
    page.fill("#id_email", "tina@casino.example")
    page.screenshot(path=artifacts / "5-reset-form.png", full_page=True)
    page.click("button:has-text('Send the link')")
    expect(page.locator("h1")).to_have_text("Check your e-mail")
    page.screenshot(path=artifacts / "6-reset-sent.png", full_page=True)

    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/password/reset/\S+/", mail.outbox[0].body)
    assert link
    page.goto(link.group(0))
    expect(page.locator("h1")).to_have_text("Choose a new password")
    expect(page.locator("#id_new_password1_helptext")).to_contain_text("at least 12 characters")
    page.screenshot(path=artifacts / "7-reset-confirm.png", full_page=True)
    page.fill("#id_new_password1", NEW)
    page.fill("#id_new_password2", NEW)
    page.click("button:has-text('Set the new password')")
    expect(page.locator("h1")).to_have_text("Password set")
    page.screenshot(path=artifacts / "8-reset-complete.png", full_page=True)

    page.goto(link.group(0))
    expect(page.locator("h1")).to_have_text("This link no longer works")
    page.screenshot(path=artifacts / "9-reset-link-used.png", full_page=True)

    page.goto(f"{live_server.url}/accounts/login/")
    log_in(page, live_server.url, trainee.username, NEW)
    expect(page.locator(".who")).to_be_visible()
    assert violations == []


def test_each_role_sees_its_parts_and_a_refusal_keeps_the_bar(
    live_server, page, artifacts, violations, trainee, pit_boss, compliance_officer
):
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00")])
    nav = page.locator("nav[aria-label=Main] a")

    log_in(page, live_server.url, compliance_officer.username)
    expect(nav).to_have_text(["Pit", "Compliance", "Table cards"])
    page.screenshot(path=artifacts / "10-compliance-home.png", full_page=True)
    page.click("nav >> text=Pit")
    expect(page.locator("h1")).to_have_text("Pit dashboard")
    page.fill("input[name=submitted_min]", "2026-03-31")
    page.fill("input[name=submitted_max]", "2026-03-01")
    page.click("button:has-text('Filter')")
    expect(page.locator(".pit-filter-submitted .error")).to_contain_text(
        "the “from” date (2026-03-31) is after the “to” date (2026-03-01)"
    )
    expect(page.locator(".pit-filter-refused")).to_contain_text("The filter is not applied")
    page.screenshot(path=artifacts / "11-inverted-range.png")
    log_out(page)

    log_in(page, live_server.url, trainee.username)
    expect(nav).to_have_text(["My training", "My record", "Table cards"])
    page.goto(f"{live_server.url}/pit/")
    expect(page.locator("h1")).to_have_text("You can't open this page")
    expect(nav).to_have_text(["My training", "My record", "Table cards"])
    expect(page.locator(".way-back a")).to_have_text(
        ["Back to the start", "My training", "My record", "Table cards"]
    )
    page.screenshot(path=artifacts / "12-refused-with-way-back.png", full_page=True)
    page.click(".way-back >> text=My training")
    expect(page).to_have_url(f"{live_server.url}/train/")
    log_out(page)

    page.goto(f"{live_server.url}/no-such-page/")
    expect(page.locator("h1")).to_have_text("Page not found")
    expect(page.locator(".way-back a")).to_have_text(["Log in"])
    page.screenshot(path=artifacts / "13-not-found-signed-out.png", full_page=True)
    assert violations == []


def test_the_bar_and_the_password_pages_fit_a_phone(live_server, artifacts, admin_user):
    # The admin has the most links in the bar; nothing may push the page sideways.
    with chromium_page(viewport={"width": 390, "height": 844}) as phone:
        log_in(phone, live_server.url, admin_user.username)
        expect(phone.locator("nav[aria-label=Main] a")).to_have_text(
            [
                "Pit",
                "Classes and drills",
                "Compliance",
                "Administration",
                "Table cards",
                "House rules",
            ]
        )
        for path, shot in (
            ("/accounts/password/change/", "14-phone-change.png"),
            ("/no-such-page/", "15-phone-not-found.png"),
        ):
            phone.goto(f"{live_server.url}{path}")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide"
            phone.screenshot(path=artifacts / shot, full_page=True)
