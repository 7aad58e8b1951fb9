"""The answer and the submit read the attempt once, under its lock, its owner in the same
WHERE (issue #29): someone else's attempt is still a 404 whatever the body holds, a
deadline past still submits the attempt, and answers sent at once still take turns."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.trainer.factories import AssignmentFactory, DrillFactory, natural_document
from trainer.models import Attempt, AttemptStatus, Decision, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)

pytestmark = pytest.mark.django_db

RIGHT = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}


@pytest.fixture
def theirs(other_trainee):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=other_trainee)
    return attempt


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("{not json", "application/json"),
        ('{"position": "one"}', "application/json"),
        ("[]", "application/json"),
        ("position=1", "application/x-www-form-urlencoded"),
        ('{"position": 1, "question": 1, "answer": {"action": "pay", "amount": "NaN"}}', None),
    ],
)
def test_someone_else_s_attempt_is_404_whatever_the_body(api, theirs, body, content_type):
    response = api.generic(
        "POST",
        f"/api/attempts/{theirs.pk}/answers",
        body,
        content_type=content_type or "application/json",
    )
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"
    assert Decision.objects.count() == 0


def test_a_bad_body_to_one_s_own_attempt_is_still_a_400(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    mine = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    response = api.post(f"/api/attempts/{mine.pk}/answers", {"position": "one"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "position"


def test_someone_else_s_attempt_is_404_on_a_good_body_and_stays_open(api, theirs):
    response = api.post(f"/api/attempts/{theirs.pk}/answers", RIGHT, format="json")
    assert response.status_code == 404
    submit = api.post(f"/api/attempts/{theirs.pk}/submit")
    assert submit.status_code == 404
    assert submit.json()["code"] == "not_found"
    theirs.refresh_from_db()
    assert theirs.status == AttemptStatus.IN_PROGRESS
    assert Decision.objects.count() == 0
    assert not LedgerEntry.objects.filter(event=Event.ATTEMPT_SUBMITTED).exists()


def test_the_service_takes_the_id_and_refuses_anyone_else_s(trainee, other_trainee, theirs):
    from core.errors import NotFoundError

    with pytest.raises(NotFoundError):
        decision_record(attempt=theirs.pk, user=trainee, position=1, question=1, answer={})
    with pytest.raises(NotFoundError):
        attempt_submit(attempt=theirs.pk, user=trainee)
    decision, created = decision_record(
        attempt=theirs.pk,
        user=other_trainee,
        **{k: RIGHT[k] for k in ("position", "question")},
        answer=RIGHT["answer"],
    )
    assert created
    assert decision.item.attempt.pk == theirs.pk  # the locked attempt, carried
    submitted = attempt_submit(attempt=theirs.pk, user=other_trainee)
    assert submitted.status == AttemptStatus.SUBMITTED


def test_a_speed_answer_past_the_time_box_by_id_submits_the_attempt(trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    speed = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED, assignment=assignment)
    attempt_question_show(attempt=speed, user=trainee)
    Attempt.objects.filter(pk=speed.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    from core.errors import ConflictError

    with pytest.raises(ConflictError) as caught:
        decision_record(attempt=speed.pk, user=trainee, position=1, question=1, answer={})
    assert caught.value.code == "deadline_passed"
    speed.refresh_from_db()
    assert speed.status == AttemptStatus.SUBMITTED
    assert Decision.objects.count() == 0
    assert LedgerEntry.objects.filter(event=Event.ATTEMPT_SUBMITTED).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False])
def test_two_answers_sent_at_once_take_turns(trainee, same):
    """Two clients (a double tap, two tabs) answer the same question at the same moment:
    one decision and one ledger entry; the other is told it is the same answer (200) or
    that the question is answered (409)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers: the race needs PostgreSQL")
    from rest_framework.test import APIClient

    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    wrong = {**RIGHT, "answer": {"action": "pay", "amount": "25.00"}}
    bodies = [RIGHT, RIGHT if same else wrong]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def answer(body):
        client = APIClient()
        client.force_login(trainee)
        try:
            barrier.wait()
            response = client.post(f"/api/attempts/{attempt.pk}/answers", body, format="json")
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=answer, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == ([200, 201] if same else [201, 409])
    assert Decision.objects.filter(item__attempt=attempt).count() == 1
    assert LedgerEntry.objects.filter(event=Event.DECISION_RECORDED).count() == 1
    assert ledger_verify().ok


