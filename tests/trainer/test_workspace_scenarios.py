"""Scenario authoring at /teach/scenarios/: staging a round in fields, the engine's error
at the field its path names, the preview, and revisions that supersede (never edit)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.conftest import client_for
from trainer.models import RuleProfile, Scenario

pytestmark = pytest.mark.django_db


def staged(**changes: object) -> dict[str, object]:
    """Two boxes against a dealer 17 (casino-shoe): box 1 stands on 19, box 2 hits 12 to 17."""
    form = {
        "title": "Two boxes against a dealer 17",
        "profile": RuleProfile.objects.get(name="casino-shoe").pk,
        "skills": ["push", "dealer-bust"],
        "difficulty": "2",
        "box_1_stakes": "p1 10",
        "box_1_actions": "stand",
        "box_2_stakes": "p2 25, ben 5",
        "box_2_actions": "hit stand",
        "shoe": "Ts 9h 7d 8c 3h Kd 5s 4c Qh 9d",
        "action": "save",
    }
    return {**form, **changes}


def test_a_staged_round_is_saved_as_a_scenario_and_a_ledger_event(pit_boss):
    response = client_for(pit_boss).post(reverse("teach:scenario-new"), staged())
    assert response.status_code == 302
    scenario = Scenario.objects.get(title="Two boxes against a dealer 17")
    assert scenario.slug == "two-boxes-against-a-dealer-17"
    assert scenario.document["boxes"][1]["stakes"] == [
        {"player": "p2", "amount": "25"},
        {"player": "ben", "amount": "5"},
    ]
    entry = LedgerEntry.objects.get(event=Event.SCENARIO_CREATED)
    assert (entry.subject_id, entry.actor_id) == (str(scenario.pk), pit_boss.pk)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        # box 2 hits 12 and draws 5 (17): a hit on 17 is left over.
        ({"box_2_actions": "hit hit stand"}, "box_2_actions"),
        # box 1 needs a decision on 19: none is scripted.
        ({"box_1_actions": ""}, "box_1_actions"),
        ({"shoe": "Ts 9h 7d"}, "shoe"),
        ({"box_2_stakes": "p2 25, ben 0.001"}, "box_2_stakes"),
        ({"shoe": "Ts 9h 7d 8c 3h Kd 5s 4c Qh Zz"}, "shoe"),
        ({"box_1_insurance": "p1 5"}, "box_1_insurance"),
    ],
)
def test_the_engines_error_is_shown_at_the_field_it_names(pit_boss, changes, field):
    response = client_for(pit_boss).post(reverse("teach:scenario-new"), staged(**changes))
    assert response.status_code == 400
    assert f'id="id_{field}-error"' in response.content.decode()
    assert not Scenario.objects.exists()


def test_the_preview_shows_the_table_and_the_key_in_words(pit_boss):
    response = client_for(pit_boss).post(reverse("teach:scenario-new"), staged(action="preview"))
    text = response.content.decode()
    assert response.status_code == 200
    assert 'class="felt"' in text
    assert "Answer key (for you" in text
    assert "Settle a hand" in text
    assert "Pay 10.00" in text
    assert not Scenario.objects.exists()


def test_edit_opens_the_latest_revision_and_saving_supersedes_it(pit_boss):
    client = client_for(pit_boss)
    client.post(reverse("teach:scenario-new"), staged())
    first = Scenario.objects.get()
    page = client.get(reverse("teach:scenario-edit", kwargs={"scenario_id": first.pk}))
    assert 'value="p2 25, ben 5"' in page.content.decode()
    response = client.post(
        reverse("teach:scenario-edit", kwargs={"scenario_id": first.pk}),
        staged(box_2_stakes="p2 50", difficulty="3"),
    )
    assert response.status_code == 302
    first.refresh_from_db()
    revised = Scenario.objects.get(is_active=True)
    assert first.document["boxes"][1]["stakes"][0]["amount"] == "25"  # kept as it was
    assert (first.is_active, revised.revision, revised.supersedes_id) == (False, 2, first.pk)
    assert revised.slug == "two-boxes-against-a-dealer-17"
    assert LedgerEntry.objects.filter(event=Event.SCENARIO_REVISED).count() == 1
    # The old revision's edit link leads to the newest one.
    old = client.get(reverse("teach:scenario-edit", kwargs={"scenario_id": first.pk}))
    assert old.status_code == 302


def test_the_list_shows_titles_and_labels(pit_boss):
    client = client_for(pit_boss)
    client.post(reverse("teach:scenario-new"), staged())
    text = client.get(reverse("teach:scenarios")).content.decode()
    assert "Two boxes against a dealer 17" in text
    assert "Dealer bust" in text
    assert "dealer-bust" not in text
