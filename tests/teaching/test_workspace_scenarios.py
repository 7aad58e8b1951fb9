"""Scenario authoring at /teach/scenarios/: staging a round in fields, the engine's error
at the field its path names, the preview, and revisions that supersede (never edit)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.graded import client_for
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
    # The skill filter's option values are the skills' names; nothing a person reads is.
    assert "dealer-bust" not in text.split('<table class="scenarios">', 1)[1]
    assert ">dealer-bust<" not in text


def six_to_five(**changes: object) -> dict[str, object]:
    """A Blackjack on 10 against a dealer 17, at casino-shoe's table paying 6 to 5."""
    round_ = {
        "title": "Six to five on a ten",
        "skills": ["natural-6to5"],
        "box_1_stakes": "p1 10",
        "box_1_actions": "",
        "box_2_stakes": "",
        "box_2_actions": "",
        "shoe": "As 9h Kd 8c",
        "rule_1_name": "blackjack_pays",
        "rule_1_value": "6:5",
    }
    return staged(**{**round_, **changes})


def test_a_round_may_change_its_tables_rules_and_is_settled_under_them(pit_boss):
    client = client_for(pit_boss)
    preview = client.post(reverse("teach:scenario-new"), six_to_five(action="preview"))
    assert preview.status_code == 200
    assert "Pay 12.00" in preview.content.decode()  # 6 to 5, not 15.00 at 3 to 2
    assert client.post(reverse("teach:scenario-new"), six_to_five()).status_code == 302
    scenario = Scenario.objects.get(title="Six to five on a ten")
    assert scenario.document["rules"] == {
        "profile": "casino-shoe",
        "overrides": {"blackjack_pays": "6:5"},
    }
    assert scenario.profile_version.profile.name == "casino-shoe"
    # Edit opens the form with the change written as it was entered.
    form = client.get(reverse("teach:scenario-edit", args=[scenario.pk])).content.decode()
    assert '<option value="blackjack_pays" selected>' in form
    assert 'value="6:5"' in form


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"rule_1_value": "7:5"}, "rule_1_value", "must be one of 3:2, 6:5, 1:1"),
        ({"rule_1_name": ""}, "rule_1_name", "choose which rule this value changes"),
        ({"rule_1_value": ""}, "rule_1_value", "write the rule&#x27;s value for this round"),
        (
            {"rule_2_name": "blackjack_pays", "rule_2_value": "1:1"},
            "rule_2_name",
            "this rule is already changed above",
        ),
        (
            {"rule_1_name": "dealer_hits_soft_17", "rule_1_value": "maybe"},
            "rule_1_value",
            "must be true or false",
        ),
    ],
)
def test_a_bad_rule_change_is_refused_at_its_row(pit_boss, changes, field, says):
    response = client_for(pit_boss).post(reverse("teach:scenario-new"), six_to_five(**changes))
    text = response.content.decode()
    assert response.status_code == 400
    assert f'id="id_{field}-error"' in text
    assert says in text
    assert not Scenario.objects.filter(title="Six to five on a ten").exists()


def test_the_table_shows_the_rounds_changed_rule_to_the_trainee(pit_boss, trainee):
    from trainer.models import DrillKind
    from trainer.services.attempts import attempt_start
    from trainer.services.drills import drill_create

    client_for(pit_boss).post(reverse("teach:scenario-new"), six_to_five())
    scenario = Scenario.objects.get(title="Six to five on a ten")
    drill = drill_create(
        title="Six to five", kind=DrillKind.FIXED, user=pit_boss, scenarios=[scenario], count=1
    )
    attempt = attempt_start(trainee=trainee, drill=drill, mode="practice")
    page = client_for(trainee).get(reverse("train:table", args=[attempt.pk])).content.decode()
    placard = page.split('class="placard"', 1)[1].split("</p>", 1)[0]
    assert "Blackjack pays 6 to 5" in placard
    assert "3 to 2" not in placard


def test_the_shipped_library_still_names_its_tables_rules_only():
    from core.errors import ProductError
    from trainer.services.scenarios import scenario_validate

    document = {
        "format": "blackjack-scenario/1",
        "id": "changed",
        "title": "Changed",
        "skills": ["natural-6to5"],
        "rules": {"profile": "casino-shoe", "overrides": {"blackjack_pays": "6:5"}},
        "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}]}],
        "shoe": ["As", "9h", "Kd", "8c"],
    }
    with pytest.raises(ProductError, match="overrides are not accepted in the library"):
        scenario_validate(document=document)
    assert scenario_validate(document=document, rule_changes=True)
