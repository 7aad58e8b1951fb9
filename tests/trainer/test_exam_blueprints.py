"""Table tests: a certification exam per rule profile that deals every skill the table needs."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.errors import ProductError
from teaching.services.assignments import assignment_create
from tests.audit.factories import TrainingClassFactory
from trainer.games.blackjack.blueprints import table_test_skills
from trainer.models import DrillPurpose, RuleProfile, RuleProfileVersion
from trainer.selectors.blueprints import (
    TABLE_TEST_MIN_ROUNDS,
    blueprint_shortfalls,
)
from trainer.selectors.drill_rounds import generate_documents, round_skills
from trainer.services.drills import drill_create, table_test_create

PROFILES = [
    "scarne-4deck",
    "casino-single-deck-6to5",
    "casino-double-deck",
    "casino-shoe",
    "bicycle-6deck",
    "european-enhc-6deck",
]


def version(name: str) -> RuleProfileVersion:
    return RuleProfileVersion.objects.filter(profile__name=name).order_by("-version")[0]


@pytest.mark.parametrize(
    ("profile", "needed", "not_needed"),
    [
        ("casino-single-deck-6to5", {"natural-6to5", "rounding", "surrender"}, {"natural-3to2"}),
        ("european-enhc-6deck", {"enhc", "even-money", "bonus-777"}, {"dealer-peek", "surrender"}),
        ("casino-shoe", {"surrender", "dealer-peek", "double-for-less"}, {"bonus-777", "enhc"}),
        ("bicycle-6deck", {"natural-3to2"}, {"surrender", "resplit", "double-after-split"}),
    ],
)
def test_each_table_asks_for_its_own_rules(db, profile, needed, not_needed):
    skills = table_test_skills(version(profile).engine_profile)
    assert needed <= set(skills)
    assert not (not_needed & set(skills))
    assert {"shared-box", "cut-card", "insurance", "split", "double"} <= set(skills)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_shipped_profile_gets_a_table_test_that_covers_it(pit_boss, profile):
    drill = table_test_create(profile_version=version(profile), user=pit_boss)
    assert drill.purpose == DrillPurpose.EXAM
    assert drill.certifies.name == profile
    assert drill.count >= TABLE_TEST_MIN_ROUNDS
    assert blueprint_shortfalls(drill=drill) == []
    documents = generate_documents(drill=drill, seed=11)
    assert len(documents) == drill.count
    dealt = Counter(doc["skills"][0] for doc in documents)
    for skill, least in drill.skill_minimums.items():
        assert dealt[skill] >= least, skill


def test_two_sittings_deal_different_rounds_in_a_different_order(pit_boss):
    drill = table_test_create(profile_version=version("casino-shoe"), user=pit_boss)
    first = generate_documents(drill=drill, seed=1)
    second = generate_documents(drill=drill, seed=2)
    assert [d["shoe"] for d in first] != [d["shoe"] for d in second]
    order = round_skills(drill=drill, rng=random.Random(1))
    assert order != round_skills(drill=drill, rng=random.Random(2))


def test_the_same_seed_deals_the_same_sitting_again_for_the_audit(pit_boss):
    drill = table_test_create(profile_version=version("casino-shoe"), user=pit_boss)
    assert generate_documents(drill=drill, seed=5) == generate_documents(drill=drill, seed=5)


def test_an_exam_missing_a_skill_of_its_table_cannot_be_its_table_test(pit_boss):
    shoe = version("casino-shoe")
    needed = table_test_skills(shoe.engine_profile)
    without_surrender = {k: v for k, v in needed.items() if k != "surrender"}
    with pytest.raises(ProductError, match="Late surrender") as caught:
        drill_create(
            title="Shoe exam without surrender",
            kind="generated",
            purpose="exam",
            certifies=RuleProfile.objects.get(name="casino-shoe"),
            user=pit_boss,
            profile_version=shoe,
            skills=list(without_surrender),
            skill_minimums=without_surrender,
            count=50,
        )
    assert caught.value.field == "certifies"


def test_an_exam_of_one_table_cannot_certify_another(pit_boss):
    shoe = version("casino-shoe")
    with pytest.raises(ProductError, match="not the table it certifies"):
        drill_create(
            title="Shoe rounds, 6:5 certificate",
            kind="generated",
            purpose="exam",
            certifies=RuleProfile.objects.get(name="casino-single-deck-6to5"),
            user=pit_boss,
            profile_version=shoe,
            skills=["push"],
            skill_minimums=table_test_skills(shoe.engine_profile),
            count=50,
        )


def test_a_table_test_under_fifty_rounds_is_refused(pit_boss):
    with pytest.raises(ProductError, match="fewer than 50"):
        table_test_create(profile_version=version("casino-shoe"), user=pit_boss, count=49)


def test_skill_minimums_cannot_ask_for_more_rounds_than_are_dealt(pit_boss):
    with pytest.raises(ProductError, match="add up to 12 rounds, more than the 10"):
        drill_create(
            title="Too many",
            kind="generated",
            purpose="exam",
            user=pit_boss,
            profile_version=version("casino-shoe"),
            skills=["push"],
            skill_minimums={"push": 6, "split": 6},
            count=10,
        )


def test_a_sealed_exam_cannot_be_assigned_for_practice(pit_boss, trainee):
    drill = table_test_create(profile_version=version("casino-shoe"), user=pit_boss)
    with pytest.raises(ProductError, match="cannot be practised"):
        assignment_create(drill=drill, mode="practice", trainee=trainee, assigned_by=pit_boss)


def test_an_exam_assignment_needs_a_sealed_exam_drill(pit_boss, trainee):
    practice = drill_create(
        title="Open drill",
        kind="generated",
        user=pit_boss,
        profile_version=version("casino-shoe"),
        skills=["push"],
        count=5,
    )
    with pytest.raises(ProductError, match="sealed exam drill"):
        assignment_create(drill=practice, mode="exam", trainee=trainee, assigned_by=pit_boss)


def test_an_exam_assignment_waits_a_day_between_sittings_by_default(pit_boss, trainee):
    # A pit boss assigns only trainees of a class they teach (issue #23).
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    drill = table_test_create(profile_version=version("casino-shoe"), user=pit_boss)
    assignment = assignment_create(
        drill=drill, mode="exam", trainee=trainee, assigned_by=pit_boss, max_sittings=2
    )
    assert (assignment.cooldown_hours, assignment.max_sittings) == (24, 2)
