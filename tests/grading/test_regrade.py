from decimal import Decimal

import pytest

from core.errors import ProductError
from tests.answered import SOFT_17, casino_shoe, right
from trainer.models import Attempt, Grade, GradingRun, RunStatus, RunTrigger, Scenario
from trainer.selectors.runs import latest_and_graded_run_numbers, latest_run_numbers
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request, regrade_request
from trainer.services.profiles import profile_version_create

pytestmark = pytest.mark.django_db


def graded_attempt(attempt_of, documents=(SOFT_17,)) -> tuple[Attempt, GradingRun]:
    attempt = attempt_of(documents)
    run = grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    return attempt, run


def regrade(attempt: Attempt, user=None) -> GradingRun:
    (run,) = regrade_request(attempts=[attempt], reason="profile corrected", requested_by=user)
    return grading_run_execute(run_id=run.pk)


def test_a_regrade_under_a_corrected_profile_grades_against_the_new_rules(attempt_of, admin_user):
    attempt, first = graded_attempt(attempt_of)
    assert first.score == Decimal("100.00")
    corrected = profile_version_create(
        profile=casino_shoe().profile,
        parameters={"dealer_hits_soft_17": False},
        notes="The house stands on soft 17",
    )
    second = regrade(attempt, admin_user)
    assert (second.number, second.trigger, second.status) == (2, RunTrigger.REGRADE, "graded")
    # Under S17 the dealer stands on the soft 17 (the trainee said hit) and the 19 wins
    # (the trainee pushed it); the reshuffle answer still holds.
    assert (second.questions, second.correct) == (3, 1)
    wrong = {g.kind: g for g in Grade.objects.filter(run=second, correct=False)}
    assert wrong["dealer_play"].given == {"answer": "hit", "total": 17, "soft": True}
    assert wrong["settle_hand"].money_diff == Decimal("-10.00")
    assert wrong["settle_hand"].category == "wrong_outcome"
    item = attempt.items.get()
    assert second.basis[str(item.pk)]["profile_version"] == corrected.pk
    assert second.basis[str(item.pk)]["key"] == "recomputed"


def test_the_earlier_grades_stay_and_the_newest_run_is_current(attempt_of):
    attempt, first = graded_attempt(attempt_of)
    profile_version_create(
        profile=casino_shoe().profile, parameters={"dealer_hits_soft_17": False}, notes="S17"
    )
    second = regrade(attempt)
    assert Grade.objects.filter(run=first).count() == 4
    assert GradingRun.objects.get(pk=first.pk).score == Decimal("100.00")
    attempt.refresh_from_db()
    assert (attempt.score, attempt.passed, attempt.grading_status) == (
        second.score,
        False,
        "graded",
    )


def test_an_older_run_finishing_late_does_not_replace_the_newest_result(attempt_of):
    attempt = attempt_of([SOFT_17])
    first = grading_request(attempt=attempt)
    profile_version_create(
        profile=casino_shoe().profile, parameters={"dealer_hits_soft_17": False}, notes="S17"
    )
    second = regrade(attempt)
    grading_run_execute(run_id=first.pk)
    attempt.refresh_from_db()
    assert attempt.score == second.score != Decimal("100.00")


def test_a_regrade_after_a_scenario_fix_grades_against_the_newest_revision(attempt_of):
    version = casino_shoe()
    old = Scenario.objects.create(
        slug="soft-17", title="Soft 17", profile_version=version, document=SOFT_17
    )
    attempt = attempt_of([SOFT_17])
    attempt.items.update(scenario=old)
    first = grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    first_basis = first.basis[str(attempt.items.get().pk)]
    # The fix: the dealer was meant to hold a hard 18, which the player's 19 beats.
    fixed_doc = {**SOFT_17, "shoe": ["Ts", "8h", "9d", "Kc", "5d"]}
    fixed = Scenario.objects.create(
        slug="soft-17-r2",
        title="Soft 17",
        profile_version=version,
        document=fixed_doc,
        revision=2,
        supersedes=old,
    )
    second = regrade(attempt)
    item = attempt.items.get()
    assert second.basis[str(item.pk)]["scenario"] == fixed.pk
    assert second.basis[str(item.pk)]["document_sha256"] != first_basis["document_sha256"]
    # Only the reshuffle answer holds: the dealer stands on 18 and the 19 is paid.
    assert (second.questions, second.correct) == (3, 1)
    paid = Grade.objects.get(run=second, kind="settle_hand")
    assert (paid.expected, paid.money_diff) == ({"action": "pay", "amount": "10.00"}, -10)


def test_a_regrade_needs_a_reason(attempt_of):
    attempt, _ = graded_attempt(attempt_of)
    with pytest.raises(ProductError, match="reason"):
        regrade_request(attempts=[attempt], reason=" ")


def test_a_regrade_of_an_attempt_never_submitted_is_refused(attempt_of):
    attempt = attempt_of(submitted=False, answer=right)
    with pytest.raises(ProductError, match="not submitted"):
        regrade_request(attempts=[attempt], reason="fix")
    assert not GradingRun.objects.filter(status=RunStatus.PENDING).exists()


def test_the_latest_and_graded_run_numbers_are_read_together_as_apart(attempt_of):
    graded, _ = graded_attempt(attempt_of)
    regrade_request(attempts=[graded], reason="profile corrected", requested_by=None)
    never = attempt_of((SOFT_17,))
    grading_request(attempt=never)
    nothing = attempt_of((SOFT_17,))
    ids = [graded.pk, never.pk, nothing.pk]
    together = latest_and_graded_run_numbers(attempt_ids=ids)
    assert together == {graded.pk: (2, 1), never.pk: (1, None)}
    apart_graded = latest_run_numbers(attempt_ids=ids, status=RunStatus.GRADED)
    for pk, (last, graded_number) in together.items():
        assert last == latest_run_numbers(attempt_ids=ids)[pk]
        assert graded_number == apart_graded.get(pk)
