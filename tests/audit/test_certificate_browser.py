"""End to end in Chromium (issue #28): a pit boss signs a certification on the pit's
page; its certificate's verify page (public, no sign-in) says valid; the pit boss
withdraws it; the same page says withdrawn. axe finds nothing on the verify page, at a
desk's width and a phone's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from audit.models import Certification
from tests.accessibility import assert_accessible
from tests.audit.browser_steps import certification_withdrawn
from tests.audit.factories import table_test
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from tests.factories import PASSWORD
from tests.graded import RIGHT, make_attempt

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("certificate")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_sign_verify_withdraw_verify(live_server, page, artifacts, pit, trainee, pit_boss):
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/sign-off/")
    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text(pit_boss.get_full_name())
    certification = Certification.objects.get()
    code = certification.certificate.shown
    expect(page.locator(f"[data-certificate-pdf='{certification.pk}']")).to_be_visible()
    verify_link = page.locator(f"[data-verify='{certification.pk}']")
    expect(verify_link).to_have_text("Share / verify")
    page.locator("#certification ~ ul.pit-history").screenshot(path=artifacts / "0-pit-links.png")

    # Anyone, signed in or not: a fresh browser opens the link.
    # A browser of its own: no session, no cookie.
    public = page.context.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    refused = csp_violations(public)
    public.goto(f"{live_server.url}/verify/{code}/")
    expect(public.locator("#verdict")).to_contain_text("Valid")
    expect(public.locator("#holder")).to_have_text(trainee.get_full_name())
    public.screenshot(path=artifacts / "1-verify-valid-1280.png", full_page=True)
    assert_accessible(public)
    public.set_viewport_size({"width": 390, "height": 844})
    public.screenshot(path=artifacts / "2-verify-valid-390.png", full_page=True)
    assert_accessible(public)
    assert refused == []

    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/certification/")
    certification_withdrawn(page, certification.pk, PASSWORD)

    public.context.clear_cookies()
    public.set_viewport_size({"width": 1280, "height": 900})
    public.goto(f"{live_server.url}/verify/")
    public.fill("#code", code.lower())
    public.get_by_role("button", name="Verify").click()
    expect(public.locator("#verdict")).to_contain_text("Withdrawn")
    expect(public.locator("#verdict")).to_contain_text("withdrawn on")
    public.screenshot(path=artifacts / "3-verify-withdrawn-1280.png", full_page=True)
    assert_accessible(public)
    public.goto(f"{live_server.url}/verify/0000-0000-0000-0000/")
    expect(public.locator("#verdict")).to_contain_text("No certificate has this code.")
    assert_accessible(public)
