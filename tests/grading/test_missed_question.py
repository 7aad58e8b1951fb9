"""A missed question is scored by one function, `rules.unanswered`, in practice feedback and
in grading alike: it counts against the score, moves no money, and is its own category (not
a mistake to review)."""

from decimal import Decimal

import pytest

from tests.answered import PLAYER_WINS, right
from trainer import rules
from trainer.models import ErrorCategory, Grade, Mode
from trainer.selectors.attempts import attempt_feedback
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request

pytestmark = pytest.mark.django_db


def skip_payment(item):
    return None if item["kind"] == rules.Kind.SETTLE_HAND else right(item)


def practice_attempt_missing_the_payment(attempt_of):
    """A submitted practice attempt that was shown every question and skipped the payment."""
    attempt = attempt_of([PLAYER_WINS], answer=skip_payment)
    attempt.mode = Mode.PRACTICE
    attempt.save(update_fields=["mode"])
    item = attempt.items.get()
    item.questions_shown = {str(q["n"]): "2026-01-01T00:00:00+00:00" for q in item.answer_key}
    item.save(update_fields=["questions_shown"])
    return attempt


def feedback_and_grade_of_the_missed_question(attempt):
    [(_, rows)] = attempt_feedback(attempt=attempt)
    [row] = [row for row in rows if row.given is None]
    run = grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    grade = Grade.objects.get(run=run, decision__isnull=True)
    assert grade.question == row.n
    return row, grade


def test_feedback_and_grading_score_a_missed_payment_alike_with_no_money(attempt_of):
    row, grade = feedback_and_grade_of_the_missed_question(
        practice_attempt_missing_the_payment(attempt_of)
    )
    # The player was owed 10.00, but an unanswered question moved no money either way.
    assert grade.expected == {"action": "pay", "amount": "10.00"}
    assert (row.right, row.money_diff, row.category) == (False, Decimal("0.00"), "unanswered")
    assert (grade.correct, grade.money_diff, grade.category) == (
        row.right,
        row.money_diff,
        ErrorCategory.UNANSWERED,
    )


def test_both_ask_the_one_function_in_the_engine(attempt_of, monkeypatch):
    attempt = practice_attempt_missing_the_payment(attempt_of)
    calls = []
    real = rules.unanswered

    def spy():
        calls.append(1)
        return real()

    monkeypatch.setattr(rules, "unanswered", spy)
    attempt_feedback(attempt=attempt)
    assert len(calls) == 1, "practice feedback scores a missed question with rules.unanswered"
    grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    assert len(calls) == 2, "grading scores a missed question with rules.unanswered"
