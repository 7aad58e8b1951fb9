"""End to end in Chromium: a pit boss reviews a trainee's mistake and signs off a
certification, re-entering the password (a wrong one first); a sign-off refused for a
retraining flag and fast answers, then signed with the override and the acknowledgement;
the dashboard's standing per table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from audit.models import Certification, Review
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
)
from tests.audit.factories import table_test
from tests.browser import artifacts_dir, chromium_page, log_in
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, Answer, make_attempt, signing_request, wrong
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
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())

    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/")
    expect(page.locator("h1")).to_have_text("Pit dashboard")
    expect(page.locator("section", has_text="Morning")).to_contain_text(trainee.get_full_name())
    page.screenshot(path=artifacts / "1-dashboard.png", full_page=True)

    page.get_by_role("link", name=trainee.get_full_name()).click()
    expect(page.locator("h1")).to_contain_text(trainee.get_full_name())
    expect(page.locator("#waiting")).to_have_text("1")
    page.screenshot(path=artifacts / "2-trainee.png", full_page=True)

    page.get_by_role("link", name="Mistakes", exact=True).click()
    expect(page.locator("text=to review")).to_have_count(1)
    page.click("#mistakes ~ div a")
    expect(page.locator("#given")).to_have_text("Pay 20.00")
    expect(page.locator("#expected")).to_have_text("Pay 15.00")
    expect(page.locator(".felt .playing-card").first).to_be_visible()
    page.fill("textarea[name=comment]", "Paid 2 to 1 on a natural: it pays 3 to 2.")
    page.click("button:has-text('Mark reviewed')")
    expect(page.locator(".pit-history")).to_contain_text("it pays 3 to 2")
    page.screenshot(path=artifacts / "3-reviewed.png", full_page=True)
    assert Review.objects.get().reviewer == pit_boss

    page.click(f"text={trainee.get_full_name()}'s mistakes")
    expect(page.locator("text=to review")).to_have_count(0)
    page.get_by_role("link", name="Sign off", exact=True).click()
    form = page.locator("#sign-off")
    # The sitting ready for a certification is chosen already, and its table.
    expect(form.locator("select[name=attempt]")).to_have_value(str(exam.pk))
    expect(form.locator("select[name=profile]")).to_have_value("casino-shoe")
    form.locator("input[name=password]").fill("not-my-password")
    form.locator("button[type=submit]").click()
    expect(page.locator("#sign-off-refused")).to_contain_text("Nothing was signed")
    expect(page.locator("#sign_password_error")).to_contain_text("nothing was signed")
    page.screenshot(path=artifacts / "4-wrong-password.png", full_page=True)
    assert not Certification.objects.exists()

    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text(pit_boss.get_full_name())
    # A signature states the full name, rank and licence number (issue #28).
    expect(page.locator(".signer")).to_have_text(
        f"{pit_boss.get_full_name()}, Pit manager, licence L-{pit_boss.pk:05d}"
    )
    page.screenshot(path=artifacts / "5-signed.png", full_page=True)
    cert = Certification.objects.get()
    assert (cert.signed_by, cert.attempt, cert.withdrawn) == (pit_boss, exam, False)


def test_a_sign_off_is_refused_for_a_flag_and_fast_answers_until_both_are_answered(
    live_server, page, artifacts, pit, trainee, pit_boss
):
    exam = make_attempt(trainee=trainee, answers=[Answer(response_ms=900)] * 50, drill=table_test())
    retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Short-paid 6:5 naturals twice"
    )
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/certification/")
    expect(page.locator("#sittings")).to_contain_text("faster than the plausible floor")
    page.get_by_role("link", name="Sign off a certification").click()
    expect(page.locator("#flag-warning")).to_contain_text("Short-paid 6:5 naturals twice")
    form = page.locator("#sign-off")
    expect(form.locator("select[name=attempt]")).to_have_value(str(exam.pk))
    page.locator("section[aria-labelledby=sign-off-title]").screenshot(
        path=artifacts / "6-sign-off-warnings.png"
    )

    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    # The refusal is at the form: its top, and the field that answers it.
    expect(page.locator("#sign-off-refused")).to_contain_text("Nothing was signed")
    reason = page.locator("#sign_override_reason_error")
    expect(reason).to_contain_text("write why you sign regardless")
    expect(reason).to_contain_text("tick the box")
    page.locator("section[aria-labelledby=sign-off-title]").screenshot(
        path=artifacts / "7-sign-off-refused.png"
    )
    assert not Certification.objects.exists()

    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("textarea[name=override_reason]").fill(
        "The flag is about 6:5 tables; this is the 3:2 shoe, checked with her today."
    )
    form.locator("input[name=acknowledge_fast]").check()
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages .success")).to_contain_text("certified to deal")
    expect(page.locator(".pit-history").last).to_contain_text("Signed despite a retraining flag")
    page.locator("section[aria-labelledby=certification]").screenshot(
        path=artifacts / "8-signed-with-override.png"
    )
    cert = Certification.objects.get()
    assert cert.override_reason.startswith("The flag is about 6:5 tables")
    assert len(cert.acknowledged) == 1


def test_the_dashboard_shows_each_trainees_standing_per_table(
    live_server, page, artifacts, pit, trainee, pit_boss
):
    from django.utils import timezone

    shoe, double = table_test(), table_test("casino-double-deck")
    classroom = pit["mine"]

    def student(name: str):
        first, last = name.split()
        user = UserFactory(
            username=first.lower(), first_name=first, last_name=last, roles=["trainee"]
        )
        classroom.trainees.add(user)
        return user

    def signed(who, drill, days_ago: int):
        when = timezone.now() - dt.timedelta(days=days_ago)
        exam = make_attempt(trainee=who, answers=[RIGHT] * 50, drill=drill, submitted_at=when)
        cert = certification_sign(request=signing_request(),
            trainee=who, profile=drill.certifies, attempt=exam, signer=pit_boss,
            password=PASSWORD, statement="ok",
        )  # fmt: skip
        # Time moved on: signed that many days ago, valid a year from then.
        Certification.objects.filter(pk=cert.pk).update(
            signed_at=when, expires_at=when + dt.timedelta(days=365)
        )
        return cert

    signed(trainee, shoe, 10)
    make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=double)
    signed(student("Ella Expiring"), shoe, 350)
    old = student("Omar Old")
    signed(old, shoe, 400)
    make_attempt(trainee=old, answers=[wrong("5.00")] * 50, drill=double)
    gone = student("Wanda Withdrawn")
    certification_withdraw(request=signing_request(),
        certification=signed(gone, double, 30), signer=pit_boss, password=PASSWORD,
        statement="Mispaid splits on the floor",
    )  # fmt: skip
    student("Nina New")

    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/pit/")
    table = page.locator("section", has_text="Morning")
    expect(table.locator(f"tr[data-trainee={trainee.username}]")).to_contain_text(
        "Six-deck shoe: certified until"
    )
    expect(table.locator(f"tr[data-trainee={trainee.username}]")).to_contain_text(
        "Double deck: passed, not signed"
    )
    expect(table.locator("tr[data-trainee=ella]")).to_contain_text("expiring soon")
    expect(table.locator("tr[data-trainee=omar]")).to_contain_text("certification expired")
    expect(table.locator("tr[data-trainee=omar]")).to_contain_text("not passed")
    expect(table.locator("tr[data-trainee=wanda]")).to_contain_text("certification withdrawn")
    expect(table.locator("tr[data-trainee=nina]")).to_contain_text("no table test sat")
    table.screenshot(path=artifacts / "9-dashboard-tables.png")
