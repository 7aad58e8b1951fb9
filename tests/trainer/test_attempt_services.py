"""The attempt flow services: start, show, answer, submit; and the trainee's selectors."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    TrainingClassFactory,
    insurance_document,
    natural_document,
    profile_version,
    simple_document,
)
from trainer.models import (
    Attempt,
    AttemptStatus,
    Decision,
    DrillKind,
    GradingRun,
    GradingStatus,
    Mode,
    RunStatus,
)
from trainer.selectors.attempts import attempt_results, round_feedback
from trainer.services.attempts import (
    NOT_ASKED,
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db


@pytest.fixture
def practice(trainee):
    drill = DrillFactory(documents=[natural_document(), simple_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.PRACTICE, trainee=trainee)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, assignment=assignment)


def answer(attempt, user, given):
    """Show the current question and answer it."""
    question = attempt_question_show(attempt=attempt, user=user)
    assert question is not None
    return decision_record(
        attempt=attempt,
        user=user,
        position=question["position"],
        question=question["n"],
        answer=given,
    )


def test_it_deals_each_scenario_in_order_with_its_answer_key(practice):
    items = list(practice.items.order_by("position"))
    assert [i.document["id"] for i in items] == ["natural-pays-3-to-2", "two-boxes-push-and-win"]
    assert items[0].answer_key[0]["expected"] == {"action": "pay", "amount": "37.50"}
    assert items[0].profile_version == items[0].scenario.profile_version
    assert practice.deadline is None


def test_it_lets_a_trainee_start_a_drill_assigned_to_their_class(trainee):
    drill = DrillFactory(documents=[simple_document()])
    klass = TrainingClassFactory(trainees=[trainee])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, training_class=klass)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    assert attempt.assignment is not None
    assert attempt.mode == Mode.EXAM


def test_it_refuses_an_exam_without_an_assignment(trainee):
    drill = DrillFactory(documents=[simple_document()])
    with pytest.raises(ForbiddenError):
        attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    assert not Attempt.objects.exists()


def test_it_allows_practice_on_any_active_drill(trainee):
    drill = DrillFactory(documents=[simple_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    assert attempt.items.count() == 1


def test_it_refuses_an_inactive_drill(trainee):
    drill = DrillFactory(documents=[simple_document()], is_active=False)
    with pytest.raises(NotFoundError):
        attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def test_it_refuses_another_trainees_assignment(trainee, other_trainee):
    drill = DrillFactory(documents=[simple_document()])
    theirs = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=other_trainee)
    with pytest.raises(NotFoundError):
        attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM, assignment=theirs)


def test_only_trainees_start_attempts(pit_boss):
    drill = DrillFactory(documents=[simple_document()])
    with pytest.raises(ForbiddenError):
        attempt_start(trainee=pit_boss, drill=drill, mode=Mode.PRACTICE)


def test_starting_again_resumes_the_attempt_in_progress(trainee, practice):
    again = attempt_start(trainee=trainee, drill=practice.drill, mode=Mode.PRACTICE)
    assert again.pk == practice.pk
    assert Attempt.objects.count() == 1


def test_speed_mode_sets_the_deadline_from_the_time_box(trainee):
    drill = DrillFactory(documents=[simple_document()], time_box_seconds=120)
    AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    before = timezone.now()
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED)
    assert attempt.deadline is not None
    assert timedelta(seconds=119) < attempt.deadline - before <= timedelta(seconds=121)


def test_a_generated_drill_stores_its_seed_and_deals_from_the_generator(trainee):
    drill = DrillFactory(
        kind=DrillKind.GENERATED,
        profile_version=profile_version("casino-shoe"),
        skills=["push"],
        count=3,
        min_stake=Decimal(5),
        max_stake=Decimal(50),
        max_boxes=2,
    )
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE, seed=42)
    assert attempt.seed == 42
    items = list(attempt.items.all())
    assert len(items) == 3
    assert all(i.scenario is None and i.answer_key for i in items)
    assert items[0].profile_version == drill.profile_version


def test_showing_a_question_times_it_once_and_hides_the_answer(trainee, practice):
    first = attempt_question_show(attempt=practice, user=trainee)
    again = attempt_question_show(attempt=practice, user=trainee)
    assert first is not None
    assert again is not None
    assert first["shown_at"] == again["shown_at"]
    assert "expected" not in first
    assert "rule" not in first
    assert "37.50" not in str(first)
    assert first["stake"] == "25.00"
    assert first["kind"] == "settle_hand"
    item = practice.items.get(position=1)
    assert item.shown_at is not None
    assert set(item.questions_shown) == {"1"}


def test_the_peek_question_shows_the_hole_card_the_dealer_looks_at(trainee):
    drill = DrillFactory(documents=[insurance_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    answer(attempt, trainee, {"answer": "offer"})
    question = attempt_question_show(attempt=attempt, user=trainee)
    assert question is not None
    assert question["kind"] == "peek"
    assert question["view"]["dealer"] == ["Ah", "6d"]


def test_it_records_a_decision_with_its_timing_and_a_ledger_entry(trainee, practice):
    decision, created = answer(practice, trainee, {"action": "pay", "amount": "37.5"})
    assert created
    assert decision.answer == {"action": "pay", "amount": "37.50"}
    assert decision.shown_at <= decision.answered_at
    assert decision.shown["boxes"][0]["hands"][0]["cards"] == ["As", "Kd"]
    entry = LedgerEntry.objects.get(event=Event.DECISION_RECORDED)
    assert entry.subject_id == str(decision.pk)
    assert entry.payload["answer"] == {"action": "pay", "amount": "37.50"}
    assert entry.actor_id == trainee.pk


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("abc", "not a number"),
        ("-5", "negative"),
        ("1.234", "paid to the cent, two places at most"),
        ("99999999", "over the 1,000,000 limit"),
        ("NaN", "not a number"),
        (12.5, "string"),
        (37, "string"),
        ("", "required"),
        ("٣٧.٥٠", "digits 0-9"),
        ("３７", "digits 0-9"),
        ("9" * 1_000_000, "9" * 30 + "…"),
    ],
)
def test_it_refuses_a_bad_amount_and_stores_nothing(trainee, practice, amount, says):
    attempt_question_show(attempt=practice, user=trainee)
    with pytest.raises(ProductError) as caught:
        decision_record(
            attempt=practice,
            user=trainee,
            position=1,
            question=1,
            answer={"action": "pay", "amount": amount},
        )
    assert caught.value.field == "amount"
    assert says in caught.value.message
    assert len(caught.value.message) < 200
    assert not Decision.objects.exists()
    assert not LedgerEntry.objects.filter(event=Event.DECISION_RECORDED).exists()


def test_it_requires_an_amount_to_pay(trainee, practice):
    attempt_question_show(attempt=practice, user=trainee)
    with pytest.raises(ProductError) as caught:
        decision_record(
            attempt=practice, user=trainee, position=1, question=1, answer={"action": "pay"}
        )
    assert caught.value.field == "amount"


def test_it_refuses_a_procedure_word_the_question_does_not_take(trainee):
    drill = DrillFactory(documents=[simple_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    with pytest.raises(ProductError) as caught:
        decision_record(
            attempt=attempt, user=trainee, position=1, question=1, answer={"answer": "offer"}
        )
    assert caught.value.field == "answer"
    assert "hit, stand" in caught.value.message


def test_another_trainees_attempt_is_not_found_and_nothing_is_stored(other_trainee, practice):
    with pytest.raises(NotFoundError):
        attempt_question_show(attempt=practice, user=other_trainee)
    with pytest.raises(NotFoundError):
        decision_record(
            attempt=practice,
            user=other_trainee,
            position=1,
            question=1,
            answer={"action": "pay", "amount": "37.50"},
        )
    with pytest.raises(NotFoundError):
        attempt_submit(attempt=practice, user=other_trainee)
    assert not Decision.objects.exists()
    practice.refresh_from_db()
    assert practice.status == AttemptStatus.IN_PROGRESS
    assert practice.items.get(position=1).questions_shown == {}


def test_it_refuses_an_answer_to_a_question_not_asked(trainee, practice):
    attempt_question_show(attempt=practice, user=trainee)
    with pytest.raises(ConflictError) as caught:
        decision_record(
            attempt=practice,
            user=trainee,
            position=2,
            question=1,
            answer={"answer": "stand"},
        )
    assert caught.value.field == "question"
    assert caught.value.message == NOT_ASKED
    with pytest.raises(ConflictError) as beyond:
        decision_record(
            attempt=practice, user=trainee, position=1, question=9, answer={"answer": "stand"}
        )
    assert beyond.value.message == NOT_ASKED
    assert not Decision.objects.exists()


def test_it_refuses_an_answer_to_a_question_never_shown(trainee, practice):
    with pytest.raises(ConflictError, match="not the question being asked"):
        decision_record(
            attempt=practice,
            user=trainee,
            position=1,
            question=1,
            answer={"action": "pay", "amount": "37.50"},
        )


def test_a_repeated_identical_answer_makes_one_decision(trainee, practice):
    first, created = answer(practice, trainee, {"action": "pay", "amount": "37.50"})
    again, created_again = decision_record(
        attempt=practice,
        user=trainee,
        position=1,
        question=1,
        answer={"action": "pay", "amount": "37.5"},
    )
    assert created
    assert not created_again
    assert again.pk == first.pk
    assert Decision.objects.count() == 1
    assert LedgerEntry.objects.filter(event=Event.DECISION_RECORDED).count() == 1


def test_a_different_answer_to_an_answered_question_is_a_conflict(trainee, practice):
    answer(practice, trainee, {"action": "pay", "amount": "37.50"})
    with pytest.raises(ConflictError, match="already answered"):
        decision_record(
            attempt=practice,
            user=trainee,
            position=1,
            question=1,
            answer={"action": "pay", "amount": "25.00"},
        )
    assert Decision.objects.get().answer["amount"] == "37.50"


def test_the_last_answer_of_a_round_completes_it(trainee, practice):
    answer(practice, trainee, {"action": "pay", "amount": "37.50"})
    assert practice.items.get(position=1).completed_at is None
    answer(practice, trainee, {"answer": "continue"})
    assert practice.items.get(position=1).completed_at is not None
    question = attempt_question_show(attempt=practice, user=trainee)
    assert question is not None
    assert (question["position"], question["n"]) == (2, 1)


def test_a_peek_needs_to_say_whether_the_dealer_has_a_natural(trainee):
    drill = DrillFactory(documents=[insurance_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    answer(attempt, trainee, {"answer": "offer"})
    attempt_question_show(attempt=attempt, user=trainee)
    with pytest.raises(ProductError) as caught:
        decision_record(
            attempt=attempt, user=trainee, position=1, question=2, answer={"answer": "peek"}
        )
    assert caught.value.field == "dealer_blackjack"
    decision, _ = decision_record(
        attempt=attempt,
        user=trainee,
        position=1,
        question=2,
        answer={"answer": "peek", "dealer_blackjack": False},
    )
    assert decision.answer == {"answer": "peek", "dealer_blackjack": False}


def test_practice_feedback_comes_after_the_round_with_right_and_wrong(trainee, practice):
    answer(practice, trainee, {"action": "pay", "amount": "25.00"})
    with pytest.raises(ConflictError):
        round_feedback(attempt=practice, position=1)
    answer(practice, trainee, {"answer": "continue"})
    rows = round_feedback(attempt=practice, position=1)
    assert [(r.n, r.right) for r in rows] == [(1, False), (2, True)]
    assert rows[0].expected == {"action": "pay", "amount": "37.50"}
    assert rows[0].category == "underpay"
    assert "3 to 2" in rows[0].rule


def test_an_exam_gives_no_feedback(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    answer(attempt, trainee, {"action": "pay", "amount": "37.50"})
    answer(attempt, trainee, {"answer": "continue"})
    with pytest.raises(ConflictError, match="until it is graded"):
        round_feedback(attempt=attempt, position=1)


def test_speed_feedback_waits_for_the_end(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED)
    answer(attempt, trainee, {"action": "pay", "amount": "37.50"})
    answer(attempt, trainee, {"answer": "continue"})
    with pytest.raises(ConflictError):
        round_feedback(attempt=attempt, position=1)
    attempt = attempt_submit(attempt=attempt, user=trainee)
    assert all(r.right for r in round_feedback(attempt=attempt, position=1))


def test_an_answer_after_the_speed_deadline_submits_the_attempt(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED)
    attempt_question_show(attempt=attempt, user=trainee)
    Attempt.objects.filter(pk=attempt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    attempt.refresh_from_db()
    with pytest.raises(ConflictError) as caught:
        decision_record(
            attempt=attempt,
            user=trainee,
            position=1,
            question=1,
            answer={"action": "pay", "amount": "37.50"},
        )
    assert caught.value.code == "deadline_passed"
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.SUBMITTED
    assert not Decision.objects.exists()
    assert GradingRun.objects.filter(attempt=attempt).count() == 1


def test_submitting_asks_for_grading_once(trainee, practice):
    answer(practice, trainee, {"action": "pay", "amount": "37.50"})
    submitted = attempt_submit(attempt=practice, user=trainee)
    again = attempt_submit(attempt=practice, user=trainee)
    assert submitted.status == again.status == AttemptStatus.SUBMITTED
    assert submitted.submitted_at is not None
    assert submitted.grading_status == GradingStatus.PENDING
    assert GradingRun.objects.filter(attempt=practice).count() == 1
    assert LedgerEntry.objects.filter(event=Event.ATTEMPT_SUBMITTED).count() == 1
    with pytest.raises(ConflictError, match="closed"):
        decision_record(
            attempt=practice, user=trainee, position=1, question=2, answer={"answer": "continue"}
        )


def test_results_show_nothing_before_grading_and_the_grades_after(trainee):
    drill = DrillFactory(documents=[natural_document()])
    AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.EXAM)
    answer(attempt, trainee, {"action": "pay", "amount": "30.00"})
    attempt = attempt_submit(attempt=attempt, user=trainee)
    before = attempt_results(attempt=attempt, user=trainee)
    assert not before.graded
    assert before.grades == []
    run = GradingRun.objects.get(attempt=attempt)
    grading_run_execute(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == RunStatus.GRADED
    after = attempt_results(attempt=attempt, user=trainee)
    assert after.graded
    # Question 2 was never shown: counted (run.questions), but its key stays sealed.
    assert [(g.question, g.correct) for g in after.grades] == [(1, False)]
    assert (after.not_reached, after.run.questions) == (1, 2)
    assert after.grades[0].expected == {"action": "pay", "amount": "37.50"}


def test_results_of_another_trainees_attempt_are_not_found(other_trainee, practice):
    with pytest.raises(NotFoundError):
        attempt_results(attempt=practice, user=other_trainee)
