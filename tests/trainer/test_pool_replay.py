"""Fixed exam pools that cannot be replayed (issue #23, finding 3; trainer.selectors.pools).

The attack: a fixed exam accepted a pool of ``count + 1`` rounds, each graded sitting's
results published the expected answers, and the next sitting drew from the same pool, so a
trainee went from 20.83 % to 95.65 % by replaying the answers. Now a pool is five times the
sitting, a trainee is never dealt a round twice, and the results say right or wrong, the
rule and the trainee's own answer, never the expected one, until the pool closes for
everyone.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any, cast
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import ConflictError, ProductError
from teaching.services.assignments import assignment_cancel, assignment_create, assignment_reassign
from tests.graded import client_for
from tests.trainer.factories import (
    DrillFactory,
    ScenarioFactory,
    TrainingClassFactory,
    natural_document,
)
from trainer.models import Attempt, Drill, DrillPurpose, Grade, GradingRun, Mode, Scenario
from trainer.selectors.pools import POOL_FACTOR, pool_draw, pool_rounds_dealt, pool_state
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.drills import drill_create
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db

SITTING = 4
POOL = POOL_FACTOR * SITTING


def stake(n: int) -> str:
    """Round n's stake: 101, 103, ... so each natural pays its own amount (151.50, ...)."""
    return str(101 + 2 * n)


def pay(n: int) -> str:
    return f"{Decimal(stake(n)) * Decimal('1.5'):.2f}"


def pool_scenarios(size: int = POOL) -> list[Scenario]:
    scenarios: list[Scenario] = []
    for n in range(size):
        document: dict[str, Any] = natural_document(f"pool-natural-{n}")
        document["boxes"][0]["stakes"][0]["amount"] = stake(n)
        made = ScenarioFactory(slug=f"pool-natural-{n}", document=document)
        scenarios.append(cast(Scenario, made))
    return scenarios


def make_pool(pit_boss, size: int = POOL, count: int = SITTING) -> Drill:
    return drill_create(
        title="Naturals exam",
        kind="fixed",
        purpose=DrillPurpose.EXAM,
        scenarios=pool_scenarios(size),
        count=count,
        user=pit_boss,
    )


@pytest.fixture
def pool(pit_boss) -> Drill:
    return make_pool(pit_boss)


@pytest.fixture
def assignment(pool, trainee, pit_boss):
    """The trainee's exam, given by the pit boss of their class."""
    TrainingClassFactory(trainees=[trainee]).instructors.add(pit_boss)
    return assignment_create(
        drill=pool,
        mode=Mode.EXAM,
        trainee=trainee,
        assigned_by=pit_boss,
        cooldown_hours=0,
        due_at=timezone.now() + timedelta(days=7),
    )


def sit(trainee, assignment, *, known: dict[str, dict[str, Any]] | None = None) -> Attempt:
    """One sitting, every question answered: from `known` (a replayer's notes, by round
    id) when it has the round, else wrongly; then submitted and graded."""
    attempt = attempt_start(
        trainee=trainee, drill=assignment.drill, mode=assignment.mode, assignment=assignment
    )
    while (question := attempt_question_show(attempt=attempt, user=trainee)) is not None:
        round_id = attempt.items.get(position=question["position"]).document["id"]
        noted = (known or {}).get(f"{round_id}/{question['n']}")
        if noted is not None:
            answer = noted
        elif "actions" in question:
            answer = {"action": "pay", "amount": "1.00"}
        else:
            answer = {"answer": "reshuffle"}
        decision_record(
            attempt=attempt,
            user=trainee,
            position=question["position"],
            question=question["n"],
            answer=answer,
        )
    attempt_submit(attempt=attempt, user=trainee)
    grading_run_execute(run_id=GradingRun.objects.get(attempt=attempt).pk)
    attempt.refresh_from_db()
    return attempt


def dealt(attempt: Attempt) -> list[str]:
    return [item.document["id"] for item in attempt.items.order_by("position")]


def expected_amounts(attempt: Attempt) -> set[str]:
    return {
        grade.expected["amount"]
        for grade in Grade.objects.filter(run__attempt=attempt)
        if "amount" in grade.expected
    }


