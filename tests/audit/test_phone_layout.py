"""At a phone's 390 px the trainee's and the pit's pages read without sideways scrolling
of the page: a wide table scrolls inside its own box."""

from __future__ import annotations

import pytest

from tests.audit.factories import table_test
from tests.browser import artifacts_dir, chromium_page, log_in
from tests.graded import RIGHT, make_attempt, wrong

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _fits(page) -> int:
    """How far the page itself scrolls sideways, in pixels (0: it fits)."""
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_the_trainees_and_the_pits_pages_fit_a_phone(live_server, pit, trainee, pit_boss):
    for _ in range(3):
        make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00"), wrong("-2.50")])
    make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    artifacts = artifacts_dir("phone")
    pages = {
        trainee: ["/train/", "/train/record/", "/tables/"],
        pit_boss: [
            "/pit/",
            "/pit/queue/",
            f"/pit/trainees/{trainee.pk}/",
            f"/pit/trainees/{trainee.pk}/mistakes/",
            f"/pit/trainees/{trainee.pk}/certification/",
            f"/pit/trainees/{trainee.pk}/sign-off/",
        ],
    }
    for user, urls in pages.items():
        with chromium_page(viewport=PHONE) as page:
            log_in(page, live_server.url, user.username)
            for url in urls:
                page.goto(f"{live_server.url}{url}")
                name = url.strip("/").replace("/", "-") or "home"
                page.screenshot(path=artifacts / f"{name}.png", full_page=True)
                assert _fits(page) == 0, url
