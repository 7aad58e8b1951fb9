"""The instructor's assignment API: each role's refusals, the assigner is the caller, the
flow (create, reassign, board, cancel) and its input errors."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services.assignments import assignment_create
from tests.audit.factories import TrainingClassFactory
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Mode
from trainer.selectors.attempts import assignments_for_trainee

pytestmark = pytest.mark.django_db

URL = "/api/teach/assignments/"


@pytest.fixture
def setup(trainee, other_trainee, pit_boss):
    from tests.factories import UserFactory

    other_boss = UserFactory(username="other-boss", roles=["pit_boss"])
    mine = TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    theirs = TrainingClassFactory(
        name="Evening", trainees=[other_trainee], instructors=[other_boss]
    )
    drill = DrillFactory(documents=[natural_document()])
    return {"mine": mine, "theirs": theirs, "drill": drill, "other_boss": other_boss}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post(client: Client, url: str, body: dict) -> object:
    return client.post(url, body, content_type="application/json")


@pytest.mark.parametrize("who", ["trainee", "compliance_officer"])
def test_trainees_and_compliance_are_refused_everywhere(setup, pit_boss, request, who):
    user = request.getfixturevalue(who)
    assignment = assignment_create(
        drill=setup["drill"], mode=Mode.PRACTICE, training_class=setup["mine"], assigned_by=pit_boss
    )
    client = _client(user)
    base = f"{URL}{assignment.pk}/"
    for method, url in [
        ("get", URL),
        ("post", URL),
        ("get", base),
        ("post", base + "reassign"),
        ("post", base + "cancel"),
        ("get", base + "board"),
    ]:
        response = getattr(client, method)(url, content_type="application/json")
        assert response.status_code == 403, url
        assert response.json()["code"] in {"permission_denied", "forbidden", "not_authenticated"}
    assert Assignment.objects.get().cancelled_at is None


def test_anonymous_is_refused(setup):
    assert Client().get(URL).status_code == 403


def test_a_pit_boss_creates_as_themselves_and_follows_it(setup, pit_boss, trainee):
    client = _client(pit_boss)
    response = _post(
        client,
        URL,
        {
            "drill": setup["drill"].pk,
            "mode": "practice",
            "training_class": setup["mine"].pk,
            "due_at": "2030-05-01T18:00:00+02:00",
            "max_sittings": 2,
        },
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["assigned_by"] == pit_boss.pk
    assert body["due_at"].startswith("2030-05-01T16:00:00")
    assignment_id = body["id"]
    board = client.get(f"{URL}{assignment_id}/board").json()
    assert board["rows"] == [
        {
            "trainee": trainee.pk,
            "name": trainee.get_full_name() or trainee.username,
            "cells": [
                {"assignment": assignment_id, "status": "not_started", "last_activity": None}
            ],
        }
    ]
    changed = _post(client, f"{URL}{assignment_id}/reassign", {"max_sittings": None})
    assert changed.status_code == 200
    assert changed.json()["max_sittings"] is None
    assert changed.json()["due_at"] is not None  # left out: unchanged
    cancelled = client.post(f"{URL}{assignment_id}/cancel")
    assert cancelled.status_code == 200
    assert list(assignments_for_trainee(user=trainee)) == []
    assert client.post(f"{URL}{assignment_id}/cancel").status_code == 409
    listed = client.get(URL, {"cancelled": "true"}).json()
    assert [a["id"] for a in listed["results"]] == [assignment_id]
    assert client.get(URL, {"cancelled": "false"}).json()["results"] == []
    events = list(
        LedgerEntry.objects.filter(subject_id=str(assignment_id)).values_list("event", "actor_id")
    )
    assert events == [
        (Event.ASSIGNMENT_CREATED, pit_boss.pk),
        (Event.ASSIGNMENT_REASSIGNED, pit_boss.pk),
        (Event.ASSIGNMENT_CANCELLED, pit_boss.pk),
    ]


def test_another_class_and_its_trainees_do_not_exist_for_a_pit_boss(setup, pit_boss, other_trainee):
    client = _client(pit_boss)
    theirs = assignment_create(
        drill=setup["drill"],
        mode=Mode.PRACTICE,
        training_class=setup["theirs"],
        assigned_by=setup["other_boss"],
    )
    assert client.get(f"{URL}{theirs.pk}/").status_code == 404
    assert client.post(f"{URL}{theirs.pk}/cancel").status_code == 404
    for body in (
        {"drill": setup["drill"].pk, "mode": "practice", "trainee": other_trainee.pk},
        {"drill": setup["drill"].pk, "mode": "practice", "training_class": setup["theirs"].pk},
    ):
        response = _post(client, URL, body)
        assert response.status_code == 404
    assert Assignment.objects.count() == 1


def test_an_admin_cannot_assign_to_the_compliance_officer(setup, admin_user, compliance_officer):
    setup["mine"].trainees.add(compliance_officer)
    response = _post(
        _client(admin_user),
        URL,
        {"drill": setup["drill"].pk, "mode": "practice", "trainee": compliance_officer.pk},
    )
    # The compliance officer is not a trainee: not among the trainees an admin can pick
    # from, or refused by the service.
    assert response.status_code in (400, 404)
    assert response.json()["field"] == "trainee"
    assert not Assignment.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"mode": "practice", "training_class": 1}, "drill"),
        ({"drill": 1, "mode": "blitz", "training_class": 1}, "mode"),
        (
            # Without an offset is house time (tests/teaching/test_house_time.py); not a date
            # is a 400.
            {"drill": 1, "mode": "practice", "training_class": 1, "due_at": "1 May at six"},
            "due_at",
        ),
        ({"drill": 1, "mode": "practice", "training_class": 1, "assigned_by": 1}, "assigned_by"),
        (
            {"drill": 1, "mode": "practice", "training_class": 1, "max_sittings": "2"},
            "max_sittings",
        ),
    ],
)
def test_bad_input_names_the_field(setup, pit_boss, body, field):
    response = _post(_client(pit_boss), URL, body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Assignment.objects.exists()
