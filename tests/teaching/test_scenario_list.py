"""The scenarios list (issue #24, found 8): search and filters on the library, paged."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.graded import client_for
from trainer.management.commands.import_scenarios import load_library
from trainer.models import RuleProfile, Scenario

pytestmark = pytest.mark.django_db


def titles(text: str) -> int:
    return text.count('aria-label="Edit ')


def test_the_library_is_searched_filtered_and_paged(pit_boss):
    load_library()
    active = Scenario.objects.filter(is_active=True).count()
    client = client_for(pit_boss)
    url = reverse("teach:scenarios")
    first = client.get(url).content.decode()
    assert titles(first) == 25
    assert f"{active} rounds; page 1 of {-(-active // 25)}." in first
    assert 'rel="next"' in first
    found = client.get(url, {"q": "three sevens"}).content.decode()
    assert 0 < titles(found) < 25
    assert "Three sevens" in found
    shoe = RuleProfile.objects.get(name="casino-shoe")
    at_shoe = client.get(url, {"table": shoe.pk, "skill": "split"}).content.decode()
    want = sum(
        1
        for s in Scenario.objects.filter(is_active=True, profile_version__profile=shoe)
        if "split" in s.skills
    )
    assert titles(at_shoe) == min(want, 25) > 0
    assert "Six-deck shoe" in at_shoe
    nothing = client.get(url, {"q": "no such words anywhere"}).content.decode()
    assert "No scenario matches" in nothing


@pytest.mark.parametrize(
    ("query", "field"), [({"table": "999999"}, "table"), ({"skill": "juggling"}, "skill")]
)
def test_a_filter_that_does_not_read_is_named(pit_boss, query, field):
    response = client_for(pit_boss).get(reverse("teach:scenarios"), query)
    assert response.status_code == 400
    assert f'id="id_{field}-error"' in response.content.decode()


def test_a_trainee_never_reaches_the_list(trainee):
    assert client_for(trainee).get(reverse("teach:scenarios")).status_code == 403
