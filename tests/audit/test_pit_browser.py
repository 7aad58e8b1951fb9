"""End to end in Chromium: a pit boss reviews a trainee's mistake and signs off a
certification, re-entering the password (a wrong one first)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from audit.models import Certification, Review
from tests.audit.conftest import RIGHT, make_attempt, wrong
from tests.browser import artifacts_dir, chromium_page
from tests.factories import PASSWORD
from trainer.models import Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("pit")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_the_pit_boss_reviews_a_mistake_and_signs_off_a_certification(
    live_server, page, artifacts, pit, trainee, pit_boss
):
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00"), RIGHT], mode=Mode.PRACTICE)
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50)

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", pit_boss.username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    page.goto(f"{live_server.url}/pit/")
    expect(page.locator("h1")).to_have_text("Pit dashboard")
    expect(page.locator("section", has_text="Morning")).to_contain_text(trainee.get_full_name())
    page.screenshot(path=artifacts / "1-dashboard.png", full_page=True)

    page.get_by_role("link", name=trainee.get_full_name()).click()
    expect(page.locator("h1")).to_contain_text(trainee.get_full_name())
    expect(page.locator("text=to review")).to_have_count(1)
    page.screenshot(path=artifacts / "2-trainee.png", full_page=True)

    page.click("#mistakes ~ div a")
    expect(page.locator("#given")).to_have_text("pay 20.00")
    expect(page.locator("#expected")).to_have_text("pay 15.00")
    expect(page.locator(".pit-felt .pit-card").first).to_be_visible()
    page.fill("textarea[name=comment]", "Paid 2 to 1 on a natural: it pays 3 to 2.")
    page.click("button:has-text('Mark reviewed')")
    expect(page.locator(".pit-history")).to_contain_text("it pays 3 to 2")
    page.screenshot(path=artifacts / "3-reviewed.png", full_page=True)
    assert Review.objects.get().reviewer == pit_boss

    page.click(f"text=← {trainee.get_full_name()}")
    expect(page.locator("text=to review")).to_have_count(0)
    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("input[name=password]").fill("not-my-password")
    form.locator("button[type=submit]").click()
    expect(page.locator("#sign-off [role=alert]")).to_contain_text("nothing was signed")
    page.screenshot(path=artifacts / "4-wrong-password.png", full_page=True)
    assert not Certification.objects.exists()

    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text(pit_boss.get_full_name())
    expect(page.locator(".signer")).to_have_text(pit_boss.get_full_name())
    page.screenshot(path=artifacts / "5-signed.png", full_page=True)
    cert = Certification.objects.get()
    assert (cert.signed_by, cert.attempt, cert.withdrawn) == (pit_boss, exam, False)
