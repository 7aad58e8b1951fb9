"""Exact query counts for the paths that list or write many things, each measured at two
data sizes (zulip's ``assert_database_query_count`` is the model): a page or a write that
queried once per trainee, attempt, round or answer would show it here as the data grows.

A change of count is a change of design: when one is intended, update the number and say
why in the commit."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from audit.models import ComplianceReport, ReportStatus, RetrainingFlag
from tests.audit.factories import TrainingClassFactory, table_test
from tests.factories import UserFactory
from tests.graded import RIGHT, client_for, make_attempt, wrong
from tests.queries import assert_database_query_count, counted, per_vendor
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import GradingRun, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_runs_execute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("session_activity_unwritten")]


# The pit.


def _class_of(size, boss):
    """``size`` trainees in one class of ``boss``'s, each with a practice attempt (one
    mistake), a table-test sitting, and every other one flagged for retraining."""
    trainees = [UserFactory(username=f"t{size}-{n}", roles=["trainee"]) for n in range(size)]
    TrainingClassFactory(name=f"Class of {size}", trainees=trainees, instructors=[boss])
    drill = table_test()
    for n, trainee in enumerate(trainees):
        make_attempt(trainee=trainee, answers=[RIGHT, wrong("1.00")], mode=Mode.PRACTICE)
        make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=drill)
        if n % 2:
            RetrainingFlag.objects.create(trainee=trainee, flagged_by=boss, reason="Rounding")


# The totals over every trainee, the tables over a page of classes, nothing cached. 21:
# the standings' own key (the page's graded versions, certification rows and tables)
# is read before they are worked out. 22: the mistakes waiting for review, one grouped
# count (issue #24). 23: the tables a passed sitting could be signed at, to say which wait
# on the practical test (audit.services.practical.practical_waiting; these tests sign
# without one, so no more is read: see the next test for the rest).
DASHBOARD_QUERIES = 22


@pytest.mark.parametrize("size", [2, 8])
def test_the_pit_dashboard_at_two_sizes(pit_boss, size):
    _class_of(size, pit_boss)
    client = client_for(pit_boss)
    cache.clear()
    url = reverse("pit:dashboard")
    with assert_database_query_count(DASHBOARD_QUERIES):
        assert client.get(url).status_code == 200


# With the practical test asked for (as in production): the one table's rules in force and the
# trainees' practical sheets, one query each, whatever the number of trainees.
DASHBOARD_WITH_PRACTICAL_QUERIES = DASHBOARD_QUERIES + 2


@pytest.mark.practical
@pytest.mark.parametrize("size", [2, 8])
def test_the_pit_dashboard_with_the_practical_test(pit_boss, size):
    _class_of(size, pit_boss)
    client = client_for(pit_boss)
    cache.clear()
    url = reverse("pit:dashboard")
    with assert_database_query_count(DASHBOARD_WITH_PRACTICAL_QUERIES):
        page = client.get(url).content.decode()
    assert page.count("the practical test is missing") == size


def _trainee_with(attempts, boss):
    trainee = UserFactory(username=f"busy{attempts}", roles=["trainee"])
    TrainingClassFactory(name=f"Busy {attempts}", trainees=[trainee], instructors=[boss])
    for _ in range(attempts):
        make_attempt(trainee=trainee, answers=[wrong("1.00"), wrong("-2.00"), RIGHT])
    make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    RetrainingFlag.objects.create(trainee=trainee, flagged_by=boss, reason="Rounding")
    return trainee


# A trainee's sections (issue #24: the one long page split), each reading only what it
# shows, nothing cached. Every section reads the session with the user (one query), the
# trainee, whether the viewer acts for them and their flags in force (the head and its
# tabs): 4. Then
# - the overview: the figures (graded versions, summaries), the standings' key (graded
#   versions, certification rows, tables) and the standings (attempts, summaries, drills,
#   certifications), the mistakes waiting, and the filter's choices (tables, the trainee);
# - mistakes: the filter's tables, the page of mistakes, which are reviewed, the waiting;
# - retraining: the refreshers, the flags' history;
# - certification: the sittings (attempts, summaries, drills, certifications), the tables
#   not sat, the signatures and their withdrawals;
# - sign-off: the sittings as above, the tables, the sittings a choice is read from, and the
#   signer's rank and licence number on file and the ready table (one query each);
# - practical test: the table chosen and its rules in force, the sheets (with their tables),
#   the tables offered, the evaluator's rank and licence number.
TRAINEE_SECTION_QUERIES = {
    "pit:trainee": 18,
    "pit:trainee_mistakes": 9,
    "pit:trainee_retraining": 6,
    "pit:trainee_certification": 11,
    "pit:trainee_sign_off": 11,
    "pit:trainee_practical": 9,
}


def _warm(client, url: str) -> None:
    """One showing first, then nothing cached: the counted one does not also write the
    session's "last seen" (config.sessions writes it at most every 30 seconds)."""
    assert client.get(url).status_code == 200
    cache.clear()