def test_a_submit_makes_the_attempt_s_first_run_without_reading_its_number(trainee):
    from trainer.models import GradingRun

    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_submit(attempt=attempt.pk, user=trainee)
    assert list(GradingRun.objects.filter(attempt=attempt).values_list("number", flat=True)) == [1]


def test_a_run_where_none_can_be_stops_the_submit_writing_nothing(trainee):
    """An attempt in progress never has a run (runs are for submitted attempts, and none
    goes back): were one there, the run's unique number refuses the submit's whole."""
    from django.db import IntegrityError

    from trainer.models import GradingRun

    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    GradingRun.objects.create(attempt=attempt, number=1, trigger="submit", status="pending")
    entries = LedgerEntry.objects.count()
    with pytest.raises(IntegrityError):
        attempt_submit(attempt=attempt.pk, user=trainee)
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.IN_PROGRESS
    assert LedgerEntry.objects.count() == entries
    assert GradingRun.objects.filter(attempt=attempt).count() == 1


def test_a_first_showing_records_its_moment_once_and_keeps_it(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    first = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    again = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    item = attempt.items.get(position=1)
    assert list(item.questions_shown) == ["1"]
    assert again["shown_at"] == first["shown_at"]
    assert item.shown_at is not None
    assert item.shown_at.isoformat() == item.questions_shown["1"]
    # The second question is added beside the first, which keeps its moment.
    decision_record(
        attempt=attempt.pk, user=trainee, position=1, question=1, answer=RIGHT["answer"]
    )
    second = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    item.refresh_from_db()
    assert set(item.questions_shown) == {"1", "2"}
    assert item.shown_at.isoformat() == item.questions_shown["1"]
    assert (
        second["shown_at"]
        == api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]["shown_at"]
    )


@pytest.mark.django_db(transaction=True)
def test_two_first_showings_at_once_record_one_moment(trainee):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers: the race needs PostgreSQL")
    from rest_framework.test import APIClient

    drill = DrillFactory(documents=[natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    barrier = threading.Barrier(4)
    seen: list[str] = []

    def ask():
        client = APIClient()
        client.force_login(trainee)
        try:
            barrier.wait()
            seen.append(
                client.get(f"/api/attempts/{attempt.pk}/question").json()["question"]["shown_at"]
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    item = attempt.items.get(position=1)
    assert len(seen) == 4
    assert set(seen) == {item.questions_shown["1"]}


def test_the_question_of_a_submitted_attempt_with_rounds_unplayed_is_none(api, trainee):
    drill = DrillFactory(documents=[natural_document(), natural_document("b")])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_submit(attempt=attempt, user=trainee)
    body = api.get(f"/api/attempts/{attempt.pk}/question").json()
    assert body["question"] is None
    assert body["status"] == AttemptStatus.SUBMITTED


def test_a_question_asked_past_the_time_box_submits_the_attempt(api, trainee):
    drill = DrillFactory(documents=[natural_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.SPEED, trainee=trainee)
    speed = attempt_start(trainee=trainee, drill=drill, mode=Mode.SPEED, assignment=assignment)
    Attempt.objects.filter(pk=speed.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    body = api.get(f"/api/attempts/{speed.pk}/question").json()
    assert body["question"] is None
    assert body["status"] == AttemptStatus.SUBMITTED
    assert not speed.items.filter(shown_at__isnull=False).exists()


def test_the_question_of_someone_else_s_attempt_is_404_and_starts_no_clock(api, theirs):
    response = api.get(f"/api/attempts/{theirs.pk}/question")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert list(theirs.items.get(position=1).questions_shown) == ["1"]  # theirs, shown before
