"""Second pass of issue #23: the username rule's two loose ends. Django's createsuperuser
with a case or width variant of an existing username ended in a traceback (the LOWER
index's IntegrityError); two invitations racing with one name in two spellings answered a
500 instead of a 409. Both now refuse clearly and write nothing."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from core.errors import ConflictError
from ledger.models import LedgerEntry
from teaching.services import classes as services
from teaching.services.classes import invitations, roster
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
BASE = "http://testserver"


def users() -> int:
    return get_user_model().objects.count()


@pytest.mark.parametrize("name", ["Admin", "ADMIN", "ａｄｍｉｎ"])
def test_createsuperuser_refuses_a_variant_of_a_taken_username(name, monkeypatch):
    UserFactory(username="admin", roles=["admin"])
    before = users()
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-enough-passphrase-7")
    with pytest.raises(CommandError, match="already taken"):
        call_command(
            "createsuperuser",
            "--noinput",
            username=name,
            email="boss@example.com",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    assert users() == before


def test_createsuperuser_still_makes_a_new_one(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-enough-passphrase-7")
    call_command(
        "createsuperuser", "--noinput", username="Root", email="r@example.com", stdout=io.StringIO()
    )
    assert get_user_model().objects.get(username="Root").is_superuser


@pytest.fixture
def morning(pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[], instructors=[pit_boss])


@pytest.fixture
def lost_race(monkeypatch):
    """The other invitation's account is written after this one's check ran: the check
    sees no account, the database's index sees it."""
    monkeypatch.setattr(invitations, "username_taken", lambda *a, **k: False)
    monkeypatch.setattr(
        roster, "users_with_username", lambda *a, **k: get_user_model().objects.none()
    )
    return UserFactory(username="Tina", roles=["trainee"])


def test_an_invitation_that_loses_the_race_is_a_409_and_writes_nothing(
    pit_boss, morning, lost_race
):
    before, entries = users(), LedgerEntry.objects.count()
    with pytest.raises(ConflictError) as refused:
        services.trainee_invite(
            actor=pit_boss,
            username="tina",
            email="tina2@example.com",
            link_base=BASE,
            training_class=morning,
        )
    assert refused.value.field == "username"
    assert (users(), LedgerEntry.objects.count()) == (before, entries)
    assert not morning.trainees.exists()


def test_the_api_answers_the_race_with_a_json_409(pit_boss, morning, lost_race):
    client = APIClient()
    client.force_authenticate(pit_boss)
    before = users()
    response = client.post(
        f"/api/classes/{morning.pk}/invitations/",
        {"username": "TINA", "email": "tina2@example.com"},
        format="json",
    )
    assert response.status_code == 409, response.content
    assert response.json()["field"] == "username"
    assert users() == before


def test_a_roster_that_loses_the_race_writes_nothing(pit_boss, morning, lost_race):
    before, entries = users(), LedgerEntry.objects.count()
    rows = [
        (2, {"username": "zoe", "email": "zoe@example.com", "class": "Morning"}),
        (3, {"username": "tina", "email": "tina2@example.com", "class": "Morning"}),
    ]
    with pytest.raises(ConflictError):
        services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert (users(), LedgerEntry.objects.count()) == (before, entries)
    assert not morning.trainees.exists()
