"""A compliance officer's week in Chromium, on the demo data, with no shell and no /admin/
(issue #24): the compliance page, "Last month" picked, the sectioned CSV and the flat
decisions CSV produced and downloaded (their headers, and a decision row naming the drill,
the table by its title, the question as the trainee read it and the trainee by full name),
the ledger verified, and the verify address revisited (a bookmark, a restored tab): the
page with its button, never a blank refusal. axe checks the page, at a desk and on a
phone."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from audit.management.commands.setup_demo_history import LAST_MONTH
from audit.services.reports.periods import preset_period
from ledger.services.verify import ledger_verify
from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import RuleProfile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}, accept_downloads=True) as page:
        yield page


def _produce(page: Page, fmt: str) -> Path:
    """Pick last month and the format, produce the report and download it."""
    page.get_by_label("Last month").check()
    page.get_by_label(fmt).check()
    page.get_by_role("button", name="Produce the report").click()
    expect(page.locator(".messages")).to_contain_text("ready to download")
    start, end = preset_period("last_month")
    row = page.locator("tr[data-report]").first
    expect(row).to_contain_text(f"{start:%Y-%m-%d} – {end:%Y-%m-%d}")
    with page.expect_download() as info:
        row.get_by_role("link", name="Download").click()
    download = info.value
    assert download.suggested_filename.endswith(".csv")
    return Path(download.path())


def test_a_compliance_officer_does_the_week_s_work_in_the_browser(
    live_server, page, settings, tmp_path
):
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    settings.MEDIA_ROOT = tmp_path
    call_command("setup_demo", verbosity=0)
    call_command("setup_demo_history", verbosity=0)
    settings.ENVIRONMENT = "test"
    artifacts = artifacts_dir("compliance-week")
    base = live_server.url
    violations = csp_violations(page)
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))

    log_in(page, base, "compliance", DEMO_PASSWORD)
    page.get_by_role("link", name="Compliance").first.click()
    expect(page.locator("h1")).to_have_text("Compliance")
    assert_accessible(page)

    sectioned = _produce(page, "CSV (every section)")
    with sectioned.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    headers = {row[0]: row[1:] for row in reversed(rows)}
    decisions = [dict(zip(headers["decisions"], row[1:], strict=True))
                 for row in rows if row[0] == "decisions"][1:]  # fmt: skip
    for column in ("drill", "table", "question_text", "trainee", "trainee_name"):
        assert column in headers["decisions"]
    assert decisions, "last month's demo practice is in the report"
    table = RuleProfile.objects.get(name="casino-shoe").title
    row = decisions[0]
    assert row["drill"] == LAST_MONTH[0]
    assert row["table"] == table
    assert row["trainee_name"] == "Terry Trainee"
    assert row["trainee"] == "trainee"
    assert row["question_text"]
    assert not row["question_text"].startswith("Box ")
    classes = [row for row in rows if row[0] == "classes"]
    assert classes[0][1:] == [
        "class", "instructors", "trainees_on_roster", "trainees_who_submitted", "attempts"
    ]  # fmt: skip

    flat = _produce(page, "Decisions only")
    with flat.open(encoding="utf-8", newline="") as handle:
        header, *lines = list(csv.reader(handle))
    assert header == headers["decisions"]
    assert [dict(zip(header, line, strict=True)) for line in lines] == decisions
    page.screenshot(path=str(artifacts / "01-reports.png"), full_page=True)

    page.get_by_role("button", name="Verify the log now").click()
    expect(page.locator("[data-verdict=ok]")).to_contain_text("The chain holds")
    expect(page.locator("[data-hash]")).to_have_text(ledger_verify().head_hash)
    # The verify address again, as a bookmark or a restored tab opens it.
    response = page.goto(f"{base}/compliance/verify/")
    assert response is not None
    assert response.status == 200
    expect(page.get_by_role("button", name="Verify the log now")).to_be_visible()
    assert_accessible(page)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{base}/compliance/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert_accessible(page)
    page.screenshot(path=str(artifacts / "02-phone.png"), full_page=True)

    assert not [url for url in visited if "/admin/" in url]
    assert violations == []
