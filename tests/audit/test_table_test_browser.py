"""The table test end to end in Chromium, on the demo data: the demo trainee sits the
six-deck shoe's certification exam to the last question, the worker grades it, and the demo
pit boss signs it off, refused first for the trainee's retraining flag and then signing
with a written override."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from audit.management.commands.setup_demo_history import Command as DemoHistory
from audit.models import Certification
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.browser import artifacts_dir, chromium_page, log_in, through_briefing
from tests.trainer.test_table_browser import graded
from trainer.models import Attempt, AttemptItem, Drill, DrillPurpose, Mode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLE_TEST = "Table test: Six-deck shoe"


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("table-test")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def answer_the_question_on_the_table(page: Page, attempt: Attempt) -> None:
    """Answer the question the page shows as a dealer who knows the game would: the right
    answer, read from the round's key only after the page has asked the question."""
    position = int(page.locator("input[name=position]").input_value())
    n = int(page.locator("input[name=question]").input_value())
    item = AttemptItem.objects.get(attempt=attempt, position=position)
    expected = item.answer_key[n - 1]["expected"]
    if "action" in expected:
        page.locator(f"input[name=action][value='{expected['action']}']").check()
        page.fill("#amount", expected["amount"])
        page.click("button.settle-submit")
    elif expected["answer"] == "peek":
        finding = "natural" if expected["dealer_blackjack"] else "clear"
        page.click(f"button[name=answer][value='peek:{finding}']")
    else:
        page.click(f"button[name=answer][value='{expected['answer']}']")


def test_the_demo_trainee_sits_a_table_test_and_the_pit_boss_signs_it_after_a_refusal(
    live_server, page, artifacts, celery_worker, settings
):
    # The browser answers at machine speed; the fast-answer warning has its own test
    # (test_pit_browser), so its floor is off here to show the flag's refusal alone.
    settings.SHOESCHOOL_CERT_MIN_MEAN_SECONDS = "0"
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    # The demo's signers' ranks (setup_demo_history records them): the pit boss signs as a
    # pit manager, the rank a certification needs.
    DemoHistory()._signers()
    settings.ENVIRONMENT = "test"
    drill = Drill.objects.get(title=TABLE_TEST)
    assert drill.purpose == DrillPurpose.EXAM
    assert drill.certifies.name == "casino-shoe"

    log_in(page, live_server.url, "trainee", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/train/")
    expect(page.locator("h1")).to_have_text("My training")
    page.locator("tr", has_text=TABLE_TEST).get_by_role("button", name="Start").click()
    # The briefing says what a pass counts for before anything starts.
    expect(page.locator(".counts-for")).to_contain_text("it goes in your personnel file")
    assert not Attempt.objects.filter(trainee__username="trainee", drill=drill).exists()
    through_briefing(page)
    expect(page.locator("#q-prompt")).to_be_visible()
    attempt = Attempt.objects.get(trainee__username="trainee", drill=drill)
    assert attempt.mode == Mode.EXAM
    page.screenshot(path=artifacts / "1-sitting.png", full_page=True)

    answered = 0
    while page.locator("#q-prompt").count():
        answer_the_question_on_the_table(page, attempt)
        answered += 1
        page.wait_for_load_state()
    expect(page.locator("h1")).to_have_text("Every question is answered")
    assert attempt.items.count() >= 50
    assert answered == sum(len(item.answer_key) for item in attempt.items.all())
    page.get_by_role("button", name="Submit for grading").click()
    assert graded(attempt.pk, seconds=120)
    page.goto(f"{live_server.url}/train/attempts/{attempt.pk}/results/")
    expect(page.locator(".score")).to_contain_text("100.00%")
    expect(page.locator(".score")).not_to_contain_text("not passed")
    page.screenshot(path=artifacts / "2-results.png", full_page=True)

    page.context.clear_cookies()
    log_in(page, live_server.url, "pitboss", DEMO_PASSWORD)
    trainee_page = f"{live_server.url}/pit/trainees/{attempt.trainee_id}/"
    # The trainee's record is in sections (issue #24): flags on Retraining, the sign-off on
    # a page of its own, its refusal beside its form.
    page.goto(f"{trainee_page}retraining/")
    flag_form = page.locator("form[aria-label='Flag for retraining']")
    flag_form.locator("textarea[name=reason]").fill("Paid a 6:5 natural at 3:2 on the floor")
    flag_form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{trainee_page}sign-off/")
    expect(page.locator("#flag-warning")).to_contain_text("Paid a 6:5 natural at 3:2")

    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(attempt.pk))
    form.locator("input[name=password]").fill(DEMO_PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("#sign-off-refused")).to_contain_text("Nothing was signed")
    expect(page.locator("#sign-off")).to_contain_text("write why you sign regardless")
    page.locator("section[aria-labelledby=sign-off-title]").screenshot(
        path=artifacts / "3-refused-for-the-flag.png"
    )
    assert not Certification.objects.filter(attempt=attempt).exists()

    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(attempt.pk))
    form.locator("textarea[name=override_reason]").fill(
        "The flag is for 6:5 tables; this is the 3:2 shoe, and she dealt it clean today."
    )
    form.locator("input[name=password]").fill(DEMO_PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text("certified to deal")
    page.screenshot(path=artifacts / "4-signed.png", full_page=True)

    cert = Certification.objects.get(attempt=attempt)
    assert (cert.signed_by.username, cert.profile.name) == ("pitboss", "casino-shoe")
    assert cert.signer_full_name == "Pat Boss"
    assert cert.override_reason.startswith("The flag is for 6:5 tables")
    assert cert.flags_overridden
    assert LedgerEntry.objects.filter(event=Event.CERTIFICATION_SIGNED).count() == 1
    assert ledger_verify().ok

    page.goto(f"{live_server.url}/pit/")
    expect(page.locator("tr", has_text="Terry Trainee")).to_contain_text(
        "Six-deck shoe: certified until"
    )
    page.screenshot(path=artifacts / "5-dashboard.png", full_page=True)
