"""The drill builder at /teach/drills/: the list, building from the library and from a
recipe, the table tests, retiring; errors at their fields; the preview."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.graded import client_for
from tests.trainer.factories import AssignmentFactory, DrillFactory, simple_document
from trainer.models import Drill, DrillKind, RuleProfile, Scenario
from trainer.services.scenarios import scenario_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def library(db) -> list[Scenario]:
    first = {**simple_document("two-boxes"), "skills": ["push"]}
    second = {**simple_document("two-boxes-again"), "title": "Again", "skills": ["dealer-bust"]}
    return scenario_import(documents=[first, second])


def test_the_list_shows_each_drill_with_its_use_and_labels(pit_boss, trainee):
    drill = DrillFactory(title="Naturals", documents=[simple_document()])
    AssignmentFactory(drill=drill, trainee=trainee)
    page = client_for(pit_boss).get(reverse("teach:drills")).content.decode()
    assert "Naturals" in page
    assert "Set rounds from the library" in page
    assert "in use by 1" in page
    assert "Create the table test for" in page


def test_building_from_the_library_keeps_the_order_typed(pit_boss, library):
    first, second = library
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-library"),
        {
            "title": "Two rounds",
            "purpose": "practice",
            "time_limit_seconds": 60,
            "time_box_seconds": 300,
            "pass_mark": "90",
            "scenario": [first.pk, second.pk],
            f"order-{first.pk}": "2",
            f"order-{second.pk}": "1",
            "action": "create",
        },
    )
    assert response.status_code == 302
    drill = Drill.objects.get(title="Two rounds")
    assert [link.scenario_id for link in drill.drill_scenarios.order_by("position")] == [
        second.pk,
        first.pk,
    ]
    entry = LedgerEntry.objects.get(event=Event.DRILL_CREATED, subject_id=str(drill.pk))
    assert entry.actor_id == pit_boss.pk


def test_no_scenario_picked_is_an_error_at_the_rounds(pit_boss, library):
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-library"),
        {
            "title": "Nothing",
            "purpose": "practice",
            "time_limit_seconds": 60,
            "time_box_seconds": 300,
            "pass_mark": "90",
            "action": "create",
        },
    )
    assert response.status_code == 400
    assert 'id="scenarios-error"' in response.content.decode()
    assert not Drill.objects.filter(title="Nothing").exists()


def test_the_library_filters_by_table_and_skill(pit_boss, library):
    client = client_for(pit_boss)
    shoe = RuleProfile.objects.get(name="casino-shoe")
    page = client.get(reverse("teach:drill-new-library"), {"profile": shoe.pk, "skill": "push"})
    text = page.content.decode()
    assert "Two boxes against a dealer 17" in text
    assert "Again" not in text
    assert "Push" in text  # the skill's label, not its name


def test_the_preview_draws_the_table_and_marks_the_key(pit_boss, library):
    first = library[0]
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-library"),
        {
            "title": "Preview",
            "purpose": "practice",
            "time_limit_seconds": 60,
            "time_box_seconds": 300,
            "pass_mark": "90",
            "scenario": [first.pk],
            "action": "preview",
        },
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert 'class="felt"' in text
    assert "Answer key (for you" in text
    assert "Dealer&#x27;s draw" in text or "Dealer's draw" in text
    assert not Drill.objects.filter(title="Preview").exists()


def test_a_generated_drill_error_is_placed_at_its_field(pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-generated"),
        {
            "title": "Splits",
            "profile": shoe.pk,
            "skills": ["split"],
            "count": 10,
            "min_stake": "1",
            "max_stake": "100",
            "max_boxes": 3,
            "time_limit_seconds": 30,
            "time_box_seconds": 300,
            "pass_mark": "90",
        },
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="id_min_stake-error"' in text
    assert "below" in text


def test_a_generated_drill_is_made(pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-generated"),
        {
            "title": "Splits",
            "profile": shoe.pk,
            "skills": ["split", "double"],
            "count": 10,
            "min_stake": "10",
            "max_stake": "100",
            "max_boxes": 3,
            "time_limit_seconds": 30,
            "time_box_seconds": 300,
            "pass_mark": "90",
        },
    )
    assert response.status_code == 302
    drill = Drill.objects.get(title="Splits")
    assert drill.kind == DrillKind.GENERATED
    assert drill.profile_version == shoe.current_version


def test_the_table_test_button_makes_the_certification_exam(pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    response = client_for(pit_boss).post(
        reverse("teach:drill-table-test"), {"profile_version": shoe.current_version.pk}
    )
    assert response.status_code == 302
    assert Drill.objects.get(certifies=shoe).purpose == "exam"


def test_retiring_goes_through_the_service_and_the_ledger(pit_boss):
    # Its author retires it (issue #23: only the owner or an administrator may).
    drill = DrillFactory(title="Old", created_by=pit_boss, owner=pit_boss)
    client = client_for(pit_boss)
    assert (
        client.post(reverse("teach:drill-retire", kwargs={"drill_id": drill.pk})).status_code == 302
    )
    drill.refresh_from_db()
    assert drill.is_active is False
    assert (
        LedgerEntry.objects.filter(event=Event.DRILL_RETIRED, subject_id=str(drill.pk)).count() == 1
    )
    again = client.post(reverse("teach:drill-retire", kwargs={"drill_id": drill.pk}))
    assert again.status_code == 409


def test_a_generated_drill_left_to_the_tables_boxes_plays_as_many_as_it_has(pit_boss):
    """Unsaid, the most boxes is the table's, at most three: a one-layout Casino drill is
    made from the same form as a blackjack one, and blackjack keeps its three."""
    for table, skills, boxes in (
        ("scarne-casino", ["capture-sum", "scoring"], 1),
        ("casino-shoe", ["split"], 3),
    ):
        profile = RuleProfile.objects.get(name=table)
        response = client_for(pit_boss).post(
            reverse("teach:drill-new-generated"),
            {
                "title": f"Left to {table}",
                "profile": profile.pk,
                "skills": skills,
                "count": 4,
                "time_limit_seconds": 30,
                "time_box_seconds": 300,
                "pass_mark": "90",
            },
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        assert Drill.objects.get(title=f"Left to {table}").max_boxes == boxes
