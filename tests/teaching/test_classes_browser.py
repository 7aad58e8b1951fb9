"""End to end in Chromium: a pit boss creates a class from the workspace, invites a
trainee, removes one after the confirmation, and loads a roster file with a bad line
(refused whole, the line named); no Content-Security-Policy violation on the way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Page, expect

from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import TrainingClass

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_a_pit_boss_runs_a_class_in_the_workspace(live_server, page, pit_boss, trainee, tmp_path):
    artifacts = artifacts_dir("classes")
    refused = csp_violations(page)
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/teach/")
    page.click("text=Classes and rosters")
    page.click("text=New class")
    page.fill("#id_name", "Monday evening")
    page.click("button:has-text('Create the class')")
    expect(page.locator("h1")).to_have_text("Monday evening")
    created = TrainingClass.objects.get(name="Monday evening")

    page.fill("#id_username", trainee.username)
    page.click("button:has-text('Add to the class')")
    expect(page.locator(f'tr[data-trainee="{trainee.pk}"]')).to_contain_text(trainee.username)

    invite = page.locator("section", has_text="Invite a new trainee")
    invite.locator("#invite_username").fill("jdoe")
    invite.locator("#invite_first_name").fill("Jane")
    invite.locator("#invite_last_name").fill("Doe")
    invite.locator("#invite_email").fill("jane@casino.example")
    invite.locator("button:has-text('Invite')").click()
    expect(page.locator("table")).to_contain_text("Invited, no password yet")
    assert [m.to for m in mail.outbox] == [["jane@casino.example"]]
    page.screenshot(path=str(artifacts / "class.png"), full_page=True)

    page.locator(f'tr[data-trainee="{trainee.pk}"] >> text=Remove').click()
    page.screenshot(path=str(artifacts / "remove.png"))
    page.click("button:has-text('Remove from the class')")
    expect(page.locator(f'tr[data-trainee="{trainee.pk}"]')).to_have_count(0)
    assert not created.trainees.filter(pk=trainee.pk).exists()

    roster = tmp_path / "roster.csv"
    roster.write_text(
        "username,first_name,last_name,email,class\n"
        "kim,Kim,Lee,kim@casino.example,Monday evening\n"
        "bad name,,,bob@casino.example,Nowhere\n"
    )
    page.click("text=Load a roster file")
    page.set_input_files("#id_file", str(roster))
    page.click("button:has-text('Load the roster')")
    expect(page.locator("#report-title")).to_have_text("Nothing was changed")
    expect(page.locator("table")).to_contain_text("Nowhere")
    page.screenshot(path=str(artifacts / "roster-refused.png"), full_page=True)
    assert not get_user_model().objects.filter(username="kim").exists()
    assert refused == []
