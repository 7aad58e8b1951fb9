"""The pit's tests start from no cached figures. Their classes with pit bosses (`pit`) are
in tests/conftest.py, their graded attempts and clients in tests/graded.py. The practical
test's browser walks share a tablet-sized page and the demo trainee ready to sign."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from playwright.sync_api import Page

from audit.management.commands.setup_demo_history import Command as DemoHistory
from tests.audit.factories import table_test
from tests.browser import chromium_page
from tests.graded import RIGHT, make_attempt


@pytest.fixture(autouse=True)
def _fresh_figures():
    """The dashboard caches its figures; each test starts from none."""
    cache.clear()


@pytest.fixture
def tablet() -> Iterator[Page]:
    """A Chromium page at a tablet's size (768 by 1024), for the practical test's pages."""
    with chromium_page(viewport={"width": 768, "height": 1024}) as page:
        yield page


@pytest.fixture
def demo_ready(settings):
    """The demo data, its signers ranked, the demo trainee's sitting ready to sign."""
    return demo_trainee_ready_to_sign(settings)


def demo_trainee_ready_to_sign(settings):
    """The demo data with the demo's signers' ranks, and the demo trainee's passed sitting of
    the six-deck shoe's table test; the trainee."""
    settings.SHOESCHOOL_CERT_MIN_MEAN_SECONDS = "0"
    settings.ENVIRONMENT = "development"  # the demo data is refused anywhere else
    call_command("setup_demo", verbosity=0)
    DemoHistory()._signers()  # the demo's ranks, as setup_demo_history records them
    settings.ENVIRONMENT = "test"
    users = get_user_model().objects
    trainee = users.get(username="trainee")
    # A passed sitting of the six-deck shoe's table test, ready to sign.
    make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test("casino-shoe"))
    return trainee
