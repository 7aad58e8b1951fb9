"""drill_create and assignment_create."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from core.errors import ForbiddenError, NotFoundError, ProductError
from teaching.services.assignments import assignment_create
from trainer.models import Assignment, Drill, RuleProfileVersion, Scenario, TrainingClass
from trainer.services.drills import drill_create
from trainer.services.scenarios import scenario_import


def natural(slug: str) -> dict:
    return {
        "format": "blackjack-scenario/1",
        "id": slug,
        "title": "A natural against a dealer 17",
        "skills": ["natural-3to2"],
        "rules": "casino-shoe",
        "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}]}],
        "shoe": ["Ah", "7d", "Ks", "Qc"],
    }


@pytest.fixture
def scenarios(db) -> list[Scenario]:
    return scenario_import(documents=[natural("one"), natural("two"), natural("three")])


@pytest.fixture
def shoe_version(db) -> RuleProfileVersion:
    return RuleProfileVersion.objects.get(profile__name="casino-shoe", version=1)


def generated(user, version, **changes):
    recipe = {
        "title": "Splits and doubles",
        "kind": "generated",
        "user": user,
        "profile_version": version,
        "skills": ["split", "double"],
        "count": 12,
        "min_stake": "10",
        "max_stake": "100",
        "max_boxes": 3,
    }
    return drill_create(**{**recipe, **changes})


def test_a_fixed_drill_keeps_its_scenarios_in_the_order_given(pit_boss, scenarios):
    drill = drill_create(
        title="Naturals", kind="fixed", scenarios=["three", scenarios[0]], user=pit_boss
    )
    links = list(drill.drill_scenarios.order_by("position"))
    assert [link.scenario.slug for link in links] == ["three", "one"]
    assert [link.position for link in links] == [1, 2]
    assert drill.count == 2
    assert drill.created_by == pit_boss


def test_a_fixed_drill_needs_scenarios_that_exist(pit_boss, scenarios):
    with pytest.raises(ProductError, match="at least one scenario"):
        drill_create(title="Empty", kind="fixed", scenarios=[], user=pit_boss)
    with pytest.raises(NotFoundError, match="no-such-slug"):
        drill_create(title="Typo", kind="fixed", scenarios=["one", "no-such-slug"], user=pit_boss)
    assert not Drill.objects.exists()


def test_a_superseded_scenario_cannot_go_into_a_new_drill(pit_boss, scenarios):
    old = scenarios[0]
    scenario_import(documents=[{**natural("one"), "title": "Renamed"}])
    old.refresh_from_db()
    with pytest.raises(ProductError, match="superseded"):
        drill_create(title="Old", kind="fixed", scenarios=[old], user=pit_boss)


def test_a_generated_drill_stores_its_recipe(pit_boss, shoe_version):
    drill = generated(pit_boss, shoe_version, pass_mark="90")
    assert drill.kind == "generated"
    assert drill.skills == ["split", "double"]
    assert drill.min_stake == Decimal("10")
    assert drill.max_stake == Decimal("100")
    assert drill.pass_mark == Decimal("90")


def test_missing_stakes_default_to_the_table_limits(pit_boss, shoe_version):
    drill = generated(pit_boss, shoe_version, min_stake=None, max_stake=None)
    assert drill.min_stake == Decimal("5")
    assert drill.max_stake == Decimal("500")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"min_stake": "1"}, "min_stake"),
        ({"max_stake": "5000"}, "max_stake"),
        ({"min_stake": "200", "max_stake": "100"}, "min_stake"),
        ({"min_stake": "abc"}, "min_stake"),
        ({"min_stake": "-5"}, "min_stake"),
        ({"min_stake": "10.001"}, "min_stake"),
        ({"min_stake": 10.5}, "min_stake"),
        ({"max_stake": "99999999999999"}, "max_stake"),
        ({"skills": ["juggling"]}, "skills"),
        ({"count": 0}, "count"),
        ({"max_boxes": 8}, "max_boxes"),
        ({"profile_version": None}, "profile_version"),
        ({"pass_mark": "101"}, "pass_mark"),
        ({"time_limit_seconds": 0}, "time_limit_seconds"),
        ({"title": "  "}, "title"),
        ({"kind": "random"}, "kind"),
    ],
)
def test_a_bad_recipe_is_refused_naming_the_field(pit_boss, shoe_version, changes, field):
    with pytest.raises(ProductError) as caught:
        generated(pit_boss, shoe_version, **changes)
    assert caught.value.field == field
    assert not Drill.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"min_stake": "١٠"}, "min_stake"),
        ({"min_stake": "１０"}, "min_stake"),
        ({"pass_mark": "٩٠"}, "pass_mark"),
        ({"min_stake": "9" * 1_000_000}, "min_stake"),
        ({"min_stake": "-" + "9" * 1_000_000}, "min_stake"),
        ({"skills": ["x" * 1_000_000]}, "skills"),
    ],
)
def test_bad_input_is_refused_in_ascii_digits_and_never_echoed_whole(
    pit_boss, shoe_version, changes, field
):
    with pytest.raises(ProductError) as caught:
        generated(pit_boss, shoe_version, **changes)
    assert caught.value.field == field
    assert "9" * 31 not in caught.value.message
    assert "x" * 31 not in caught.value.message
    assert not Drill.objects.exists()


def test_an_unknown_scenario_slug_is_not_echoed_whole(pit_boss, scenarios):
    with pytest.raises(NotFoundError) as caught:
        drill_create(title="Naturals", kind="fixed", scenarios=["s" * 1_000_000], user=pit_boss)
    assert len(caught.value.message) < 200
    assert "…" in caught.value.message


def test_only_pit_bosses_and_admins_make_drills(trainee, shoe_version):
    with pytest.raises(ForbiddenError):
        generated(trainee, shoe_version)


def taught(pit_boss, trainee):
    """Put the trainee on a class the pit boss teaches: a pit boss acts only for those."""
    TrainingClass.objects.create(name="Taught").trainees.add(trainee)
    TrainingClass.objects.get(name="Taught").instructors.add(pit_boss)


def test_a_pit_boss_assigns_a_drill_to_a_trainee(pit_boss, trainee, shoe_version):
    taught(pit_boss, trainee)
    drill = generated(pit_boss, shoe_version, purpose="exam")
    due = timezone.now() + timedelta(days=7)
    assignment = assignment_create(
        drill=drill, mode="exam", trainee=trainee, due_at=due, assigned_by=pit_boss
    )
    assert assignment.trainee == trainee
    assert assignment.mode == "exam"
    assert assignment.due_at == due
    assert assignment.assigned_by == pit_boss


def test_a_trainee_cannot_assign(trainee, other_trainee, pit_boss, shoe_version):
    drill = generated(pit_boss, shoe_version)
    with pytest.raises(ForbiddenError):
        assignment_create(drill=drill, mode="practice", trainee=other_trainee, assigned_by=trainee)
    assert not Assignment.objects.exists()


def test_the_assignee_must_be_a_trainee(pit_boss, compliance_officer, shoe_version):
    drill = generated(pit_boss, shoe_version)
    with pytest.raises(ProductError, match="not a trainee") as caught:
        assignment_create(
            drill=drill, mode="practice", trainee=compliance_officer, assigned_by=pit_boss
        )
    assert caught.value.field == "trainee"


def test_assign_to_a_trainee_or_a_class_not_both(pit_boss, trainee, shoe_version):
    drill = generated(pit_boss, shoe_version)
    group = TrainingClass.objects.create(name="Monday")
    group.instructors.add(pit_boss)
    with pytest.raises(ProductError, match="not both or neither"):
        assignment_create(
            drill=drill,
            mode="practice",
            trainee=trainee,
            training_class=group,
            assigned_by=pit_boss,
        )
    with pytest.raises(ProductError, match="not both or neither"):
        assignment_create(drill=drill, mode="practice", assigned_by=pit_boss)


def test_a_pit_boss_assigns_only_to_classes_they_teach(pit_boss, admin_user, shoe_version):
    drill = generated(pit_boss, shoe_version)
    group = TrainingClass.objects.create(name="Tuesday")
    with pytest.raises(ForbiddenError, match="do not teach"):
        assignment_create(drill=drill, mode="practice", training_class=group, assigned_by=pit_boss)
    assignment = assignment_create(
        drill=drill, mode="practice", training_class=group, assigned_by=admin_user
    )
    assert assignment.training_class == group


def test_a_bad_mode_or_a_naive_due_date_is_refused(pit_boss, trainee, shoe_version):
    taught(pit_boss, trainee)
    drill = generated(pit_boss, shoe_version, purpose="exam")
    with pytest.raises(ProductError) as caught:
        assignment_create(drill=drill, mode="blitz", trainee=trainee, assigned_by=pit_boss)
    assert caught.value.field == "mode"
    with pytest.raises(ProductError) as caught:
        assignment_create(
            drill=drill,
            mode="exam",
            trainee=trainee,
            assigned_by=pit_boss,
            due_at=datetime(2030, 1, 1, 12, 0),
        )
    assert caught.value.field == "due_at"
