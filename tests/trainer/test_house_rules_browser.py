"""End to end in Chromium on the demo data (issue #24): the administrator changes a
table's rule from a date through the house-rules pages, sees the placard, the card and
what changes, saves; the version the demo's records were made under stays on them. Every
page passes axe and fits a phone at 390 and 320 px."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Page, expect

from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import AttemptItem, RuleProfile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def fits(page: Page) -> None:
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 800})
        wider = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wider <= 0, f"{page.url} scrolls sideways by {wider} px at {width} px"
    page.set_viewport_size({"width": 1280, "height": 900})


def checked(page: Page, name: str) -> None:
    page.screenshot(path=artifacts_dir("house-rules") / f"{name}.png", full_page=True)
    assert_accessible(page)
    fits(page)


def test_the_administrator_changes_a_tables_rule_from_a_date(live_server, page, settings):
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    call_command("setup_demo_history", verbosity=0)
    settings.ENVIRONMENT = "test"
    shoe = RuleProfile.objects.get(name="casino-shoe")
    first = shoe.current_version
    dealt = AttemptItem.objects.filter(profile_version=first).count()
    assert dealt, "the demo history deals rounds at the six-deck shoe"
    refused = csp_violations(page)
    base = live_server.url

    log_in(page, base, "admin", DEMO_PASSWORD)
    page.locator("[data-panel=house_rules] a").click()
    expect(page.locator("h1")).to_have_text("House rules")
    checked(page, "01-tables")
    page.locator("[data-table=casino-shoe]").get_by_role("link", name="Change the rules").click()
    expect(page.locator("h1")).to_contain_text("Six-deck shoe")
    checked(page, "02-form")

    start = timezone.localdate() + dt.timedelta(days=14)
    page.get_by_label("Soft 17").select_option(label="Dealer stands on soft 17")
    page.get_by_label("Takes effect from").fill(start.isoformat())
    page.get_by_label("What changes and why").fill("The house stands on soft 17")
    page.get_by_role("button", name="Preview the card and what changes").click()
    preview = page.locator("[data-preview]")
    expect(preview).to_contain_text("Dealer hits soft 17")
    expect(preview.locator(".placard")).to_contain_text("Dealer stands on all 17s")
    expect(preview.locator(".rule-changes")).to_contain_text("Dealer stands on soft 17")
    assert shoe.versions.count() == 1
    checked(page, "03-preview")

    page.get_by_role("button", name="Save these rules").click()
    expect(page.locator(".messages")).to_contain_text("Version 2 of Six-deck shoe saved")
    expect(page.locator("[data-version='2']")).to_contain_text("Scheduled")
    expect(page.locator("[data-version='1'] [data-made]")).to_contain_text(f"{dealt} rounds dealt")
    checked(page, "04-table")

    second = shoe.versions.get(version=2)
    assert second.parameters["dealer_hits_soft_17"] is False
    assert timezone.localtime(second.effective_from).date() == start
    # The records keep the rules they were made under; the shoe deals them until the day.
    assert AttemptItem.objects.filter(profile_version=first).count() == dealt
    assert shoe.current_version == first

    # A new table from a copy: the same form, filled with the shoe's rules.
    page.goto(f"{base}/house-rules/casino-shoe/copy/")
    expect(page.get_by_label("Soft 17")).to_have_value("hits")
    checked(page, "05-copy")

    # A mistake is told at its field, nothing saved.
    page.goto(f"{base}/house-rules/casino-shoe/change/")
    page.get_by_label("Smallest bet").fill("600")
    page.get_by_label("Largest bet (for the whole box)").fill("500")
    page.get_by_label("Takes effect from").fill(start.isoformat())
    page.get_by_label("What changes and why").fill("Higher limits")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.locator("[data-field=min_bet] .error")).to_contain_text("Smallest bet")
    assert shoe.versions.count() == 2
    checked(page, "06-refused")
    assert not refused