@pytest.mark.parametrize("section", sorted(TRAINEE_SECTION_QUERIES))
@pytest.mark.parametrize("attempts", [1, 6])
def test_the_pit_trainee_sections_at_two_sizes(pit_boss, attempts, section):
    trainee = _trainee_with(attempts, pit_boss)
    client = client_for(pit_boss)
    url = reverse(section, args=[trainee.pk])
    _warm(client, url)
    with assert_database_query_count(TRAINEE_SECTION_QUERIES[section]):
        assert client.get(url).status_code == 200


# With the practical test asked for (as in production; the tests above sign without one),
# the certification section asks once per table a sitting could back
# (audit.services.practical.practical_refusal): its rules in force (the sheet's template),
# the trainee's sheets' ids (checked against the ledger when there are any: none here), and
# the sheet in force. One table here, whatever the number of sittings.
CERTIFICATION_WITH_PRACTICAL_QUERIES = TRAINEE_SECTION_QUERIES["pit:trainee_certification"] + 3


@pytest.mark.practical
@pytest.mark.parametrize("attempts", [2, 8])
def test_the_certification_section_with_the_practical_test(pit_boss, attempts):
    trainee = _trainee_with(attempts, pit_boss)
    make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    client = client_for(pit_boss)
    url = reverse("pit:trainee_certification", args=[trainee.pk])
    _warm(client, url)
    with assert_database_query_count(CERTIFICATION_WITH_PRACTICAL_QUERIES):
        assert "Open the practical test" in client.get(url).content.decode()


# The review queue: the session with the user, the trainees the viewer reviews (the filter's
# choices), the filter's tables, the count and the page of mistakes waiting: the same
# however many trainees, attempts and mistakes.
QUEUE_QUERIES = 5


@pytest.mark.parametrize("size", [2, 8])
def test_the_review_queue_at_two_sizes(pit_boss, size):
    _class_of(size, pit_boss)
    client = client_for(pit_boss)
    url = reverse("pit:queue")
    _warm(client, url)
    with assert_database_query_count(QUEUE_QUERIES):
        assert client.get(url).status_code == 200
    with assert_database_query_count(QUEUE_QUERIES):
        assert client.get(url, {"skill": "natural-3to2", "page": "2"}).status_code == 200


# The table.


def _started(trainee, rounds):
    documents = [natural_document(f"natural-{n}") for n in range(rounds)]
    drill = DrillFactory(documents=documents)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


START_QUERIES = 9


@pytest.mark.parametrize("rounds", [2, 12])
def test_starting_an_attempt_at_two_sizes(trainee, rounds):
    drill = DrillFactory(documents=[simple_document(f"simple-{n}") for n in range(rounds)])
    client = client_for(trainee)
    with assert_database_query_count(START_QUERIES):
        response = client.post(reverse("train:start"), {"drill": drill.pk})
    assert response.status_code == 302


# The session with the user; BEGIN, the attempt locked with its drill (its owner in the same
# WHERE: someone else's is a 404), the round being played with how many of its questions
# are answered, the decision, the ledger (its head locked, the entry written and the head
# moved: one statement on PostgreSQL, ledger.services.append; three on SQLite), COMMIT
# (issue #29: 12 before).
DECISION_QUERIES = per_vendor(sqlite=9, postgresql=7)


@pytest.mark.parametrize("answered", [1, 9])
def test_recording_a_decision_at_two_sizes(trainee, answered):
    """Answer ``answered`` rounds first (two questions each), then record one more."""
    attempt = _started(trainee, answered + 1)
    api = client_for(trainee)
    question = f"/api/attempts/{attempt.pk}/question"
    for position in range(1, answered + 1):
        for n, answer in ((1, {"action": "pay", "amount": "37.50"}), (2, {"answer": "reshuffle"})):
            api.get(question)
            decision_record(
                attempt=attempt, user=trainee, position=position, question=n, answer=answer
            )
    api.get(question)
    body = {"position": answered + 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}
    url = f"/api/attempts/{attempt.pk}/answers"
    with assert_database_query_count(DECISION_QUERIES):
        response = api.post(url, body, content_type="application/json")
    assert response.status_code == 201, response.content


