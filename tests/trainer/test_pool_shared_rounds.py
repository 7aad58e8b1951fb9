"""Second pass of issue #23: a pool's seal held only inside the pool. Its rounds are
library scenarios, and a practice drill dealing the same scenarios shows every expected
answer after each round: any pit boss (of any class: the drills API lists a pool's
scenarios) could build a practice drill of another class's open pool, and every trainee
practised the exam with its answers. The demo's own practice drill shared 4 of its 8 rounds
with its sealed speed round. A pool's rounds are now dealt by no other active drill: a
practice drill of an open pool's rounds is refused, a pool of rounds another drill deals
is refused, and a pool made before the rule cannot be sat until rebuilt."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.errors import ConflictError
from teaching.services.assignments import assignment_create
from tests.factories import UserFactory
from tests.trainer.factories import DrillFactory, TrainingClassFactory
from tests.trainer.test_pool_replay import SITTING, make_pool, pool_scenarios
from trainer.models import Attempt, Drill, DrillPurpose, DrillScenario, Mode
from trainer.services.attempts import attempt_start
from trainer.services.drills import drill_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_boss(db):
    return UserFactory(username="other-boss", roles=["pit_boss"])


def test_a_practice_drill_of_an_open_pool_s_rounds_is_refused(pit_boss, other_boss):
    pool = make_pool(pit_boss)
    # What another class's pit boss reads: the pool's scenarios, by the drills API.
    api = APIClient()
    api.force_authenticate(other_boss)
    ids = [s["id"] for s in api.get(f"/api/drills/{pool.pk}/").json()["scenarios"]]
    response = api.post(
        "/api/drills/", {"title": "Free answers", "kind": "fixed", "scenarios": ids}, format="json"
    )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "in_pool"
    with pytest.raises(ConflictError) as refused:
        drill_create(
            title="Free answers",
            kind="fixed",
            user=other_boss,
            scenarios=[pool.drill_scenarios.first().scenario],
        )
    assert refused.value.code == "in_pool"
    assert Drill.objects.count() == 1


def test_a_pool_of_rounds_another_drill_deals_is_refused(pit_boss):
    scenarios = pool_scenarios()
    drill_create(title="Practice", kind="fixed", user=pit_boss, scenarios=scenarios[:2])
    with pytest.raises(ConflictError) as refused:
        drill_create(
            title="Naturals exam",
            kind="fixed",
            purpose=DrillPurpose.EXAM,
            scenarios=scenarios,
            count=SITTING,
            user=pit_boss,
        )
    assert refused.value.code == "pool_shared"
    assert "Practice" in refused.value.message
    assert Drill.objects.count() == 1


def test_a_pool_sharing_rounds_from_before_the_rule_cannot_be_sat(pit_boss, trainee):
    pool = make_pool(pit_boss)
    practice = DrillFactory()
    DrillScenario.objects.create(
        drill=practice, scenario=pool.drill_scenarios.first().scenario, position=1
    )
    TrainingClassFactory(trainees=[trainee]).instructors.add(pit_boss)
    assignment = assignment_create(
        drill=pool, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss
    )
    with pytest.raises(ConflictError) as refused:
        attempt_start(trainee=trainee, drill=pool, mode=Mode.EXAM, assignment=assignment)
    assert refused.value.code == "pool_shared"
    assert not Attempt.objects.exists()


def test_a_practice_drill_of_a_retired_pool_s_rounds_is_allowed(pit_boss):
    from trainer.services.drills import drill_retire

    pool = make_pool(pit_boss)
    drill_retire(drill=pool, user=pit_boss)
    made = drill_create(
        title="After the exam",
        kind="fixed",
        user=pit_boss,
        scenarios=[pool.drill_scenarios.first().scenario],
    )
    assert made.is_active
