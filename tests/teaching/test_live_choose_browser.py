"""In Chromium: the instructor filters the library by table, ticks and numbers scenarios
and deals them to the class, at a projector's width and a phone's; axe on the page, and
the library listed a table at a time (two tables mixed are refused in
test_live_choose.py). Screenshots in test-artifacts/live-choose."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.accessibility import assert_accessible
from tests.browser import artifacts_dir, chromium_page, log_in
from tests.factories import profile_version
from tests.trainer.factories import ScenarioFactory, natural_document
from trainer.models import LiveSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_instructor_deals_picked_scenarios(live_server, pit, pit_boss, width):
    first = ScenarioFactory(title="A natural at 3 to 2", document=natural_document("a"))
    second = ScenarioFactory(title="Two boxes, a push and a win")
    ScenarioFactory(
        title="Double deck natural",
        document=natural_document("d"),
        profile_version=profile_version("casino-double-deck"),
    )
    shots = artifacts_dir("live-choose")
    with chromium_page(viewport={"width": width, "height": 900}) as page:
        base = live_server.url
        log_in(page, base, pit_boss.username)
        page.goto(f"{base}/teach/live/")
        page.locator("#pick-title").scroll_into_view_if_needed()
        # The library is listed a table at a time: none until one is chosen.
        expect(page.get_by_text("Choose a table above")).to_be_visible()
        expect(page.get_by_text("Double deck natural")).to_have_count(0)

        # One table: its filter, then the push first and the natural second.
        page.select_option("#id_profile", label=first.profile_version.profile.title)
        page.get_by_role("button", name="Show", exact=True).click()
        expect(page.get_by_text("A natural at 3 to 2")).to_be_visible()
        expect(page.get_by_text("Double deck natural")).to_have_count(0)
        assert_accessible(page)
        page.screenshot(path=str(shots / f"pick-{width}.png"), full_page=True)
        page.select_option("#id_pick-training_class", label="Morning")
        page.get_by_role("checkbox", name="A natural at 3 to 2").check()
        page.get_by_label("Order of A natural at 3 to 2").fill("2")
        page.get_by_role("checkbox", name="Two boxes, a push and a win").check()
        page.get_by_label("Order of Two boxes, a push and a win").fill("1")
        page.get_by_role("button", name="Deal these scenarios to the class").click()
        expect(page.get_by_role("button", name="Open the question")).to_be_visible()
        session = LiveSession.objects.get()
        assert [r["scenario"] for r in session.rounds] == [second.pk, first.pk]