# The question and the submit through the API (issue #29): the session with the user, the
# round being played with its attempt and drill (the owner in the WHERE), the count of
# rounds and of its questions answered; a first showing adds one conditional UPDATE (the
# moment set where none is yet: no lock, no re-read, no BEGIN/COMMIT).
QUESTION_AGAIN_QUERIES = 2
QUESTION_FIRST_QUERIES = QUESTION_AGAIN_QUERIES + 1


@pytest.mark.parametrize("answered", [1, 9])
def test_showing_a_question_first_and_again(trainee, answered):
    attempt = _started(trainee, answered + 1)
    for position in range(1, answered + 1):
        for n, answer in ((1, {"action": "pay", "amount": "37.50"}), (2, {"answer": "reshuffle"})):
            attempt_question_show(attempt=attempt, user=trainee)
            decision_record(
                attempt=attempt, user=trainee, position=position, question=n, answer=answer
            )
    api = client_for(trainee)
    url = f"/api/attempts/{attempt.pk}/question"
    api.get(f"/api/attempts/{attempt.pk}/")  # the session's own writes, once
    with assert_database_query_count(QUESTION_FIRST_QUERIES):
        first = api.get(url)
    with assert_database_query_count(QUESTION_AGAIN_QUERIES):
        again = api.get(url)
    assert first.json()["question"]["position"] == answered + 1
    assert again.json()["question"]["shown_at"] == first.json()["question"]["shown_at"]


# The session with the user; BEGIN, the attempt locked with its drill and trainee (its owner
# in the same WHERE), the run (its first: no number read), the ledger (head, entry and
# head's move: one statement on PostgreSQL, three on SQLite), the attempt's one UPDATE,
# COMMIT; the progress in one query.
SUBMIT_QUERIES = per_vendor(sqlite=10, postgresql=8)


@pytest.mark.parametrize("rounds", [2, 8])
def test_submitting_at_two_sizes(trainee, rounds):
    attempt = _started(trainee, rounds)
    attempt_question_show(attempt=attempt, user=trainee)
    answer = {"action": "pay", "amount": "37.50"}
    decision_record(attempt=attempt, user=trainee, position=1, question=1, answer=answer)
    api = client_for(trainee)
    api.get(f"/api/attempts/{attempt.pk}/")  # the session's own writes, once
    with assert_database_query_count(SUBMIT_QUERIES):
        response = api.post(f"/api/attempts/{attempt.pk}/submit")
    assert response.status_code == 202, response.content
    attempt.refresh_from_db()
    assert (attempt.status, attempt.grading_status) == ("submitted", "pending")
    assert response.json()["progress"] == {"rounds": rounds, "rounds_answered": 0, "decisions": 1}


# Grading.


# 20: each attempt's latest and latest graded run numbers are one query (they were two).
GRADING_QUERIES = 20
# PostgreSQL checks the grades' foreign keys before the ledger's head is locked, in one
# more statement (SET CONSTRAINTS ALL IMMEDIATE), instead of at the commit.
DEFERRED_CHECKS = 1


@pytest.mark.parametrize("attempts", [2, 6])
def test_a_grading_batch_at_two_sizes(trainee, attempts):
    for _ in range(attempts):
        attempt_submit(attempt=_started(trainee, 3), user=trainee)
    # Submitting asked for each run; the worker would be handed them in one batch.
    ids = list(GradingRun.objects.values_list("pk", flat=True))
    assert len(ids) == attempts
    # PostgreSQL writes every run's figures and every attempt's score in one statement
    # each (executemany); SQLite's path updates them a row at a time.
    expected = per_vendor(
        sqlite=GRADING_QUERIES + 2 * attempts, postgresql=GRADING_QUERIES + DEFERRED_CHECKS
    )
    with assert_database_query_count(expected):
        outcome = grading_runs_execute(run_ids=ids)
    assert set(outcome) == set(ids)
    assert GradingRun.objects.filter(pk__in=ids, status="graded").count() == attempts


# Administration (issue #24): the people and classes lists read the same number of queries
# whatever their size (roles, classes and lockouts are read in one query each).


@pytest.mark.parametrize("size", [2, 8])
def test_the_administration_lists_at_two_sizes(admin_user, pit_boss, size):
    people = [UserFactory(username=f"p{size}-{n}", roles=["trainee"]) for n in range(size)]
    for n in range(size):
        TrainingClassFactory(
            name=f"Admin class {size}-{n}", trainees=people[n : n + 1], instructors=[pit_boss]
        )
    client = client_for(admin_user)
    client.get(reverse("administration:index"))  # the session's own writes, once
    counts = {
        name: counted(lambda name=name: client.get(reverse(name)))
        for name in ("administration:people", "administration:classes")
    }
    assert counts == {
        "administration:people": ADMIN_PEOPLE,
        "administration:classes": ADMIN_CLASSES,
    }


