"""The drill builder and scenario authoring in Chromium: a pit boss stages a round, meets
the engine's error at the field, previews it and saves it; then builds a drill from it,
previewing the round as the trainee will see it. No CSP violation on the way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import Drill, Scenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page() -> Iterator[Page]:
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        yield page


def test_a_pit_boss_stages_a_round_and_builds_a_drill_from_it(live_server, pit_boss, page):
    artifacts = artifacts_dir("workspace")
    refused = csp_violations(page)
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/teach/scenarios/new/")
    page.fill("#id_title", "Two boxes against a dealer 17")
    page.select_option("#id_profile", label="Six-deck shoe")
    page.check("input[name=skills][value=push]")
    page.fill("#id_box_1_stakes", "p1 10")
    page.fill("#id_box_1_actions", "stand")
    page.fill("#id_box_2_stakes", "p2 25, ben 5")
    page.fill("#id_box_2_actions", "hit hit stand")  # one hit too many: 17 is not hit
    page.fill("#id_shoe", "Ts 9h 7d 8c 3h Kd 5s 4c Qh 9d")
    page.click("button[value=preview]")
    expect(page.locator("#id_box_2_actions-error")).to_be_visible()
    page.screenshot(path=artifacts / "1-scenario-error-at-field.png", full_page=True)
    page.fill("#id_box_2_actions", "hit stand")
    page.click("button[value=preview]")
    expect(page.locator("section.felt")).to_be_visible()
    page.click("details.answer-key summary")
    page.screenshot(path=artifacts / "2-scenario-preview.png", full_page=True)
    page.click("button[value=save]")
    expect(page).to_have_url(f"{live_server.url}/teach/scenarios/")
    scenario = Scenario.objects.get()
    page.screenshot(path=artifacts / "3-scenarios.png", full_page=True)

    page.goto(f"{live_server.url}/teach/drills/new/library/")
    page.check(f"#pick-{scenario.pk}")
    page.fill("#id_title", "Pushes")
    page.click("button[value=preview]")
    expect(page.locator("section.felt")).to_be_visible()
    page.screenshot(path=artifacts / "4-drill-preview.png", full_page=True)
    page.click("button[value=create]")
    # Making a drill opens its own page (issue #24), where it can be assigned.
    expect(page).to_have_url(f"{live_server.url}/teach/drills/{Drill.objects.get().pk}/")
    page.screenshot(path=artifacts / "5-drill.png", full_page=True)
    assert Drill.objects.get().title == "Pushes"
    page.goto(f"{live_server.url}/teach/drills/new/generated/")
    page.screenshot(path=artifacts / "6-generated.png", full_page=True)
    assert refused == []


def test_a_round_of_a_game_without_a_form_is_staged_as_a_document(live_server, pit_boss, page):
    """The test game names no form: its round is pasted as a document, refused at the
    document in the game's words, previewed on its own table and saved."""
    import json

    from tests.accessibility import assert_accessible
    from trainer.models import RuleProfile
    from trainer.services.profiles import profile_version_create

    table = RuleProfile.objects.create(
        name="dealer-draws-table", title="Dealer draws", game="dealer-draws"
    )
    profile_version_create(
        profile=table,
        parameters={"stands_on": 17, "min_bet": "1", "max_bet": "100", "boxes": 1},
        notes="The test game's table.",
    )
    document = {
        "format": "dealer-draws/1",
        "title": "Dealer has 12",
        "skills": ["stiff-hands"],
        "rules": "dealer-draws-table",
        "total": 40,
    }
    artifacts = artifacts_dir("workspace")
    refused = csp_violations(page)
    log_in(page, live_server.url, pit_boss.username)
    page.goto(f"{live_server.url}/teach/scenarios/")
    page.click("text=Stage a round as a document")
    page.fill("#id_document", json.dumps(document, indent=2))
    page.click("button[value=preview]")
    expect(page.locator("#id_document-error")).to_contain_text("total")
    assert_accessible(page)
    page.fill("#id_document", json.dumps({**document, "total": 12}, indent=2))
    page.click("button[value=preview]")
    preview = page.locator("section[aria-label=Preview]")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text("The dealer holds 12: draw or stand?")
    page.screenshot(path=artifacts / "7-document-preview.png", full_page=True)
    assert_accessible(page)
    page.click("button[value=save]")
    expect(page).to_have_url(f"{live_server.url}/teach/scenarios/")
    assert Scenario.objects.get().game == "dealer-draws"
    assert refused == []
