"""Administration in the API (issue #24): people under /api/admin/people/ and a class's
instructors under /api/classes/<id>/instructors/, by administrators only, with the same
services and refusals as the pages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from core.lockout import lockout_state
from core.roles import Role, roles_of
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PEOPLE = "/api/admin/people/"


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def ada(db):
    return UserFactory(username="ada", roles=["admin"])


@pytest.fixture
def api(ada) -> APIClient:
    return as_user(ada)


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


def test_an_admin_creates_a_person_and_reads_them_back(api, django_capture_on_commit_callbacks):
    body = {
        "username": "paula",
        "email": "paula@casino.example",
        "first_name": "Paula",
        "roles": ["pit_boss", "trainee"],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(PEOPLE, body, format="json")
    assert response.status_code == 201, response.json()
    made = response.json()
    assert made["roles"] == ["trainee", "pit_boss"]
    assert made["status"] == "invited"
    assert made["link_valid_for"] == "7 days"
    assert len(mail.outbox) == 1
    listed = api.get(PEOPLE, {"status": "invited"}).json()
    assert [p["username"] for p in listed["results"]] == ["paula"]
    assert api.get(f"{PEOPLE}{made['id']}/").json()["email"] == "paula@casino.example"


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"username": "x", "email": "x@x.example", "roles": []}, 400, "roles"),
        ({"username": "x", "email": "x@x.example", "roles": ["croupier"]}, 400, "roles.0"),
        ({"username": "x", "email": "x@x.example"}, 400, "roles"),
        ({"username": "tina", "email": "x@x.example", "roles": ["trainee"]}, 409, "username"),
        ({"username": "x", "email": "x@x.example", "roles": ["trainee"], "admin": 1}, 400, None),
    ],
)
def test_a_bad_person_is_refused_naming_the_field(api, trainee, body, status, field):
    response = api.post(PEOPLE, body, format="json")
    assert response.status_code == status, response.json()
    if field:
        assert response.json()["field"] == field
    assert not get_user_model().objects.filter(username="x").exists()


def test_roles_close_open_unlock_and_invitation(api, trainee, django_capture_on_commit_callbacks):
    url = f"{PEOPLE}{trainee.pk}/"
    response = api.put(url + "roles", {"roles": ["trainee", "compliance"]}, format="json")
    assert response.json()["roles"] == ["trainee", "compliance"]
    assert api.post(url + "close").json()["status"] == "closed"
    assert api.post(url + "close").status_code == 409
    assert api.post(url + "open").json()["status"] == "active"
    assert api.post(url + "unlock").json()["code"] == "not_locked"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "tina", "password": "wrong"})
    assert api.get(url).json()["status"] == "locked"
    assert api.get(url).json()["locked_until"]
    assert api.post(url + "unlock").json()["status"] == "active"
    assert lockout_state("tina") is None
    assert api.post(url + "invitation").json()["code"] == "has_password"
    trainee.set_unusable_password()
    trainee.email = "tina@x.example"
    trainee.save()
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(url + "invitation").status_code == 200
    assert len(mail.outbox) == 1
    kinds = set(LedgerEntry.objects.values_list("event", flat=True))
    assert {
        Event.PERSON_ROLES_CHANGED,
        Event.PERSON_DEACTIVATED,
        Event.PERSON_REACTIVATED,
        Event.PERSON_UNLOCKED,
        Event.PERSON_INVITATION_RESENT,
    } <= kinds


def test_an_admin_on_themselves_is_refused_in_the_api(api, ada):
    url = f"{PEOPLE}{ada.pk}/"
    response = api.put(url + "roles", {"roles": ["pit_boss"]}, format="json")
    assert response.status_code == 403
    assert "their own administrator role" in response.json()["error"]
    assert api.post(url + "close").status_code == 403
    assert api.post(url + "unlock").status_code == 403
    ada = fresh(ada)
    assert ada.is_active
    assert Role.ADMIN in roles_of(ada)


def test_the_last_administrator_is_kept_in_the_api(ada):
    ben = UserFactory(username="ben", roles=["admin"])
    assert as_user(ada).post(f"{PEOPLE}{ben.pk}/close").status_code == 200
    response = as_user(ben).put(f"{PEOPLE}{ada.pk}/roles", {"roles": ["trainee"]}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "last_administrator"


def test_instructors_are_chosen_in_the_api(api, morning, pit_boss, trainee):
    sam = UserFactory(username="sam", roles=["pit_boss"])
    url = f"/api/classes/{morning.pk}/instructors/"
    response = api.post(url, {"username": "SAM"}, format="json")
    assert response.status_code == 201, response.json()
    assert {i["username"] for i in response.json()["instructors"]} == {"boss", "sam"}
    assert api.post(url, {"username": "sam"}, format="json").status_code == 409
    assert api.post(url, {"username": "tina"}, format="json").status_code == 404
    assert api.delete(f"{url}{pit_boss.pk}/").status_code == 204
    assert list(morning.instructors.all()) == [sam]
    assert api.delete(f"{url}{pit_boss.pk}/").status_code == 404


@pytest.mark.parametrize("who", ["trainee", "pit_boss", "compliance_officer"])
def test_nobody_but_an_admin_uses_the_administration_api(request, who, morning, other_trainee):
    actor = request.getfixturevalue(who)
    client = as_user(actor)
    before = LedgerEntry.objects.count()
    calls = [
        ("get", PEOPLE, None),
        ("post", PEOPLE, {"username": "z", "email": "z@z.example", "roles": ["admin"]}),
        ("put", f"{PEOPLE}{actor.pk}/roles", {"roles": ["admin"]}),
        ("post", f"{PEOPLE}{other_trainee.pk}/close", None),
        ("post", f"{PEOPLE}{other_trainee.pk}/unlock", None),
        ("post", f"/api/classes/{morning.pk}/instructors/", {"username": actor.username}),
    ]
    for method, url, body in calls:
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 403, url
    assert LedgerEntry.objects.count() == before
    assert Role.ADMIN not in roles_of(fresh(actor))
    assert fresh(other_trainee).is_active


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"role": "croupier"}, "role"),
        ({"status": "asleep"}, "status"),
        ({"q": "x" * 101}, "q"),
        ({"q": "a\x00b"}, "q"),
        ({"page": "0"}, "page"),
        ({"sort": "name"}, "sort"),
    ],
)
def test_the_people_list_refuses_bad_filters_naming_them(api, query, field):
    response = api.get(PEOPLE, query)
    assert response.status_code == 400
    assert response.json()["field"] == field