# The session with the user and roles, the people, their groups, classes taught, classes
# attended, the lockouts.
ADMIN_PEOPLE = 6
# The session with the user and roles, the classes with counts, their instructors.
ADMIN_CLASSES = 3


# The compliance officer's lists (issue #25).


def _reports(size, officer):
    """``size`` reports, each asked for by a compliance officer of its own, in every state."""
    statuses = [ReportStatus.READY, ReportStatus.PENDING, ReportStatus.FAILED]
    for n in range(size):
        ComplianceReport.objects.create(
            period_start=dt.date(2026, 1, 1),
            period_end=dt.date(2026, 1, 31),
            format="csv" if n % 2 else "pdf",
            requested_by=officer
            if n == 0
            else UserFactory(username=f"officer{size}-{n}", roles=["compliance"]),
            status=statuses[n % len(statuses)],
        )


# The session with the user and roles, the reports with who asked for each (one join): the
# same however many reports and officers.
COMPLIANCE_REPORTS_QUERIES = 2


@pytest.mark.parametrize("size", [2, 8])
def test_the_compliance_reports_list_at_two_sizes(compliance_officer, size):
    _reports(size, compliance_officer)
    client = client_for(compliance_officer)
    url = reverse("compliance:index")
    _warm(client, url)
    with assert_database_query_count(COMPLIANCE_REPORTS_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("data-report=") == size


# The pit as compliance reads it: every trainee of every class (two classes, two pit bosses),
# nothing cached; as many queries as the pit boss's over their own class.
COMPLIANCE_DASHBOARD_QUERIES = DASHBOARD_QUERIES


@pytest.mark.parametrize("size", [2, 8])
def test_the_compliance_officers_pit_at_two_sizes(pit_boss, compliance_officer, size):
    _class_of(size, pit_boss)
    _class_of(size + 1, UserFactory(username=f"evening-boss-{size}", roles=["pit_boss"]))
    client = client_for(compliance_officer)
    url = reverse("pit:dashboard")
    _warm(client, url)
    with assert_database_query_count(COMPLIANCE_DASHBOARD_QUERIES):
        assert client.get(url).status_code == 200


# A trainee's sections as compliance reads them: as the pit boss's (above), less the
# queries asking whether the viewer teaches the trainee's class (compliance reads every
# trainee and acts for none): one fewer, two on the overview and the mistakes.
COMPLIANCE_TRAINEE_SECTION_QUERIES = {
    "pit:trainee": 16,
    "pit:trainee_mistakes": 7,
    "pit:trainee_retraining": 5,
    "pit:trainee_certification": 10,
    "pit:trainee_sign_off": 8,
}


@pytest.mark.parametrize("section", sorted(COMPLIANCE_TRAINEE_SECTION_QUERIES))
@pytest.mark.parametrize("attempts", [1, 6])
def test_the_trainee_sections_as_compliance_reads_them_at_two_sizes(
    pit_boss, compliance_officer, attempts, section
):
    trainee = _trainee_with(attempts, pit_boss)
    client = client_for(compliance_officer)
    url = reverse(section, args=[trainee.pk])
    _warm(client, url)
    with assert_database_query_count(COMPLIANCE_TRAINEE_SECTION_QUERIES[section]):
        assert client.get(url).status_code == 200


# The results of a graded attempt, through the API and as the trainee's page: the session
# with the user, the attempt with its drill, the newest graded run with its summary by skill
# (the summary was a query of its own), its grades each with its round (one query: the
# page once read each round's table again, a query a round).
RESULTS_QUERIES = 4


@pytest.mark.parametrize("rounds", [2, 9])
@pytest.mark.parametrize("door", ["api", "page"])
def test_the_results_at_two_sizes(trainee, rounds, door):
    answers = [RIGHT] * (rounds - 1) + [wrong("1.00")]
    attempt = make_attempt(trainee=trainee, answers=answers, mode=Mode.PRACTICE)
    client = client_for(trainee)
    url = (
        f"/api/attempts/{attempt.pk}/results"
        if door == "api"
        else reverse("train:results", kwargs={"attempt_id": attempt.pk})
    )
    client.get(url)  # the session's own writes, once
    with assert_database_query_count(RESULTS_QUERIES):
        response = client.get(url)
    assert response.status_code == 200
    # Every round's grade is there, the one mistake among them, whatever the door.
    if door == "api":
        correct = [g["correct"] for g in response.json()["grades"]]
    else:
        correct = [row[0].correct for row in response.context["grades"]]
    assert len(correct) == rounds
    assert correct.count(False) == 1
