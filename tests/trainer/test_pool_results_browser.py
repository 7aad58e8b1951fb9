"""A sealed pool's results and My record in a browser: they say why the right answers are
not shown, and axe-core finds no WCAG 2.1 A/AA violation (docs/accessibility.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from audit.services.reviews import review_create
from tests.accessibility import axe_violations, describe
from tests.browser import chromium_page, csp_violations, log_in
from tests.trainer.test_pool_replay import assignment, pool, sit  # noqa: F401 - fixtures
from trainer.models import Grade

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_sealed_pools_results_and_record_say_why_and_are_accessible(
    live_server,
    trainee,
    pit_boss,
    assignment,  # noqa: F811 - the fixture imported above
):
    attempt = sit(trainee, assignment)
    grade = Grade.objects.filter(run__attempt=attempt, correct=False).exclude(decision=None)[0]
    review_create(grade=grade, reviewer=pit_boss, comment="Count the 3 to 2 again.")
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        refused = csp_violations(page)
        log_in(page, live_server.url, trainee.username)
        page.goto(live_server.url + reverse("train:results", args=[attempt.pk]))
        expect(page.get_by_role("note")).to_contain_text("the right answers are not shown yet")
        expect(page.get_by_role("columnheader", name="Rule")).to_be_visible()
        expect(page.get_by_role("columnheader", name="Expected")).to_have_count(0)
        violations = axe_violations(page)
        assert not violations, describe(violations)
        page.goto(live_server.url + reverse("record:mine"))
        expect(page.locator(".review-list")).to_contain_text("shown once the exam has closed")
        expect(page.locator(".review-list")).not_to_contain_text("Count the 3 to 2 again.")
        violations = axe_violations(page)
        assert not violations, describe(violations)
        assert refused == []