def harvest(api, client, attempt: Attempt) -> dict[str, dict[str, Any]]:
    """What a replayer notes from a sitting's results: every expected answer the API gives."""
    body = api.get(f"/api/attempts/{attempt.pk}/results").json()
    ids = {item.position: item.document["id"] for item in attempt.items.all()}
    return {
        f"{ids[g['position']]}/{g['question']}": g["expected"]
        for g in body["grades"]
        if g["expected"] is not None
    }


# The replay attack.


def test_the_replay_attack_finds_no_answers_and_no_round_dealt_twice(
    api, client, trainee, assignment
):
    first = sit(trainee, assignment)
    assert first.score == Decimal("0.00")
    body = api.get(f"/api/attempts/{first.pk}/results").json()
    assert body["status"] == "graded"
    assert body["sealed"] is True
    assert body["sealed_until"] is not None
    assert (body["overpaid"], body["underpaid"]) == (None, None)
    assert len(body["grades"]) == 2 * SITTING
    for grade in body["grades"]:
        assert grade["correct"] is False
        assert grade["expected"] is None
        assert grade["money_diff"] is None
        assert grade["category"] == ""
        assert grade["given"] is not None  # the trainee's own answer
        assert grade["rule"]  # and the rule it rests on
    for amount in expected_amounts(first):
        assert amount not in str(body)

    client.force_login(trainee)
    page = client.get(reverse("train:results", args=[first.pk])).content.decode()
    assert "<th>Expected</th>" not in page
    assert "<th>Rule</th>" in page
    assert "Blackjack pays 3 to 2" in page
    assert "the right answers are not shown yet" in page
    for amount in expected_amounts(first):
        assert amount not in page
    assert "Underpay" not in page  # the kind of mistake would point at the answer

    notes = harvest(api, client, first)
    assert notes == {}
    second = sit(trainee, assignment, known=notes)
    assert not set(dealt(first)) & set(dealt(second))
    assert second.score == Decimal("0.00")


def test_a_trainee_is_dealt_the_whole_pool_before_any_round_twice_then_is_refused(
    trainee, assignment
):
    seen: list[str] = []
    for _ in range(POOL_FACTOR):
        seen += dealt(sit(trainee, assignment))
    assert len(seen) == len(set(seen)) == POOL
    with pytest.raises(ConflictError, match="dealt 20 of this exam's 20 rounds") as caught:
        attempt_start(
            trainee=trainee, drill=assignment.drill, mode=Mode.EXAM, assignment=assignment
        )
    assert caught.value.code == "pool_exhausted"
    assert Attempt.objects.filter(trainee=trainee).count() == POOL_FACTOR


def test_a_round_never_shown_goes_back_into_the_pool_but_an_open_sittings_rounds_do_not(
    trainee, assignment, pool, pit_boss
):
    first = attempt_start(trainee=trainee, drill=pool, mode=Mode.EXAM, assignment=assignment)
    attempt_question_show(attempt=first, user=trainee)  # only round 1 is shown
    # A second assignment of the same exam while the first sitting is open: none of it again.
    other = assignment_create(
        drill=pool, mode=Mode.SPEED, trainee=trainee, assigned_by=pit_boss, cooldown_hours=0
    )
    second = attempt_start(trainee=trainee, drill=pool, mode=Mode.SPEED, assignment=other)
    assert not set(dealt(first)) & set(dealt(second))
    attempt_submit(attempt=first, user=trainee)
    attempt_submit(attempt=second, user=trainee)
    # Closed, only the round whose question was shown counts as dealt.
    kept = Scenario.objects.filter(pk__in=pool_rounds_dealt(trainee_id=trainee.pk, drill=pool))
    assert [s.document["id"] for s in kept] == dealt(first)[:1]


def test_the_draw_is_deterministic_and_never_deals_a_round_already_dealt():
    pool = list(range(1, 21))
    one = pool_draw(pool=pool, dealt={1, 2, 3}, count=4, seed=42)
    assert one == pool_draw(pool=pool, dealt={1, 2, 3}, count=4, seed=42)
    assert len(set(one)) == 4
    assert not set(one) & {1, 2, 3}
    assert pool_draw(pool=pool, dealt=set(pool) - {5, 6, 7, 8}, count=4, seed=1) != []
    assert sorted(pool_draw(pool=pool, dealt=set(pool) - {5, 6, 7, 8}, count=4, seed=1)) == [
        5,
        6,
        7,
        8,
    ]
    with pytest.raises(ConflictError) as caught:
        pool_draw(pool=pool, dealt=set(pool) - {5, 6, 7}, count=4, seed=1)
    assert caught.value.code == "pool_exhausted"


