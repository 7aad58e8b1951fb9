"""The observed practical test in Chromium at a tablet's width (768 px), on the demo data:
the demo pit boss, a pit manager, evaluates the demo trainee's live deal on the sheet (the
stopwatch times the timed tasks, the rubric is scored), signs it, then signs the
certification; a pit boss below the rank is refused with the reason on the page. axe on the
sheet page; screenshots of the sheet at 768 and 390 px and of the signature card."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from audit.authority import Rank
from audit.models import Certification, PracticalSheet
from audit.services.practical import sheet_template
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from teaching.management.commands.setup_demo import DEMO_CLASS, DEMO_PASSWORD
from tests.accessibility import assert_accessible
from tests.audit.browser_steps import certification_signed, sheet_finished_and_signed
from tests.browser import artifacts_dir, csp_violations, log_in
from tests.factories import PASSWORD, UserFactory
from trainer.models import RuleProfile, TrainingClass

pytestmark = [pytest.mark.browser, pytest.mark.practical, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("practical")


def test_a_pit_manager_evaluates_the_demo_trainee_on_a_tablet_and_signs(
    live_server, tablet, artifacts, demo_ready
):
    page = tablet
    refused_by_csp = csp_violations(page)
    trainee = demo_ready
    log_in(page, live_server.url, "pitboss", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/practical/?table=casino-shoe")
    expect(page.locator("#practical-title")).to_have_text("Practical test")
    assert not page.locator("#authority-warning").count()
    assert_accessible(page)
    page.screenshot(path=str(artifacts / "sheet-768.png"), full_page=True)

    template = sheet_template(RuleProfile.objects.get(name="casino-shoe"))
    for item in template.procedures:
        page.locator(f"#proc-{item.code}").check()
    # The first timed task on the stopwatch, by keyboard: Start, a moment, Stop.
    first = template.timed[0]
    box = page.locator(f"[data-stopwatch]:has(#time-{first.code})")
    toggle = box.locator("[data-stopwatch-toggle]")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_text("Stop")
    page.wait_for_timeout(600)
    page.keyboard.press("Enter")
    expect(toggle).to_have_text("Start")
    expect(box.locator("[data-stopwatch-status]")).to_contain_text("under the target")
    timed = float(page.locator(f"#time-{first.code}").input_value())
    assert 0.4 <= timed < 5
    sheet_finished_and_signed(page, template, DEMO_PASSWORD)
    sheet = PracticalSheet.objects.get(trainee=trainee)
    assert sheet.passed
    assert sheet.evaluator_rank == "pit_manager"
    assert 0.4 <= float(sheet.marks["timed"][first.code]) < 5

    # The certification now rests on the sitting and the sheet.
    certification_signed(page, live_server.url, trainee.pk, DEMO_PASSWORD)
    certification = Certification.objects.get(trainee=trainee)
    assert certification.signer_licence == "PM-10417"
    assert LedgerEntry.objects.filter(event=Event.PRACTICAL_SHEET_SIGNED).count() == 1
    assert ledger_verify().ok

    # The signature card, printable.
    boss = get_user_model().objects.get(username="pitboss")
    page.goto(f"{live_server.url}/pit/signers/{boss.pk}/")
    expect(page.locator("#card-name")).to_have_text("P. Boss")
    expect(page.locator("#card-licence")).to_have_text("PM-10417")
    assert_accessible(page)
    page.screenshot(path=str(artifacts / "signature-card.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/practical/?table=casino-shoe")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "sheet-390.png"), full_page=True)
    assert not refused_by_csp


def test_a_pit_boss_below_the_rank_is_refused_with_the_reason(
    live_server, tablet, artifacts, demo_ready
):
    page = tablet
    trainee = demo_ready
    bea = UserFactory(username="bea", roles=["pit_boss"], signer=Rank.PIT_BOSS)
    TrainingClass.objects.get(name=DEMO_CLASS).instructors.add(bea)
    log_in(page, live_server.url, "bea", PASSWORD)
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/practical/?table=casino-shoe")
    expect(page.locator("#authority-warning")).to_contain_text(
        "a practical evaluation sheet needs a pit manager or higher; you are a pit boss"
    )
    for line in sheet_template(RuleProfile.objects.get(name="casino-shoe")).rubric:
        page.select_option(f"#rubric-{line.code}", "9")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign the evaluation sheet").click()
    expect(page.locator("#sheet-refused")).to_contain_text("you are a pit boss")
    assert not PracticalSheet.objects.exists()
    page.screenshot(path=str(artifacts / "sheet-refused.png"), full_page=True)


def test_the_signers_and_the_self_check_pages_are_accessible(
    live_server, tablet, artifacts, demo_ready
):
    page = tablet
    log_in(page, live_server.url, "admin", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/pit/signers/")
    expect(page.locator("#signers")).to_contain_text("PM-10417")
    assert_accessible(page)
    page.goto(f"{live_server.url}/compliance/self-check/")
    expect(page.locator("#self-check")).to_contain_text("Who signs a certification")
    assert_accessible(page)
    page.screenshot(path=str(artifacts / "self-check.png"), full_page=True)
