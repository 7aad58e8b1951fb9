"""WCAG 2.0/2.1 A and AA, checked by axe-core in Chromium on every page of the product as
each role sees it (the trainee's table mid-question, feedback, results while grading and
graded; the pit's pages; compliance; the workspace; sign-in, password pages, 403 and 404),
and /train/ on a phone and at 400 % zoom (a 320 CSS px viewport) with Start and Continue in
view. Screenshots: test-artifacts/accessibility/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from audit.models import ComplianceReport, ReportStatus
from audit.services.reviews import retraining_flag_create
from tests.accessibility import axe_violations, dangling_references, describe
from tests.audit.factories import table_test
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in, through_briefing
from tests.graded import RIGHT, make_attempt, wrong
from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from trainer.models import Attempt, Grade, GradingRun, Mode
from trainer.services.grading.execute import grading_run_execute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("accessibility")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


class Audit:
    """Checks pages one after another and fails once, at the end, listing every page's
    violations (so one run shows all there is to fix)."""

    def __init__(self, page: Page, artifacts: Path) -> None:
        self.page, self.artifacts = page, artifacts
        self.failures: list[str] = []
        self.csp = csp_violations(page)

    def check(self, name: str) -> None:
        self.page.screenshot(path=self.artifacts / f"{name}.png", full_page=True)
        violations = axe_violations(self.page)
        if violations:
            self.failures.append(f"{name} ({self.page.url}):\n{describe(violations)}")
        dangling = dangling_references(self.page)
        if dangling:
            self.failures.append(f"{name} ({self.page.url}): references to nothing: {dangling}")

    def visit(self, name: str, url: str) -> None:
        self.page.goto(url)
        self.check(name)

    def done(self) -> None:
        assert not self.failures, "axe found WCAG A/AA violations:\n\n" + "\n\n".join(self.failures)
        assert self.csp == []


def test_the_signed_out_pages_and_errors(live_server, page, artifacts):
    audit = Audit(page, artifacts)
    base = live_server.url
    audit.visit("login", f"{base}/accounts/login/")
    page.fill("#id_username", "nobody")
    page.fill("#id_password", "wrong-password-1")
    page.click("button:has-text('Log in')")
    expect(page.locator("[role=alert]")).to_be_visible()
    audit.check("login-refused")
    audit.visit("password-reset", f"{base}/accounts/password/reset/")
    audit.visit("password-reset-sent", f"{base}/accounts/password/reset/sent/")
    audit.visit("404-signed-out", f"{base}/no-such-page/")
    audit.done()


def test_the_trainees_pages(
    live_server, page, artifacts, trainee, pit_boss, tasks_to_a_queue_nobody_reads
):
    audit = Audit(page, artifacts)
    base = live_server.url
    practice = DrillFactory(title="Naturals", documents=[natural_document()])
    AssignmentFactory(drill=practice, mode=Mode.PRACTICE, trainee=trainee)
    exam = DrillFactory(
        title="Exam: naturals", documents=[natural_document(), natural_document("second")]
    )
    AssignmentFactory(drill=exam, mode=Mode.EXAM, trainee=trainee)
    graded = make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00")], mode=Mode.PRACTICE)

    log_in(page, base, trainee.username)
    audit.check("trainee-front-page")
    audit.visit("trainee-my-training", f"{base}/train/")

    page.locator("tr", has_text="Naturals").get_by_role("button", name="Start").first.click()
    expect(page.locator("#q-prompt")).to_contain_text("Settle")
    audit.check("table-settlement")
    page.keyboard.press("p")
    page.keyboard.type("12.345")
    page.keyboard.press("Enter")
    expect(page.locator("#answer-error")).to_be_visible()
    audit.check("table-settlement-refused")
    page.fill("#amount", "37.50")
    page.keyboard.press("Enter")
    expect(page.locator("#q-prompt")).to_contain_text("Reshuffle or continue?")
    audit.check("table-procedure")
    # The letter keys can be turned off (WCAG 2.1.4), and stay off on the next question.
    switch = page.get_by_label("Letter keys answer")
    switch.uncheck()
    expect(page.locator("button.answer kbd").first).to_be_hidden()
    page.locator("#q-prompt").focus()
    page.keyboard.press("c")
    page.reload()
    expect(page.locator("#q-prompt")).to_contain_text("Reshuffle or continue?")
    expect(switch).not_to_be_checked()
    page.keyboard.press("c")
    expect(page.locator("#q-prompt")).to_contain_text("Reshuffle or continue?")
    switch.check()
    page.locator("#q-prompt").focus()
    page.keyboard.press("c")
    expect(page.locator("h1")).to_contain_text("right")
    audit.check("feedback")
    page.get_by_role("button", name="Finish and submit").click()
    expect(page.locator("#results-title")).to_contain_text("Naturals")
    audit.check("results-while-grading")
    # Grading ends: the live region says so without reloading the page.
    expect(page.locator("[data-status-link]")).to_have_text("Check again")
    # Graded here, as the worker would: no worker reads this test's tasks.
    grading_run_execute(run_id=GradingRun.objects.get(attempt__drill=practice).pk)
    expect(page.get_by_role("status")).to_contain_text("Grading is done: 100.00%, passed.")
    audit.check("results-grading-done")
    page.get_by_role("link", name="Show the graded results").click()
    expect(page.locator(".score")).to_be_visible()

    page.goto(f"{base}/train/")
    page.locator("tr", has_text="Exam: naturals").get_by_role("button", name="Start").click()
    expect(page.locator("h1")).to_contain_text("Before you start")
    audit.check("exam-briefing")
    through_briefing(page)
    page.get_by_role("button", name="End the exam now").click()
    expect(page.locator("h1")).to_have_text("End the exam now?")
    audit.check("confirm-end-exam")
    page.get_by_role("link", name="No, back to the table").click()
    page.goto(f"{base}/train/")
    audit.check("trainee-my-training-in-progress")

    audit.visit("results-graded", f"{base}/train/attempts/{graded.pk}/results/")
    audit.visit("my-record", f"{base}/train/record/")
    audit.visit("table-cards", f"{base}/tables/")
    audit.visit("table-card", f"{base}/tables/casino-shoe/")
    audit.visit("password-change", f"{base}/accounts/password/change/")
    audit.visit("403", f"{base}/pit/")
    audit.visit("404", f"{base}/train/attempts/999999/")
    audit.done()


def test_the_pit_bosss_pages(live_server, page, artifacts, pit, trainee, pit_boss):
    audit = Audit(page, artifacts)
    base = live_server.url
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00"), RIGHT], mode=Mode.PRACTICE)
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    mistake = Grade.objects.filter(correct=False).get()
    # A flag in force: the page then shows its lift form and the sign-off's override field.
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Short-paid naturals")

    log_in(page, base, pit_boss.username)
    audit.visit("pit-dashboard", f"{base}/pit/")
    audit.visit("pit-trainee", f"{base}/pit/trainees/{trainee.pk}/")
    for section in ("mistakes", "retraining", "certification"):
        audit.visit(f"pit-trainee-{section}", f"{base}/pit/trainees/{trainee.pk}/{section}/")
    audit.visit("pit-queue", f"{base}/pit/queue/")
    audit.visit("pit-sign-off", f"{base}/pit/trainees/{trainee.pk}/sign-off/")
    form = page.locator("#sign-off")
    form.locator("select[name=profile]").select_option("casino-shoe")
    form.locator("select[name=attempt]").select_option(str(exam.pk))
    form.locator("input[name=password]").fill("not-my-password")
    form.locator("button[type=submit]").click()
    expect(page.locator("#sign-off-refused")).to_contain_text("Nothing was signed")
    expect(page.locator("#sign_password_error")).to_contain_text("nothing was signed")
    audit.check("pit-sign-off-refused")
    audit.visit("pit-drill-down", f"{base}/pit/grades/{mistake.pk}/")
    audit.visit("pit-dashboard-filtered", f"{base}/pit/?submitted_after=2020-01-01")
    audit.visit("workspace", f"{base}/teach/")
    # A request for tina from another class: the classes page lists it with its answers;
    # the class page has the join request's form (issue #23).
    from teaching.services.classes import class_join_request_create

    class_join_request_create(
        actor=pit["other_boss"], training_class=pit["theirs"], trainee=trainee, note="Nights"
    )
    audit.visit("classes-with-requests", f"{base}/teach/classes/")
    audit.visit("class", f"{base}/teach/classes/{pit['mine'].pk}/")
    audit.done()
    assert Attempt.objects.count() == 2


def test_the_compliance_pages(live_server, page, artifacts, compliance_officer):
    audit = Audit(page, artifacts)
    base = live_server.url
    today = timezone.localdate()
    report = ComplianceReport.objects.create(
        period_start=today, period_end=today, format="pdf", requested_by=compliance_officer
    )
    log_in(page, base, compliance_officer.username)
    audit.visit("compliance-report-pending", f"{base}/compliance/")
    # The list updates itself once the report is finished, and says so: no page reload.
    ComplianceReport.objects.filter(pk=report.pk).update(
        status=ReportStatus.FAILED, error="the disk is full"
    )
    expect(page.locator(f"tr[data-report='{report.pk}']")).to_contain_text("the disk is full")
    expect(page.locator("[data-live-news]")).to_have_text("Every report is finished.")
    audit.check("compliance")
    page.get_by_role("button", name="Verify the log now").click()
    expect(page.locator("[data-verdict]")).to_be_visible()
    audit.check("compliance-verified")
    audit.done()


@pytest.mark.parametrize("width", [390, 320])
def test_start_and_continue_stay_on_screen_on_a_phone_and_at_400_percent_zoom(
    live_server, artifacts, trainee, width
):
    fresh = DrillFactory(
        title="Naturals at the shoe with a long title", documents=[natural_document()]
    )
    AssignmentFactory(drill=fresh, mode=Mode.PRACTICE, trainee=trainee)
    going = DrillFactory(title="Exam: naturals", documents=[natural_document()])
    AssignmentFactory(drill=going, mode=Mode.EXAM, trainee=trainee)
    with chromium_page(viewport={"width": width, "height": 700}) as page:
        log_in(page, live_server.url, trainee.username)
        page.goto(f"{live_server.url}/train/")
        page.locator("tr", has_text="Exam: naturals").get_by_role("button", name="Start").click()
        # The briefing fits the phone too, its start button within the screen.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not axe_violations(page), describe(axe_violations(page))
        through_briefing(page)
        page.goto(f"{live_server.url}/train/")
        page.screenshot(path=artifacts / f"my-training-{width}px.png", full_page=True)
        rows = page.locator("[data-assignment]")
        for button in (
            rows.get_by_role("button", name="Start"),
            rows.get_by_role("link", name="Continue"),
        ):
            expect(button).to_have_count(1)
            # Scrolled to as a person does, down the page: no table scrolled sideways.
            button.evaluate(
                "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 200)"
            )
            expect(button).to_be_in_viewport(ratio=1)
        # Nothing wider than the screen: no sideways scrolling of the page (WCAG 1.4.10).
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not axe_violations(page), describe(axe_violations(page))

        # And the table itself: the question, its choices and Settle within the screen.
        rows.get_by_role("button", name="Start").click()
        expect(page.locator("#q-prompt")).to_contain_text("Settle")
        page.screenshot(path=artifacts / f"table-{width}px.png", full_page=True)
        settle = page.get_by_role("button", name="Settle")
        settle.evaluate(
            "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 200)"
        )
        expect(settle).to_be_in_viewport(ratio=1)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not axe_violations(page), describe(axe_violations(page))