# Sealed until the pool closes for everyone.


def test_the_expected_answers_are_shown_once_the_due_date_has_passed(
    api, client, trainee, assignment
):
    first = sit(trainee, assignment)
    assignment.__class__.objects.filter(pk=assignment.pk).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    body = api.get(f"/api/attempts/{first.pk}/results").json()
    assert body["sealed"] is False
    assert {g["expected"]["amount"] for g in body["grades"] if "amount" in g["expected"]} == (
        expected_amounts(first)
    )
    assert body["underpaid"] is not None
    client.force_login(trainee)
    page = client.get(reverse("train:results", args=[first.pk])).content.decode()
    assert "<th>Expected</th>" in page
    for amount in expected_amounts(first):
        assert amount in page


def test_a_classmates_open_assignment_keeps_the_pool_sealed_until_it_is_cancelled(
    api, trainee, other_trainee, assignment, pool, pit_boss
):
    group = TrainingClassFactory(trainees=[other_trainee])
    group.instructors.add(pit_boss)
    theirs = assignment_create(
        drill=pool, mode=Mode.EXAM, training_class=group, assigned_by=pit_boss
    )
    first = sit(trainee, assignment)
    assignment.__class__.objects.filter(pk=assignment.pk).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    body = api.get(f"/api/attempts/{first.pk}/results").json()
    assert body["sealed"] is True
    assert body["sealed_until"] is None  # the class's assignment has no due date
    assert all(g["expected"] is None for g in body["grades"])
    assignment_cancel(assignment=theirs, user=pit_boss)
    body = api.get(f"/api/attempts/{first.pk}/results").json()
    assert body["sealed"] is False
    assert all(g["expected"] is not None for g in body["grades"])


def test_the_pit_boss_sees_the_expected_answers_while_the_trainee_does_not(
    trainee, pit_boss, assignment
):
    first = sit(trainee, assignment)
    assert pool_state(drill=assignment.drill).sealed
    grade = Grade.objects.filter(run__attempt=first, expected__has_key="amount").first()
    assert grade is not None
    page = client_for(pit_boss).get(reverse("pit:grade", args=[grade.pk])).content.decode()
    assert grade.expected["amount"] in page


def test_a_speed_sitting_of_a_pool_gives_no_expected_answer_in_its_feedback(
    client, trainee, pool, pit_boss
):
    TrainingClassFactory(trainees=[trainee]).instructors.add(pit_boss)
    speed = assignment_create(
        drill=pool, mode=Mode.SPEED, trainee=trainee, assigned_by=pit_boss, cooldown_hours=0
    )
    attempt = attempt_start(trainee=trainee, drill=pool, mode=Mode.SPEED, assignment=speed)
    question = attempt_question_show(attempt=attempt, user=trainee)
    assert question is not None
    decision_record(
        attempt=attempt,
        user=trainee,
        position=1,
        question=question["n"],
        answer={"action": "pay", "amount": "1.00"},
    )
    attempt_submit(attempt=attempt, user=trainee)
    amount = pay(int(attempt.items.get(position=1).document["id"].rsplit("-", 1)[1]))
    client.force_login(trainee)
    results = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "How you did, round by round" in results
    assert amount not in results
    assert "<th>Expected</th>" not in results
    feedback = client.get(reverse("train:feedback", args=[attempt.pk, 1])).content.decode()
    assert amount not in feedback
    assert "<th>Expected</th>" not in feedback
    assert "Pay 1.00" in feedback


def test_a_pool_that_closed_after_sittings_cannot_be_opened_again(trainee, assignment, pit_boss):
    sit(trainee, assignment)
    assignment.__class__.objects.filter(pk=assignment.pk).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    assignment.refresh_from_db()
    with pytest.raises(ConflictError, match="build a new pool") as caught:
        assignment_create(
            drill=assignment.drill, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss
        )
    assert caught.value.code == "pool_closed"
    with pytest.raises(ConflictError, match="build a new pool"):
        assignment_reassign(
            assignment=assignment, user=pit_boss, due_at=timezone.now() + timedelta(days=3)
        )


