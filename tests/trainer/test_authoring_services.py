"""drill_retire, scenario_create and scenario_revise: who may, what is refused (nothing
written), revisions that supersede rather than edit, and the ledger event of each."""

from __future__ import annotations

import pytest
from django.utils.text import slugify
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ConflictError, ForbiddenError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import entries_written
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, simple_document
from trainer.models import Scenario
from trainer.services.drills import drill_create, drill_retire
from trainer.services.scenario_authoring import (
    scenario_create,
    scenario_revise,
    scenario_slug_free,
)

pytestmark = pytest.mark.django_db


def document(**changes: object) -> dict:
    doc = {**simple_document(), "skills": ["push"]}
    doc.pop("id")
    return {**doc, **changes}


def test_only_pit_bosses_and_admins_author(trainee, compliance_officer):
    for user in (trainee, compliance_officer):
        with pytest.raises(ForbiddenError):
            scenario_create(document=document(), user=user)
        with pytest.raises(ForbiddenError):
            drill_retire(drill=DrillFactory(), user=user)
    assert not Scenario.objects.exists()
    assert not LedgerEntry.objects.filter(event__startswith="scenario.").exists()


def test_a_new_scenario_gets_a_free_slug_and_a_ledger_entry(pit_boss, admin_user):
    first = scenario_create(document=document(), user=pit_boss, difficulty=3)
    second = scenario_create(document=document(), user=admin_user)
    assert (first.slug, second.slug) == (
        "two-boxes-against-a-dealer-17",
        "two-boxes-against-a-dealer-17-2",
    )
    assert first.difficulty == 3
    entries = LedgerEntry.objects.filter(event=Event.SCENARIO_CREATED).order_by("sequence")
    assert [(e.subject_id, e.actor_id) for e in entries] == [
        (str(first.pk), pit_boss.pk),
        (str(second.pk), admin_user.pk),
    ]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"skills": ["no-such-skill"]}, "skills"),
        ({"title": ""}, "title"),
        # A rule change may be authored, but only to a value the engine knows.
        (
            {"rules": {"profile": "casino-shoe", "overrides": {"surrender": "early"}}},
            "rules.overrides.surrender",
        ),
        ({"rules": {"overrides": {"surrender": "none"}}}, "rules.profile"),
        ({"shoe": ["Ts"]}, "shoe"),
    ],
)
def test_a_refused_scenario_names_its_field_and_writes_nothing(pit_boss, changes, field):
    with pytest.raises(ProductError) as refused:
        scenario_create(document=document(**changes), user=pit_boss)
    assert refused.value.field == field
    assert not Scenario.objects.exists()
    assert not entries_written().exists()


def test_an_id_in_use_is_refused_not_overwritten(pit_boss):
    made = scenario_create(document=document(), user=pit_boss)
    with pytest.raises(ConflictError):
        scenario_create(document=document(id=made.slug, title="Other"), user=pit_boss)
    made.refresh_from_db()
    assert made.title == "Two boxes against a dealer 17"


def test_a_revision_supersedes_and_the_old_row_is_kept_as_it_was(pit_boss):
    made = scenario_create(document=document(), user=pit_boss)
    kept = dict(made.document)
    revised = scenario_revise(
        scenario=made, document=document(title="Retitled"), user=pit_boss, difficulty=4
    )
    made.refresh_from_db()
    assert made.document == kept
    assert (made.is_active, made.slug) == (False, f"{revised.slug}--r1")
    assert (revised.revision, revised.supersedes_id, revised.is_active) == (2, made.pk, True)
    assert revised.document["id"] == revised.slug
    entry = LedgerEntry.objects.get(event=Event.SCENARIO_REVISED)
    assert (entry.subject_id, entry.payload["supersedes"]) == (str(revised.pk), made.pk)
    # Only the newest revision may be revised, and an unchanged one is no revision.
    with pytest.raises(ConflictError):
        scenario_revise(scenario=made, document=document(title="Fork"), user=pit_boss)
    with pytest.raises(ProductError, match="nothing changed"):
        scenario_revise(scenario=revised, document=revised.document, user=pit_boss)
    assert Scenario.objects.count() == 2


def test_a_refused_revision_leaves_the_scenario_active(pit_boss):
    made = scenario_create(document=document(), user=pit_boss)
    with pytest.raises(ProductError):
        scenario_revise(scenario=made, document=document(shoe=["Ts"]), user=pit_boss)
    made.refresh_from_db()
    assert made.is_active
    assert Scenario.objects.count() == 1


def test_drills_made_and_retired_are_ledger_events(pit_boss):
    scenario = scenario_create(document=document(), user=pit_boss)
    drill = drill_create(title="One", kind="fixed", scenarios=[scenario], user=pit_boss)
    made = LedgerEntry.objects.get(event=Event.DRILL_CREATED)
    assert (made.subject_id, made.actor_id, made.payload["scenarios"]) == (
        str(drill.pk),
        pit_boss.pk,
        [scenario.pk],
    )
    drill_retire(drill=drill, user=pit_boss, reason="replaced")
    drill.refresh_from_db()
    assert drill.is_active is False
    retired = LedgerEntry.objects.get(event=Event.DRILL_RETIRED)
    assert retired.payload["reason"] == "replaced"
    with pytest.raises(ConflictError):
        drill_retire(drill=drill, user=pit_boss)
    assert LedgerEntry.objects.filter(event=Event.DRILL_RETIRED).count() == 1


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=120))
def test_a_free_slug_is_always_a_valid_unused_slug(title):
    slug = scenario_slug_free(title)
    assert 0 < len(slug) <= 90
    assert slugify(slug) == slug
    assert not Scenario.objects.filter(slug=slug).exists()


@pytest.mark.parametrize("model", ["drill", "scenario"])
def test_the_admin_shows_drills_and_scenarios_but_cannot_change_them(admin_user, model):
    drill = DrillFactory(documents=[simple_document("shown")])
    obj = drill if model == "drill" else drill.scenarios.get()
    client = client_for(admin_user)
    assert client.get(f"/admin/trainer/{model}/").status_code == 200
    assert client.get(f"/admin/trainer/{model}/add/").status_code == 403
    assert (
        client.post(f"/admin/trainer/{model}/{obj.pk}/change/", {"title": "Changed"}).status_code
        == 403
    )
    assert (
        client.post(f"/admin/trainer/{model}/{obj.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    obj.refresh_from_db()
    assert obj.title != "Changed"
