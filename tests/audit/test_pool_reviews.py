"""Reviews publish nothing sealed (issue #23, finding 8 and deliverable 5).

A pit boss's review is read by the trainee on My record with the answer it is about. A
review of a question never put to the trainee published that question's expected answer;
one of a fixed exam pool's question would publish the pool's answer while classmates still
sit it.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import Review
from audit.services.reviews import review_create
from core.errors import ConflictError
from tests.graded import RIGHT, Answer, client_for, make_attempt, wrong
from tests.trainer.factories import AssignmentFactory
from trainer.models import Assignment, Drill, DrillKind, DrillPurpose, Grade, Mode

pytestmark = pytest.mark.django_db

NEVER_SHOWN = Answer(False, Decimal("0.00"), "unanswered", None)


def my_record(trainee) -> str:
    return client_for(trainee).get(reverse("record:mine")).content.decode()


def _unshown_grade(trainee) -> Grade:
    attempt = make_attempt(trainee=trainee, answers=[RIGHT, NEVER_SHOWN])
    grade = Grade.objects.get(run__attempt=attempt, correct=False)
    assert str(grade.question) not in grade.item.questions_shown
    return grade


def test_a_review_of_a_question_never_shown_is_refused(pit, trainee, pit_boss):
    grade = _unshown_grade(trainee)
    with pytest.raises(ConflictError, match="never put to the trainee") as caught:
        review_create(grade=grade, reviewer=pit_boss, comment="It pays 15.00")
    assert caught.value.code == "not_shown"
    assert not Review.objects.exists()


def test_the_pit_page_offers_no_review_of_a_question_never_shown_and_refuses_one(
    pit, trainee, pit_boss
):
    grade = _unshown_grade(trainee)
    client = client_for(pit_boss)
    page = client.get(reverse("pit:grade", args=[grade.pk])).content.decode()
    assert 'name="comment"' not in page
    response = client.post(reverse("pit:grade_review", args=[grade.pk]), {"comment": "15.00"})
    assert response.status_code == 409
    assert "never put to the trainee" in response.content.decode()
    assert not Review.objects.exists()


def test_my_record_never_publishes_a_review_of_a_question_never_shown(pit, trainee, pit_boss):
    grade = _unshown_grade(trainee)
    # One recorded before the rule (straight into the table): left out of My record.
    Review.objects.create(grade=grade, reviewer=pit_boss, comment="Before the rule")
    html = my_record(trainee)
    assert "Before the rule" not in html
    assert "the right answer was" not in html


@pytest.fixture
def pool_mistake(pit, trainee, pit_boss) -> Grade:
    pool = Drill.objects.create(
        title="Naturals pool", kind=DrillKind.FIXED, purpose=DrillPurpose.EXAM, count=1
    )
    AssignmentFactory(
        drill=pool, mode=Mode.EXAM, trainee=trainee, due_at=timezone.now() + timedelta(days=3)
    )
    attempt = make_attempt(trainee=trainee, answers=[wrong("5.00")], drill=pool)
    return Grade.objects.get(run__attempt=attempt)


def test_my_record_holds_a_pool_review_back_until_the_pool_closes(trainee, pit_boss, pool_mistake):
    review_create(grade=pool_mistake, reviewer=pit_boss, comment="A natural pays 15.00 here.")
    html = my_record(trainee)
    assert "A natural pays 15.00 here." not in html
    assert "the right answer was" not in html
    assert "Overpay" not in html
    assert "this comment and the right answer are shown once the exam has closed" in html
    assert "You answered Pay 20.00." in html

    Assignment.objects.filter(drill=pool_mistake.run.attempt.drill).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    html = my_record(trainee)
    assert "A natural pays 15.00 here." in html
    assert "You answered Pay 20.00; the right answer was Pay 15.00." in html
