"""Running a class end to end in Chromium, on the demo data, without the Django admin: the
demo pit boss invites a trainee to the demo class, loads a roster file (refused whole for
one bad line, then loaded), builds a generated drill, assigns it to the class due tomorrow;
the demo trainee sees it on My training and plays it to the end; the worker grades it; the
pit boss follows the progress board, reviews a mistake, flags the trainee and assigns a
refresher; the trainee sees all three on My record. axe checks every /teach/ page and the
pit pages on the way, and no page breaks the CSP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Page, expect

from audit.models import Refresher, RetrainingFlag, Review
from teaching.management.commands.setup_demo import DEMO_CLASS, DEMO_PASSWORD
from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from tests.trainer.test_table_browser import graded
from trainer.models import Assignment, Attempt, AttemptItem, Drill, TrainingClass

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRILL = "Surrender and insurance"
NEW_PASSWORD = "a-long-new-password-for-nina"


@pytest.fixture
def artifacts() -> Path:
    return artifacts_dir("run-a-class")


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def checked(page: Page, artifacts: Path, name: str) -> None:
    """Screenshot the page, then fail on anything axe finds."""
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    assert_accessible(page)


def answer(page: Page, attempt: Attempt, *, right: bool) -> None:
    """Answer the question the page shows from the table's own controls: the right answer
    (read from the round's key only after the page asked) or, when told, a wrong one."""
    position = int(page.locator("input[name=position]").input_value())
    n = int(page.locator("input[name=question]").input_value())
    expected = AttemptItem.objects.get(attempt=attempt, position=position).answer_key[n - 1][
        "expected"
    ]
    if "action" in expected:
        page.locator(f"input[name=action][value='{expected['action']}']").check()
        amount = expected["amount"] if right else f"{expected['amount']}1"
        page.fill("#amount", amount)
        page.click("button.settle-submit")
        return
    if expected["answer"] == "peek":
        finding = "natural" if expected["dealer_blackjack"] else "clear"
        if not right:
            finding = "clear" if finding == "natural" else "natural"
        page.click(f"button[name=answer][value='peek:{finding}']")
        return
    buttons = page.locator("button[name=answer]")
    if right:
        page.click(f"button[name=answer][value='{expected['answer']}']")
    else:
        values = [buttons.nth(i).get_attribute("value") for i in range(buttons.count())]
        page.click(
            f"button[name=answer][value='{next(v for v in values if v != expected['answer'])}']"
        )


def test_the_demo_pit_boss_runs_a_class_end_to_end_in_the_browser(
    live_server, page, artifacts, settings, request
):
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    call_command("setup_demo_history", verbosity=0)
    settings.ENVIRONMENT = "test"
    # Started after the set-up: on SQLite's shared in-memory database the worker's writes
    # (the set-up's notifications) lock the tables the history command writes.
    request.getfixturevalue("celery_worker")
    group = TrainingClass.objects.get(name=DEMO_CLASS)
    base = live_server.url
    violations = csp_violations(page)

    # Classes and drills: the class, its roster, an invitation.
    log_in(page, base, "pitboss", DEMO_PASSWORD)
    page.get_by_role("link", name="Classes and drills").click()
    expect(page.locator("h1")).to_be_visible()
    checked(page, artifacts, "01-workspace")
    page.goto(f"{base}/teach/classes/")
    checked(page, artifacts, "02-classes")
    page.get_by_role("link", name=DEMO_CLASS).click()
    expect(page.locator("h1")).to_have_text(DEMO_CLASS)
    checked(page, artifacts, "03-class")
    invite = page.locator("section[aria-labelledby=invite-title]")
    invite.get_by_label("Username").fill("nina")
    invite.get_by_label("First name").fill("Nina")
    invite.get_by_label("Last name").fill("Newcomer")
    invite.get_by_label("E-mail address").fill("nina@casino.example")
    invite.get_by_role("button", name="Invite").click()
    expect(page.locator("tr", has_text="nina")).to_contain_text("Invited, no password yet")
    [invitation] = [m for m in mail.outbox if m.to == ["nina@casino.example"]]
    link = re.search(r"https?://\S+/accounts/\S+/", invitation.body)
    assert link, invitation.body

    page.get_by_role("link", name="Load a roster file").click()
    expect(page.locator("h1")).to_have_text("Load a roster file")
    checked(page, artifacts, "04-roster")
    bad = (
        "username,first_name,last_name,email,class\n"
        f"omar,Omar,Odd,omar@casino.example,{DEMO_CLASS}\n"
        f"paula,Paula,Pair,not-an-address,{DEMO_CLASS}\n"
    )
    page.get_by_label("Roster file (CSV)").set_input_files(
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": bad.encode()}]
    )
    page.get_by_role("button", name="Load the roster").click()
    report = page.locator("section[aria-labelledby=report-title]")
    expect(report.locator("h2")).to_have_text("Nothing was changed")
    expect(report.locator("tbody tr")).to_have_count(1)
    expect(report.locator("tbody tr")).to_contain_text("3")
    checked(page, artifacts, "05-roster-refused")
    assert not group.trainees.filter(username__in=["omar", "paula"]).exists()
    good = bad.replace("not-an-address", "paula@casino.example")
    page.get_by_label("Roster file (CSV)").set_input_files(
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": good.encode()}]
    )
    page.get_by_role("button", name="Load the roster").click()
    expect(report.locator("h2")).to_have_text("Roster loaded")
    checked(page, artifacts, "06-roster-loaded")
    assert set(
        group.trainees.filter(username__in=["omar", "paula"]).values_list("username", flat=True)
    ) == {"omar", "paula"}

    # The invitation's link sets the new trainee's password (in a context of its own).
    invitee = page.context.browser.new_page()
    invitee.goto(link.group(0))
    invitee.fill("#id_new_password1", NEW_PASSWORD)
    invitee.fill("#id_new_password2", NEW_PASSWORD)
    invitee.locator("button[type=submit]").click()
    expect(invitee.locator("h1")).not_to_have_text("This link no longer works")
    invitee.close()
    assert group.trainees.get(username="nina").check_password(NEW_PASSWORD)

    # A generated drill, built from the workspace's form.
    page.goto(f"{base}/teach/drills/")
    checked(page, artifacts, "07-drills")
    page.goto(f"{base}/teach/drills/new/generated/")
    checked(page, artifacts, "08-drill-builder")
    page.get_by_label("Title").fill(DRILL)
    page.get_by_label("Table").select_option(index=1)
    page.get_by_label("Late surrender").check()
    page.get_by_label("Insurance").check()
    page.get_by_label("Rounds").fill("3")
    page.get_by_role("button", name="Make the drill").click()
    expect(page.get_by_text(DRILL).first).to_be_visible()
    drill = Drill.objects.get(title=DRILL)

    page.goto(f"{base}/teach/drills/new/library/")
    checked(page, artifacts, "09-drill-from-library")
    page.goto(f"{base}/teach/scenarios/")
    checked(page, artifacts, "10-scenarios")
    page.goto(f"{base}/teach/scenarios/new/")
    checked(page, artifacts, "11-scenario-form")

    # Assigned to the class, due tomorrow.
    tomorrow = timezone.localdate() + timedelta(days=1)
    page.goto(f"{base}/teach/assignments/")
    checked(page, artifacts, "12-assignments")
    form = page.get_by_role("form", name="Assign a drill")
    form.get_by_label("Drill").select_option(label=f"{DRILL} (practice)")
    form.get_by_label("Class").select_option(label=DEMO_CLASS)
    form.get_by_label("Due on").fill(tomorrow.isoformat())
    form.locator("#id_due_time").fill("18:00")
    form.get_by_role("button", name="Assign").click()
    expect(page.locator("h1")).to_have_text(DRILL)
    checked(page, artifacts, "13-assignment")
    assignment = Assignment.objects.get(drill=drill)
    assert assignment.training_class_id == group.pk
    assert timezone.localdate(assignment.due_at) == tomorrow
    page.get_by_role("button", name="Log out").click()

    # The demo trainee plays it to the end.
    log_in(page, base, "trainee", DEMO_PASSWORD)
    page.goto(f"{base}/train/")
    row = page.locator("section[aria-labelledby=assignments-title] tr", has_text=DRILL)
    expect(row.locator("td[data-label=Due] time")).to_contain_text(tomorrow.strftime("%-d %b %Y"))
    page.screenshot(path=artifacts / "14-my-training.png", full_page=True)
    row.get_by_role("button", name="Start").click()
    expect(page.locator("#q-prompt")).to_be_visible()
    attempt = Attempt.objects.get(trainee__username="trainee", drill=drill)
    answered = 0
    while True:
        if page.locator("#q-prompt").count():
            answer(page, attempt, right=answered > 0)  # the first one wrong, to review
            answered += 1
        elif page.get_by_role("link", name="Next round →").count():
            page.get_by_role("link", name="Next round →").click()
        else:
            break
        page.wait_for_load_state()
    assert answered == sum(len(item.answer_key) for item in attempt.items.all())
    page.screenshot(path=artifacts / "15-all-answered.png", full_page=True)
    page.locator("button[type=submit]", has_text=re.compile("submit", re.I)).first.click()
    assert graded(attempt.pk, seconds=120)
    page.get_by_role("button", name="Log out").click()

    # The pit boss follows the class, reviews a mistake, flags and assigns a refresher.
    log_in(page, base, "pitboss", DEMO_PASSWORD)
    page.goto(f"{base}/teach/assignments/classes/{group.pk}/board/")
    trainee_id = attempt.trainee_id
    headers = page.locator("table.board thead th").all_inner_texts()
    column = next(i for i, text in enumerate(headers) if text.startswith(DRILL))
    cell = page.locator(f"table.board tr[data-trainee='{trainee_id}'] > *").nth(column)
    expect(cell.locator("[data-status]")).to_have_attribute(
        "data-status", re.compile("^(submitted|passed)$")
    )
    checked(page, artifacts, "16-board")

    page.goto(f"{base}/pit/trainees/{trainee_id}/mistakes/")
    checked(page, artifacts, "17-pit-trainee")
    page.locator("section[aria-labelledby=mistakes] tr", has_text=DRILL).first.get_by_role(
        "link"
    ).click()
    checked(page, artifacts, "18-pit-grade")
    review = page.get_by_role("form", name="Review this mistake")
    review.get_by_label("Comment").fill("Look at the hole card twice before you call it.")
    review.get_by_role("button", name="Mark reviewed").click()
    assert Review.objects.filter(grade__run__attempt=attempt).exists()

    page.goto(f"{base}/pit/trainees/{trainee_id}/retraining/")
    flag = page.get_by_role("form", name="Flag for retraining")
    flag.locator("textarea[name=reason]").fill("Insurance and surrender need another pass")
    flag.locator("select[name=skills]").select_option(label="Insurance")
    flag.get_by_role("button", name="Flag for retraining").click()
    page.get_by_role("button", name="Assign a refresher on these skills").click()
    expect(page.locator(".refresher").first).to_contain_text("not started")
    checked(page, artifacts, "19-flag-and-refresher")
    assert RetrainingFlag.objects.filter(trainee_id=trainee_id).exists()
    assert Refresher.objects.filter(trainee_id=trainee_id).count() >= 1
    page.get_by_role("button", name="Log out").click()

    # The trainee sees every piece of feedback on My record.
    log_in(page, base, "trainee", DEMO_PASSWORD)
    page.goto(f"{base}/train/record/")
    expect(page.locator("section[aria-labelledby=reviews-title]")).to_contain_text(
        "Look at the hole card twice"
    )
    flags = page.locator("section[aria-labelledby=flags-title]")
    expect(flags).to_contain_text("Insurance and surrender need another pass")
    refresher = flags.locator("li", has_text="Refresher: Insurance")
    expect(refresher).to_contain_text("not started")
    expect(refresher.get_by_role("button", name="Play it")).to_be_visible()
    checked(page, artifacts, "20-my-record")
    assert violations == []
