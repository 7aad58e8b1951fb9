"""An administrator's week in Chromium, on the demo data, without a shell or the Django admin
(issue #24): unlock an account locked by wrong passwords, add a pit boss and make them a
second instructor of a class, add a trainee and put them on a class, move a trainee between
classes. axe checks every Administration page on the way, each fits a phone at 390 and 320
px, and no page breaks the CSP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Page, expect

from core.lockout import lockout_state
from core.roles import Role, roles_of
from teaching.management.commands.setup_demo import DEMO_CLASS, DEMO_PASSWORD, SWING_CLASS
from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import TrainingClass

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = ({"width": 390, "height": 844}, {"width": 320, "height": 640})


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("administrator")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def checked(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    assert_accessible(page)


def fits(page: Page) -> int:
    return int(
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    )


def test_the_demo_administrator_runs_the_department_in_the_browser(
    live_server, page, artifacts, settings
):
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    settings.ENVIRONMENT = "test"
    base = live_server.url
    violations = csp_violations(page)
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))
    # Monday: trainee2 forgot her password and locked herself out.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "trainee2", "password": "forgotten"})
    assert lockout_state("trainee2") is not None

    log_in(page, base, "admin", DEMO_PASSWORD)
    panel = page.locator("[data-panel=admin]")
    expect(panel).to_contain_text("Manage people and their roles, classes and their instructors")
    panel.get_by_role("link").click()
    expect(page.locator("h1")).to_have_text("Administration")
    expect(page.locator("[data-waiting=locked]")).to_contain_text("1 account locked out")
    expect(page.locator("[data-waiting=invited]")).to_contain_text("1 person has not chosen")
    checked(page, artifacts, "01-administration")

    # Unlock her.
    page.locator("[data-waiting=locked] a").click()
    expect(page.locator("h1")).to_have_text("People")
    checked(page, artifacts, "02-people-locked")
    page.locator("tr[data-person=trainee2] a").click()
    expect(page.locator("dd[data-status=locked]")).to_contain_text("Locked out")
    checked(page, artifacts, "03-person-locked")
    page.get_by_role("button", name="Unlock the account").click()
    expect(page.locator(".messages")).to_contain_text("trainee2 is unlocked")
    assert lockout_state("trainee2") is None
    assert (
        Client()
        .post("/accounts/login/", {"username": "trainee2", "password": DEMO_PASSWORD})
        .status_code
        == 302
    )

    # Tuesday: a new pit boss, who shares the swing shift's class with its pit boss.
    page.goto(f"{base}/administration/people/new/")
    checked(page, artifacts, "04-add-a-person")
    page.get_by_label("Username").fill("quinn")
    page.get_by_label("First name").fill("Quinn")
    page.get_by_label("Last name").fill("Pit")
    page.get_by_label("E-mail address").fill("quinn@casino.example")
    page.get_by_label("Pit boss").check()
    page.get_by_role("button", name="Add and send the invitation").click()
    expect(page.locator(".messages")).to_contain_text("The link works for 7 days")
    checked(page, artifacts, "05-person-invited")
    [invitation] = [m for m in mail.outbox if m.to == ["quinn@casino.example"]]
    assert "within 7 days" in invitation.body

    page.get_by_role("link", name="Administration").first.click()
    page.get_by_role("link", name="Classes and instructors").click()
    checked(page, artifacts, "06-classes")
    page.get_by_role("link", name=SWING_CLASS).click()
    expect(page.locator("h1")).to_have_text(SWING_CLASS)
    page.get_by_label("Pit boss").select_option(label="Quinn Pit (quinn)")
    page.get_by_role("button", name="Make them an instructor").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Quinn Pit (quinn) now teaches {SWING_CLASS}"
    )
    expect(page.locator("[data-instructor]")).to_have_count(2)
    checked(page, artifacts, "07-class-two-instructors")
    swing = TrainingClass.objects.get(name=SWING_CLASS)
    assert set(swing.instructors.values_list("username", flat=True)) == {"pitboss2", "quinn"}

    # Wednesday: a new trainee, put on the demo class from its roster page.
    page.goto(f"{base}/administration/people/new/")
    page.get_by_label("Username").fill("rita")
    page.get_by_label("First name").fill("Rita")
    page.get_by_label("Last name").fill("Rookie")
    page.get_by_label("E-mail address").fill("rita@casino.example")
    page.get_by_label("Trainee").check()
    page.get_by_role("button", name="Add and send the invitation").click()
    expect(page.locator(".messages")).to_contain_text("rita added")
    page.goto(f"{base}/administration/classes/")
    page.get_by_role("link", name=DEMO_CLASS).click()
    page.get_by_role("link", name="Roster: add, invite or remove trainees").click()
    add = page.locator("section[aria-labelledby=add-title]")
    add.get_by_label("Username of an existing trainee").fill("rita")
    add.get_by_role("button", name="Add to the class").click()
    expect(page.locator("tr", has_text="rita")).to_contain_text("Invited, no password yet")
    demo = TrainingClass.objects.get(name=DEMO_CLASS)
    assert demo.trainees.filter(username="rita").exists()

    # Thursday: trainee2 moves from the swing shift to the demo class.
    page.goto(f"{base}/administration/classes/{swing.pk}/")
    page.locator("[data-trainee=trainee2]").get_by_role(
        "link", name="Move to another class"
    ).click()
    expect(page.locator("h1")).to_have_text("Move a trainee to another class")
    checked(page, artifacts, "08-move")
    page.get_by_label("Move to the class").select_option(label=DEMO_CLASS)
    page.get_by_role("button", name="Move the trainee").click()
    expect(page.locator(".messages")).to_contain_text(
        f"moved to {DEMO_CLASS} (they left {SWING_CLASS})"
    )
    assert list(demo.trainees.order_by("username").values_list("username", flat=True)) == [
        "rita",
        "trainee",
        "trainee2",
    ]
    assert not swing.trainees.exists()

    # Friday: the new pit boss's role is confirmed on the people page.
    page.goto(f"{base}/administration/people/?role=pit_boss")
    expect(page.locator("tr[data-person=quinn]")).to_contain_text(SWING_CLASS)
    assert roles_of(get_user_model().objects.get(username="quinn")) == {Role.PIT_BOSS}

    assert not [url for url in visited if "/admin/" in url], "the Django admin was used"
    assert not violations, violations

    # Every Administration page fits a phone.
    urls = [
        "/administration/",
        "/administration/people/",
        "/administration/people/new/",
        f"/administration/people/{get_user_model().objects.get(username='trainee2').pk}/",
        "/administration/classes/",
        f"/administration/classes/{swing.pk}/",
        "/administration/classes/move/",
    ]
    for size in PHONES:
        page.set_viewport_size(size)
        for url in urls:
            page.goto(f"{base}{url}")
            expect(page.locator("h1")).to_be_visible()
            name = f"phone-{size['width']}-" + (url.strip("/").replace("/", "-"))
            page.screenshot(path=artifacts / f"{name}.png", full_page=True)
            assert fits(page) == 0, (size, url)
