"""End to end in Chromium: a pit boss assigns a drill to their class from /teach/, reads
the class's progress board, reassigns and cancels it, and the page breaks no CSP rule;
then assigns a refresher from a flag on the pit page, which the trainee sees in My record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from audit.models import Refresher
from audit.services.reviews import retraining_flag_create
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from tests.graded import RIGHT, make_attempt, wrong
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("assignments")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_assign_follow_reassign_cancel_and_a_refresher(
    live_server, page, artifacts, pit, trainee, pit_boss
):
    DrillFactory(title="Naturals at 3:2", documents=[natural_document()])
    violations = csp_violations(page)
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/teach/assignments/")
    form = page.get_by_role("form", name="Assign a drill")
    form.get_by_label("Drill").select_option(label="Naturals at 3:2 (practice)")
    form.get_by_label("Class").select_option(label="Morning")
    form.get_by_label("Due on").fill("2030-05-01")
    form.locator("#id_due_time").fill("18:30")
    form.get_by_label("Sittings allowed").fill("2")
    page.screenshot(path=artifacts / "1-assign.png", full_page=True)
    form.get_by_role("button", name="Assign").click()
    expect(page.locator("h1")).to_have_text("Naturals at 3:2")
    expect(page.locator("[data-status=not_started]")).to_have_count(1)
    page.screenshot(path=artifacts / "2-assignment.png", full_page=True)
    assignment = Assignment.objects.get()
    assert assignment.assigned_by_id == pit_boss.pk

    page.goto(f"{live_server.url}/teach/assignments/classes/{pit['mine'].pk}/board/")
    expect(page.locator("table.board tbody tr")).to_have_count(1)
    page.screenshot(path=artifacts / "3-board.png", full_page=True)

    page.goto(f"{live_server.url}/teach/assignments/{assignment.pk}/")
    reassign = page.get_by_role("form", name="Reassign")
    reassign.get_by_label("Sittings allowed").fill("4")
    reassign.get_by_role("button", name="Save").click()
    expect(page.get_by_text("sittings and due date are changed")).to_be_visible()
    cancel = page.get_by_role("form", name="Cancel the assignment")
    cancel.get_by_role("checkbox").check()
    cancel.get_by_role("button", name="Cancel this assignment").click()
    expect(page.locator(".pit-warning")).to_contain_text("Cancelled")
    page.screenshot(path=artifacts / "4-cancelled.png", full_page=True)
    assignment.refresh_from_db()
    assert (assignment.max_sittings, assignment.cancelled_by_id) == (4, pit_boss.pk)

    make_attempt(trainee=trainee, answers=[wrong("5.00"), RIGHT])
    retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Naturals", skills=["natural-3to2"]
    )
    page.goto(f"{live_server.url}/pit/trainees/{trainee.pk}/retraining/")
    page.get_by_role("button", name="Assign a refresher on these skills").click()
    expect(page.locator(".refresher").first).to_contain_text("not started")
    page.locator("section[aria-labelledby=retraining]").screenshot(
        path=artifacts / "5-refresher.png"
    )
    assert Refresher.objects.filter(trainee=trainee).count() == 1
    assert violations == []

    page.get_by_role("button", name="Log out").click()
    log_in(page, live_server.url, trainee.username)
    page.goto(f"{live_server.url}/train/record/")
    expect(page.get_by_role("button", name="Play it")).to_be_visible()
    page.locator("section[aria-labelledby=flags-title]").screenshot(
        path=artifacts / "6-my-record.png"
    )