# The pool-size rule, at every door.


def test_the_service_refuses_a_pool_smaller_than_five_sittings(pit_boss):
    with pytest.raises(ProductError) as caught:
        make_pool(pit_boss, size=21, count=20)
    message = caught.value.message
    assert caught.value.field == "scenarios"
    assert caught.value.code == "pool_too_small"
    assert "'Naturals exam' holds 21 different scenarios" in message
    assert "at least 100" in message
    assert "at most 4 a sitting" in message
    assert not Drill.objects.exists()


def test_the_same_scenario_twice_does_not_make_a_pool_larger(pit_boss):
    scenarios = pool_scenarios(POOL - 1)
    with pytest.raises(ProductError, match="in the pool twice"):
        drill_create(
            title="Padded",
            kind="fixed",
            purpose=DrillPurpose.EXAM,
            scenarios=[*scenarios, scenarios[0]],
            count=SITTING,
            user=pit_boss,
        )


def test_a_pool_of_exactly_five_sittings_is_made(pit_boss):
    assert make_pool(pit_boss, size=POOL, count=SITTING).drill_scenarios.count() == POOL


def test_the_api_refuses_a_small_pool_naming_it_and_the_minimum(pit_boss):
    scenarios = pool_scenarios(POOL - 1)
    response = client_for(pit_boss).post(
        "/api/drills/",
        {
            "title": "Small pool",
            "kind": "fixed",
            "purpose": "exam",
            "scenarios": [s.pk for s in scenarios],
            "count": SITTING,
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "scenarios"
    assert "'Small pool' holds 19 different scenarios" in body["error"]
    assert "at least 20" in body["error"]
    assert not Drill.objects.exists()


def test_the_drill_builder_page_refuses_a_small_pool_naming_it_and_the_minimum(pit_boss):
    scenarios = pool_scenarios(POOL - 1)
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-library"),
        {
            "title": "Small pool",
            "purpose": "exam",
            "count": SITTING,
            "time_limit_seconds": 60,
            "time_box_seconds": 300,
            "pass_mark": "90",
            "scenario": [s.pk for s in scenarios],
            "action": "create",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "holds 19 different scenarios" in page
    assert "at least 20" in page
    assert not Drill.objects.exists()


def test_the_admin_cannot_make_or_change_a_drill(admin_user, pool):
    client = client_for(admin_user)
    assert client.get("/admin/trainer/drill/add/").status_code == 403
    assert client.post(f"/admin/trainer/drill/{pool.pk}/change/", {"count": 1}).status_code == 403
    pool.refresh_from_db()
    assert pool.count == SITTING


def test_a_pool_made_before_the_rule_cannot_be_sat(api, trainee, pit_boss):
    docs = [natural_document(f"old-{n}") for n in range(21)]
    old = DrillFactory(documents=docs, purpose=DrillPurpose.EXAM, count=20)
    TrainingClassFactory(trainees=[trainee]).instructors.add(pit_boss)
    given = assignment_create(
        drill=old, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss, cooldown_hours=0
    )
    with pytest.raises(ConflictError, match="at least 100") as caught:
        attempt_start(trainee=trainee, drill=old, mode=Mode.EXAM, assignment=given)
    assert caught.value.code == "pool_too_small"
    response = api.post(
        "/api/attempts/",
        {"drill": old.pk, "mode": "exam", "assignment": given.pk},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "pool_too_small"
    assert not Attempt.objects.exists()


def test_a_sitting_whose_rounds_another_start_just_dealt_is_refused_and_nothing_written(
    trainee, assignment, pool
):
    # Between the draw and the insert, another sitting of the pool (another assignment of
    # it) dealt the same rounds: the check under the trainee's row lock refuses this one.
    every = set(pool.drill_scenarios.values_list("scenario_id", flat=True))
    with (
        mock.patch(
            "trainer.services.attempts.pool_rounds_dealt", side_effect=[set(), every]
        ) as looked,
        pytest.raises(ConflictError) as caught,
    ):
        attempt_start(trainee=trainee, drill=pool, mode=Mode.EXAM, assignment=assignment)
    assert looked.call_count == 2
    assert caught.value.code == "already_started"
    assert not Attempt.objects.exists()
