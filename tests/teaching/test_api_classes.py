"""Classes and rosters in the API: each role's refusals, and the same services and errors
as the pages (another boss's class is 404, a refused roster writes nothing)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from trainer.models import TrainingClass

pytestmark = pytest.mark.django_db

ROW = {
    "username": "jdoe",
    "first_name": "Jane",
    "last_name": "Doe",
    "email": "jane@casino.example",
    "class": "Morning",
}


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


@pytest.fixture
def evening(other_trainee):
    other = UserFactory(username="other-boss", roles=["pit_boss"])
    return TrainingClassFactory(name="Evening", trainees=[other_trainee], instructors=[other])


def as_user(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def calls(morning, trainee):
    """(method, url, body) of every class endpoint, each body valid for the class's boss."""
    url = f"/api/classes/{morning.pk}/"
    return [
        ("get", "/api/classes/", None),
        ("post", "/api/classes/", {"name": "New"}),
        ("get", url, None),
        ("patch", url, {"name": "Renamed"}),
        ("post", f"{url}trainees/", {"username": "otto"}),
        ("delete", f"{url}trainees/{trainee.pk}/", None),
        ("post", f"{url}invitations/", {"username": "jdoe", "email": "j@casino.example"}),
        ("post", "/api/classes/roster/", {"rows": [ROW]}),
    ]


@pytest.mark.parametrize("role", ["anonymous", "trainee", "compliance"])
def test_other_roles_are_refused_every_class_endpoint(role, morning, trainee, other_trainee):
    user = None if role == "anonymous" else UserFactory(roles=[role])
    client = as_user(user)
    ledger = LedgerEntry.objects.count()
    for method, url, body in calls(morning, trainee):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 403, (method, url)
        assert response.json()["code"] in {"not_authenticated", "permission_denied"}
    assert LedgerEntry.objects.count() == ledger
    assert TrainingClass.objects.count() == 1


def test_another_boss_s_class_does_not_exist_for_a_pit_boss(pit_boss, evening, other_trainee):
    client = as_user(pit_boss)
    url = f"/api/classes/{evening.pk}/"
    for method, path, body in [
        ("get", url, None),
        ("patch", url, {"name": "Mine now"}),
        ("post", f"{url}trainees/", {"username": "tina"}),
        ("delete", f"{url}trainees/{other_trainee.pk}/", None),
        ("post", f"{url}invitations/", {"username": "x", "email": "x@casino.example"}),
    ]:
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 404, (method, path)
        assert response.json()["code"] == "not_found"
    assert list(evening.trainees.all()) == [other_trainee]
    assert client.get("/api/classes/").json()["results"] == []


def test_a_pit_boss_runs_their_class_through_the_api(
    pit_boss, morning, trainee, other_trainee, django_capture_on_commit_callbacks
):
    client = as_user(pit_boss)
    listed = client.get("/api/classes/").json()
    assert listed["results"] == [
        {
            "id": morning.pk,
            "name": "Morning",
            "trainees": 1,
            "instructors": 1,
            "created_at": listed["results"][0]["created_at"],
        }
    ]
    added = client.post(f"/api/classes/{morning.pk}/trainees/", {"username": "otto"}, format="json")
    assert added.status_code == 201
    assert {t["username"] for t in added.json()["trainees"]} == {"tina", "otto"}
    again = client.post(f"/api/classes/{morning.pk}/trainees/", {"username": "otto"}, format="json")
    assert again.status_code == 409
    assert again.json()["field"] == "username"
    removed = client.delete(f"/api/classes/{morning.pk}/trainees/{other_trainee.pk}/")
    assert removed.status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        invited = client.post(
            f"/api/classes/{morning.pk}/invitations/",
            {"username": "jdoe", "email": "jane@casino.example", "first_name": "Jane"},
            format="json",
        )
    assert invited.status_code == 201
    assert invited.json()["username"] == "jdoe"
    assert len(mail.outbox) == 1
    renamed = client.patch(f"/api/classes/{morning.pk}/", {"name": "Dawn"}, format="json")
    assert renamed.json()["name"] == "Dawn"
    created = client.post("/api/classes/", {"name": "Night"}, format="json")
    assert created.status_code == 201
    assert [i["username"] for i in created.json()["instructors"]] == ["boss"]


def test_an_admin_sees_and_changes_every_class(admin_user, morning, evening, trainee):
    client = as_user(admin_user)
    names = [c["name"] for c in client.get("/api/classes/").json()["results"]]
    assert names == ["Evening", "Morning"]
    added = client.post(f"/api/classes/{evening.pk}/trainees/", {"username": "tina"}, format="json")
    assert added.status_code == 201


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "Morning"}, "name"),
        ({"name": "x", "extra": 1}, "extra"),
        ({"name": 0}, "name"),
    ],
)
def test_a_bad_class_body_names_its_field(pit_boss, morning, body, field):
    response = as_user(pit_boss).post("/api/classes/", body, format="json")
    assert response.status_code in {400, 409}
    assert response.json()["field"] == field
    assert TrainingClass.objects.count() == 1


def test_a_roster_with_a_bad_row_is_refused_whole_with_every_problem(pit_boss, morning):
    ledger = LedgerEntry.objects.count()
    rows = [ROW, {**ROW, "username": "kim", "email": "bad", "class": "Nowhere"}]
    response = as_user(pit_boss).post("/api/classes/roster/", {"rows": rows}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["field"] == "rows"
    assert [(p["line"], p["column"]) for p in body["problems"]] == [(2, "email"), (2, "class")]
    assert not get_user_model().objects.filter(username="jdoe").exists()
    assert LedgerEntry.objects.count() == ledger


def test_a_roster_as_csv_text_is_applied(pit_boss, morning, django_capture_on_commit_callbacks):
    text = "username,first_name,last_name,email,class\njdoe,Jane,Doe,jane@casino.example,Morning\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(pit_boss).post("/api/classes/roster/", {"csv": text}, format="json")
    assert response.status_code == 200
    assert response.json() == {"rows": 1, "invited": ["jdoe"], "added": ["jdoe"], "already": []}
    assert LedgerEntry.objects.filter(event=Event.ROSTER_IMPORTED).count() == 1
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, None),
        ({"rows": [ROW], "csv": "x"}, None),
        ({"csv": "a,b\n"}, "csv"),
        ({"rows": [{**ROW, "age": "3"}]}, "rows.0.age"),
        ({"rows": [{**ROW, "class": 7}]}, "rows.0.class"),
    ],
)
def test_a_bad_roster_body_is_a_400_naming_what_is_wrong(pit_boss, morning, body, field):
    response = as_user(pit_boss).post("/api/classes/roster/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_the_class_endpoints_are_in_the_schema():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert {
        "/api/classes/",
        "/api/classes/roster/",
        "/api/classes/{class_id}/",
        "/api/classes/{class_id}/trainees/",
        "/api/classes/{class_id}/trainees/{trainee_id}/",
        "/api/classes/{class_id}/invitations/",
    } <= set(paths)
    refusal = paths["/api/classes/roster/"]["post"]["responses"]["400"]
    assert refusal["content"]["application/json"]["schema"]["$ref"].endswith("/RosterRefusalOutput")
    row = schema["components"]["schemas"]["RosterRowInput"]["properties"]
    assert set(row) == {"username", "first_name", "last_name", "email", "class"}
