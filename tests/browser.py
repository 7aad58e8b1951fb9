"""Driving Debian's chromium with Playwright, shared by the browser tests."""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.db import connections
from playwright.sync_api import Page, sync_playwright

from tests.factories import PASSWORD

CHROMIUM = "/usr/bin/chromium"
# Headless as root on a machine with no network but loopback: without the background
# networking switch Chromium keeps trying to reach Google's hosts.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
]


def artifacts_dir(name: str) -> Path:
    """The folder a browser test saves its screenshots in (SHOESCHOOL_TEST_ARTIFACTS/name)."""
    folder = Path(os.environ.get("SHOESCHOOL_TEST_ARTIFACTS", "test-artifacts")) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def chromium_page(**page_options: Any) -> Iterator[Page]:
    """A new page in a fresh headless Chromium, closed afterwards."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(**page_options)
        finally:
            browser.close()
            # Within sync_playwright the ORM is in another context and opens a connection
            # of its own; left open, it kept PostgreSQL from dropping the test database.
            connections.close_all()


def log_in(page: Page, base: str, username: str, password: str = PASSWORD) -> None:
    """Sign in through the login page, as a person does."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button:has-text('Log in')")


def csp_violations(page: Page) -> list[str]:
    """What Chromium reports it refused under the Content-Security-Policy, from the page's
    console, collected from now on."""
    found: list[str] = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


def through_briefing(page: Page) -> None:
    """After a Start on My training: an exam, a table test or a speed round shows its
    briefing first, whose own button starts it (issue #24); a practice goes straight to
    the table."""
    page.locator("#q-prompt, .briefing-start, h1").first.wait_for()
    page.wait_for_load_state()
    if page.locator(".briefing-start").count():
        page.locator(".briefing-start button").click()
