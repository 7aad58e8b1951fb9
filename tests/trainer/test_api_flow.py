"""The whole trainee flow through the API, graded by a real Celery worker."""

import pytest
from rest_framework.test import APIClient

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.graded import poll
from tests.trainer.factories import (
    AssignmentFactory,
    DrillFactory,
    insurance_document,
    natural_document,
)
from trainer.models import AttemptItem, Mode

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_trainee_takes_an_exam_from_assignment_to_graded_result(celery_worker, trainee):
    drill = DrillFactory(documents=[natural_document(), insurance_document()])
    assignment = AssignmentFactory(drill=drill, mode=Mode.EXAM, trainee=trainee)
    api = APIClient()
    api.force_login(trainee)

    listed = api.get("/api/assignments/").json()["results"]
    assert [row["id"] for row in listed] == [assignment.pk]
    start = {"drill": drill.pk, "mode": "exam", "assignment": assignment.pk}
    attempt = api.post("/api/attempts/", start, format="json").json()
    url = f"/api/attempts/{attempt['id']}"

    answered = 0
    while (question := api.get(f"{url}/question").json()["question"]) is not None:
        key = AttemptItem.objects.get(
            attempt_id=attempt["id"], position=question["position"]
        ).answer_key[question["n"] - 1]
        answer = key["expected"]
        body = {"position": question["position"], "question": question["n"], "answer": answer}
        assert api.post(f"{url}/answers", body, format="json").status_code == 201
        answered += 1
    assert answered == 2 + 7
    assert api.get(f"{url}/").json()["progress"] == {
        "rounds": 2,
        "rounds_answered": 2,
        "decisions": 9,
    }
    assert LedgerEntry.objects.filter(event=Event.DECISION_RECORDED).count() == 9

    submitted = api.post(f"{url}/submit")
    assert submitted.status_code == 202
    assert submitted.json()["grading_status"] in ("pending", "grading", "graded")

    results = poll(lambda: api.get(f"{url}/results").json(), lambda r: r["status"] == "graded")
    assert results["score"] == "100.00"
    assert results["passed"] is True
    assert len(results["grades"]) == 9
    assert all(grade["correct"] for grade in results["grades"])
    listed = api.get("/api/assignments/").json()["results"][0]["attempts"]
    assert listed[0]["grading_status"] == "graded"
