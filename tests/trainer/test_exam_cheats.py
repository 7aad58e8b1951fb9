"""The cheats a hostile trainee tried on exams, each a regression test.

Practise-then-replay, retake, reading the results of an abandoned exam, probing questions
not yet shown, answering late, racing two starts: none may yield an expected answer before
it is earned, or a certification without the skill.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from audit.selectors import dashboard, grades
from core.errors import ConflictError, ForbiddenError
from teaching.services.assignments import assignment_create
from tests.audit.factories import TrainingClassFactory
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    DrillPurpose,
    Grade,
    GradingRun,
    Mode,
    RuleProfileVersion,
)
from trainer.selectors.attempts import practice_drills
from trainer.services.attempts import (
    NOT_ASKED,
    attempt_question_show,
    attempt_start,
    attempt_submit,
    attempts_close_expired,
    decision_record,
)
from trainer.services.drills import table_test_create
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db


def shoe() -> RuleProfileVersion:
    return RuleProfileVersion.objects.filter(profile__name="casino-shoe").order_by("-version")[0]


@pytest.fixture
def table_test(pit_boss):
    return table_test_create(profile_version=shoe(), user=pit_boss)


@pytest.fixture
def exam_assignment(table_test, trainee, pit_boss):
    # A pit boss assigns only trainees of a class they teach (issue #23).
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    return assignment_create(
        drill=table_test, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss, max_sittings=3
    )


def sit(trainee, assignment) -> Attempt:
    return attempt_start(
        trainee=trainee, drill=assignment.drill, mode=Mode.EXAM, assignment=assignment
    )


def shoes(attempt: Attempt) -> list[list[str]]:
    return [item.document["shoe"] for item in attempt.items.order_by("position")]


# Practise-then-replay.


def test_an_exam_is_not_offered_for_practice(table_test, trainee):
    assert table_test not in list(practice_drills(user=trainee))


def test_practising_an_exam_is_refused_by_the_service_the_api_and_the_page(
    table_test, trainee, api, client
):
    with pytest.raises(ForbiddenError):
        attempt_start(trainee=trainee, drill=table_test, mode=Mode.PRACTICE)
    body = {"drill": table_test.pk, "mode": "practice"}
    response = api.post("/api/attempts/", body, format="json")
    assert response.status_code == 403
    client.force_login(trainee)
    page = client.post(reverse("train:start"), {"drill": table_test.pk, "mode": "practice"})
    assert page.status_code == 403
    assert not Attempt.objects.exists()


def test_even_with_an_exam_assignment_the_exam_cannot_be_practised(exam_assignment, trainee):
    with pytest.raises(ForbiddenError):
        attempt_start(trainee=trainee, drill=exam_assignment.drill, mode=Mode.PRACTICE)


def test_a_sealed_fixed_pool_draws_each_sitting_in_its_own_order(trainee, pit_boss):
    docs = [natural_document(f"n{i}") for i in range(25)]  # five times the sitting
    pool = DrillFactory(documents=docs, purpose=DrillPurpose.EXAM, count=5)
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    assignment = assignment_create(
        drill=pool, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss, cooldown_hours=0
    )
    first = sit(trainee, assignment)
    attempt_submit(attempt=first, user=trainee)
    second = sit(trainee, assignment)
    ids = [[i.document["id"] for i in a.items.order_by("position")] for a in (first, second)]
    assert len(ids[0]) == len(ids[1]) == 5
    assert ids[0] != ids[1]
    assert (first.sitting, second.sitting) == (1, 2)
    assert first.seed is not None
    assert first.seed != second.seed


# Retakes deal fresh rounds.


def test_two_sittings_of_one_exam_deal_different_rounds(exam_assignment, trainee):
    exam_assignment.cooldown_hours = 0
    exam_assignment.save()
    first = sit(trainee, exam_assignment)
    attempt_submit(attempt=first, user=trainee)
    retake = sit(trainee, exam_assignment)
    assert retake.pk != first.pk
    assert shoes(first) != shoes(retake)
    assert len(shoes(retake)) >= 50


# Sittings under rules.


def test_the_cool_down_refuses_a_retake_until_it_has_passed(exam_assignment, trainee):
    first = sit(trainee, exam_assignment)
    attempt_submit(attempt=first, user=trainee)
    with pytest.raises(ConflictError, match="24 h after the last one ended") as caught:
        sit(trainee, exam_assignment)
    assert caught.value.code == "cooling_down"
    Attempt.objects.filter(pk=first.pk).update(submitted_at=timezone.now() - timedelta(hours=25))
    assert sit(trainee, exam_assignment).sitting == 2


def test_no_sitting_past_the_most_allowed(exam_assignment, trainee):
    exam_assignment.cooldown_hours = 0
    exam_assignment.max_sittings = 2
    exam_assignment.save()
    for _ in range(2):
        attempt_submit(attempt=sit(trainee, exam_assignment), user=trainee)
    with pytest.raises(ConflictError, match="most this assignment allows"):
        sit(trainee, exam_assignment)
    assert Attempt.objects.count() == 2


def test_no_sitting_after_the_due_date(exam_assignment, trainee):
    exam_assignment.due_at = timezone.now() - timedelta(minutes=1)
    exam_assignment.save()
    with pytest.raises(ConflictError, match="was due"):
        sit(trainee, exam_assignment)


def test_a_sitting_left_open_is_closed_when_its_time_is_up(exam_assignment, trainee):
    attempt = sit(trainee, exam_assignment)
    assert attempt.deadline is not None
    assert attempts_close_expired() == []
    later = attempt.deadline + timedelta(seconds=1)
    assert attempts_close_expired(now=later) == [attempt.pk]
    attempt.refresh_from_db()
    assert attempt.status == AttemptStatus.SUBMITTED
    assert attempts_close_expired(now=later) == []  # twice is harmless


# Concurrent starts.


def test_the_database_holds_one_open_attempt_per_drill_whatever_the_code_checks(
    exam_assignment, trainee
):
    attempt = sit(trainee, exam_assignment)
    with pytest.raises(IntegrityError), transaction.atomic():
        Attempt.objects.create(
            trainee=trainee,
            drill=attempt.drill,
            mode=Mode.EXAM,
            assignment=exam_assignment,
            sitting=2,
        )


def test_a_start_that_loses_the_race_returns_the_winners_attempt(
    exam_assignment, trainee, monkeypatch
):
    winner = sit(trainee, exam_assignment)
    # The loser's check ran before the winner's insert: it saw no open attempt.
    from trainer.services import attempts as service

    real = service._open_attempt
    calls = {"n": 0}

    def stale_first(**kwargs):
        calls["n"] += 1
        return None if calls["n"] == 1 else real(**kwargs)

    monkeypatch.setattr(service, "_open_attempt", stale_first)
    monkeypatch.setattr(service, "_sitting_rules", lambda **kwargs: 1)
    loser = sit(trainee, exam_assignment)
    assert loser.pk == winner.pk
    assert Attempt.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_starts_make_one_attempt(trainee, pit_boss):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers: the race needs PostgreSQL")
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    drill = table_test_create(profile_version=shoe(), user=pit_boss)
    assignment = assignment_create(
        drill=drill, mode=Mode.EXAM, trainee=trainee, assigned_by=pit_boss
    )
    barrier = threading.Barrier(2)
    results: list[object] = []

    def start():
        try:
            barrier.wait()
            results.append(sit(trainee, assignment).pk)
        except Exception as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Attempt.objects.count() == 1
    assert results == [Attempt.objects.get().pk] * 2


# Probing questions not yet shown.


@pytest.fixture
def practice(trainee):
    drill = DrillFactory(documents=[simple_document(), natural_document()])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    return attempt


@pytest.mark.parametrize(
    "body",
    [
        {"position": 1, "question": 2, "answer": {}},
        {"position": 1, "question": 2, "answer": {"answer": "hit"}},
        {"position": 1, "question": 4, "answer": {"action": "pay"}},
        {"position": 1, "question": 5, "answer": {}},
        {"position": 1, "question": 99, "answer": {}},
        {"position": 2, "question": 1, "answer": {}},
        {"position": 19, "question": 2, "answer": {}},
    ],
)
def test_probing_a_question_not_shown_gets_one_answer_that_tells_nothing(api, practice, body):
    response = api.post(f"/api/attempts/{practice.pk}/answers", body, format="json")
    assert response.status_code == 409
    assert response.json() == {"error": NOT_ASKED, "field": "question", "code": "not_current"}
    assert not Decision.objects.exists()


def test_the_question_shows_no_count_of_the_questions_ahead(api, practice):
    question = api.get(f"/api/attempts/{practice.pk}/question").json()["question"]
    assert "of" not in question
    assert question["time_limit_seconds"] == practice.drill.time_limit_seconds


def test_the_page_answers_a_probe_the_same_way(client, trainee, practice):
    client.force_login(trainee)
    response = client.post(
        reverse("train:answer", args=[practice.pk]),
        {"position": 1, "question": 2, "answer": "hit"},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert NOT_ASKED in html
    assert "hit, stand" not in html


# Late answers.


def test_an_answer_after_the_time_limit_is_recorded_late_and_graded_wrong(trainee):
    drill = DrillFactory(documents=[natural_document()], time_limit_seconds=1)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    item = AttemptItem.objects.get(attempt=attempt)
    four_seconds_ago = (timezone.now() - timedelta(seconds=4)).isoformat()
    item.questions_shown = {"1": four_seconds_ago}
    item.save()
    decision, _ = decision_record(
        attempt=attempt,
        user=trainee,
        position=1,
        question=1,
        answer={"action": "pay", "amount": "37.50"},  # right, but 3 s too late
    )
    assert decision.late is True
    assert decision.time_limit_ms == 1000
    assert decision.response_ms >= 4000
    attempt_submit(attempt=attempt, user=trainee)
    grading_run_execute(run_id=GradingRun.objects.get(attempt=attempt).pk)
    grade = Grade.objects.get(question=1)
    assert (grade.correct, grade.category) == (False, "late")


def test_an_answer_in_time_is_not_late(trainee):
    drill = DrillFactory(documents=[natural_document()], time_limit_seconds=30)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    decision, _ = decision_record(
        attempt=attempt,
        user=trainee,
        position=1,
        question=1,
        answer={"action": "pay", "amount": "37.50"},
    )
    assert (decision.late, decision.time_limit_ms) == (False, 30000)


# The results of an abandoned exam.


def test_an_abandoned_exam_publishes_no_key_of_rounds_never_reached(
    exam_assignment, trainee, api, client
):
    attempt = sit(trainee, exam_assignment)
    question = attempt_question_show(attempt=attempt, user=trainee)
    assert question is not None
    kind = question["kind"]
    answer = (
        {"action": "pay", "amount": "5"}
        if "actions" in question
        else {"answer": question["answers"][0]}
    )
    if kind == "peek" and answer["answer"] == "peek":
        answer["dealer_blackjack"] = False
    decision_record(
        attempt=attempt, user=trainee, position=1, question=question["n"], answer=answer
    )
    attempt_submit(attempt=attempt, user=trainee)
    grading_run_execute(run_id=GradingRun.objects.get(attempt=attempt).pk)

    body = api.get(f"/api/attempts/{attempt.pk}/results").json()
    assert body["status"] == "graded"
    assert [(g["position"], g["question"]) for g in body["grades"]] == [(1, question["n"])]
    total = Grade.objects.filter(run__attempt=attempt).count()
    assert body["not_reached"] == total - 1
    assert body["questions"] == total
    # The skill figures count the one question shown, and nothing of the rounds never
    # reached (issue #24): no skill counts more than one question.
    assert all(row["questions"] <= 1 for row in body["skills"]), body["skills"]
    later = AttemptItem.objects.filter(attempt=attempt, position__gte=2)
    client.force_login(trainee)
    html = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    for item in later[:10]:
        for key in item.answer_key:
            assert key["prompt"] not in html or key["prompt"] in {
                k["prompt"] for k in AttemptItem.objects.get(attempt=attempt, position=1).answer_key
            }
    assert "count against your score" in html


def test_unanswered_questions_are_no_mistakes_to_review_and_move_no_money(exam_assignment, trainee):
    attempt = sit(trainee, exam_assignment)
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=GradingRun.objects.get(attempt=attempt).pk)
    assert run.correct == 0
    assert (run.overpaid, run.underpaid) == (Decimal("0"), Decimal("0"))
    assert grades.mistakes(trainees=[trainee.pk]) == []
    graded = dashboard.grade_figures(trainees=[trainee.pk])
    figures = dashboard.figures_total(figures=graded)
    assert figures.unanswered == run.questions
    assert figures.mistakes == 0
    assert dashboard.errors_by_category(figures=graded) == []
