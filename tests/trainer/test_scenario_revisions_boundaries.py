"""Second pass of issue #23: a scenario's revision reaches every drill that deals it (a
regrade replays the newest revision: trainer.services.grading.basis), so a pit boss could
change how another class's drill is graded. Only the author, while no drill but their own
deals it, or an administrator revises a scenario; by service, API and page alike."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import ForbiddenError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import UserFactory
from tests.graded import client_for
from tests.teaching.test_workspace_scenarios import staged
from tests.trainer.factories import simple_document
from trainer.models import DrillScenario, Scenario
from trainer.services.drills import drill_create
from trainer.services.scenario_authoring import scenario_create, scenario_revise

pytestmark = pytest.mark.django_db


def document(**changes: object) -> dict:
    doc = {**simple_document(), "skills": ["push"]}
    doc.pop("id")
    return {**doc, **changes}


@pytest.fixture
def other_boss(db):
    return UserFactory(username="other-boss", roles=["pit_boss"])


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def fixed_drill(user, scenario: Scenario):
    return drill_create(title="Pushes", kind="fixed", user=user, scenarios=[scenario])


def test_a_pit_boss_cannot_revise_another_s_scenario(pit_boss, other_boss):
    made = scenario_create(document=document(), user=other_boss)
    fixed_drill(other_boss, made)
    with pytest.raises(ForbiddenError, match="author or an administrator"):
        scenario_revise(scenario=made, document=document(title="Mine now"), user=pit_boss)
    response = api(pit_boss).post(
        f"/api/scenarios/{made.pk}/revise",
        {"document": document(title="Mine now")},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    made.refresh_from_db()
    assert (made.is_active, made.revision, Scenario.objects.count()) == (True, 1, 1)
    assert not LedgerEntry.objects.filter(event=Event.SCENARIO_REVISED).exists()


def test_a_library_scenario_without_an_author_is_revised_by_administrators_only(
    pit_boss, admin_user
):
    made = scenario_create(document=document(), user=admin_user)
    Scenario.objects.filter(pk=made.pk).update(created_by=None)
    made.refresh_from_db()
    with pytest.raises(ForbiddenError):
        scenario_revise(scenario=made, document=document(title="Fixed"), user=pit_boss)
    assert scenario_revise(scenario=made, document=document(title="Fixed"), user=admin_user)


def test_the_author_cannot_revise_once_another_s_drill_deals_it(pit_boss, other_boss, admin_user):
    made = scenario_create(document=document(), user=pit_boss)
    their_drill = fixed_drill(other_boss, made)
    with pytest.raises(ForbiddenError, match="an administrator revises it"):
        scenario_revise(scenario=made, document=document(title="Changed"), user=pit_boss)
    # Nor through an older revision's drill: the chain is one scenario.
    revised = scenario_revise(scenario=made, document=document(title="Changed"), user=admin_user)
    with pytest.raises(ForbiddenError):
        scenario_revise(scenario=revised, document=document(title="Again"), user=pit_boss)
    # Their drill still deals the revision it was made with.
    link = DrillScenario.objects.get(drill=their_drill)
    assert link.scenario_id == made.pk


def test_the_author_revises_while_only_their_own_drills_deal_it(pit_boss):
    made = scenario_create(document=document(), user=pit_boss)
    fixed_drill(pit_boss, made)
    revised = scenario_revise(scenario=made, document=document(title="Better"), user=pit_boss)
    again = scenario_revise(scenario=revised, document=document(title="Best"), user=pit_boss)
    assert again.revision == 3


def test_the_workspace_page_refuses_it_too(pit_boss, other_boss):
    client_for(other_boss).post(reverse("teach:scenario-new"), staged())
    made = Scenario.objects.get()
    url = reverse("teach:scenario-edit", args=[made.pk])
    assert client_for(pit_boss).post(url, staged(title="Mine now")).status_code == 403
    made.refresh_from_db()
    assert (made.is_active, Scenario.objects.count()) == (True, 1)
