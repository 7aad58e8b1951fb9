"""Usernames are one normal form (NFKC) compared ignoring case, at every door (issue #23,
finding 8): an invitation, a roster, a class's "add a trainee", the admin's user forms,
the API, signing in and the lockout's count, with a unique index underneath."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from core.errors import ConflictError
from core.usernames import (
    duplicate_usernames,
    lockout_username,
    username_key,
    username_normal,
    users_with_username,
)
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.selectors.classes import trainee_by_username
from teaching.services import classes as services
from tests.audit.factories import TrainingClassFactory
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

FULL_WIDTH_TINA = "ＴＩＮＡ"  # full-width capitals: NFKC makes them "TINA"
FULL_WIDTH_tina = "ｔｉｎａ"  # full-width small letters: NFKC makes them "tina" exactly
BASE = "http://testserver"


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[], instructors=[pit_boss])


def users() -> int:
    return get_user_model().objects.count()


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# The normal form and the key.


@pytest.mark.parametrize(
    ("raw", "normal", "key"),
    [
        ("ＴＲＡＩＮＥＥ", "TRAINEE", "trainee"),
        ("  Tina ", "Tina", "tina"),
        ("ﬁona", "fiona", "fiona"),  # the ligature fi
        ("Élise", "Élise", "élise"),
        (None, "", ""),
        (12, "", ""),
    ],
)
def test_the_normal_form_is_nfkc_and_the_key_its_lower_case(raw, normal, key):
    assert username_normal(raw) == normal
    assert username_key(raw) == key


def test_a_lookup_finds_every_spelling_of_one_account(trainee):
    for spelling in ("tina", "Tina", "TINA", FULL_WIDTH_TINA, FULL_WIDTH_tina, " tina "):
        assert list(users_with_username(spelling)) == [trainee], spelling
    assert not users_with_username("tin").exists()
    assert not users_with_username("").exists()


def test_a_lookup_folds_letters_beyond_ascii_on_either_database():
    elise = UserFactory(username="élise")
    assert list(users_with_username("ÉLISE")) == [elise]


# The database.


def test_the_database_refuses_a_second_account_differing_only_in_case(trainee):
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create(username="TINA")
    # Django's own create_user normalises (NFKC): the full-width name is TINA too.
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username=FULL_WIDTH_TINA)
    assert users_with_username("tina").count() == 1


def test_the_index_is_on_lower_username():
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "auth_user")
    assert indexes["auth_user_username_lower_uniq"]["unique"]


class _Editor:
    """What the migration's function uses of a schema editor, inside the test's transaction
    (SQLite's own editor cannot open inside one)."""

    quote_name = staticmethod(connection.ops.quote_name)

    def execute(self, sql: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql)


def test_the_migration_names_accounts_that_differ_only_in_case_and_stops():
    from django.apps import apps

    migration = importlib.import_module("core.migrations.0002_username_unique_ignoring_case")
    migration.drop_index(apps, _Editor())
    first = UserFactory(username="tina")
    second = UserFactory(username="Tina")
    with pytest.raises(RuntimeError) as refused:
        migration.add_index(apps, _Editor())
    message = str(refused.value)
    assert f"'tina' (id {first.pk}) and 'Tina' (id {second.pk})" in message
    assert "Rename all but one account" in message
    second.username = "tina2"
    second.save()
    migration.add_index(apps, _Editor())
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create(username="TINA")


def test_duplicate_groups_are_found_by_key():
    assert duplicate_usernames(["tina", "otto", "TINA", "ｔｉｎａ", "Otto ", "kim"]) == [
        ["Otto ", "otto"],
        ["TINA", "tina", "ｔｉｎａ"],
    ]


# An invitation.


@pytest.mark.parametrize("spelling", [FULL_WIDTH_TINA, FULL_WIDTH_tina, "Tina", " TINA "])
def test_an_invitation_for_a_variant_of_a_taken_username_is_refused(pit_boss, trainee, spelling):
    before, ledger = users(), LedgerEntry.objects.count()
    with pytest.raises(ConflictError) as refused:
        services.trainee_invite(
            actor=pit_boss, username=spelling, email="new@casino.example", link_base=BASE
        )
    assert refused.value.field == "username"
    assert users() == before
    assert LedgerEntry.objects.count() == ledger


def test_an_invitation_stores_the_normal_form(pit_boss):
    made = services.trainee_invite(
        actor=pit_boss, username="ＪＤＯＥ", email="j@casino.example", link_base=BASE
    )
    assert made.username == "JDOE"
    entry = LedgerEntry.objects.filter(event=Event.TRAINEE_INVITED).latest("sequence")
    assert entry.payload["username"] == "JDOE"


@pytest.mark.parametrize("spelling", [FULL_WIDTH_TINA, FULL_WIDTH_tina])
def test_the_api_invitation_answers_a_json_409_not_a_500(pit_boss, trainee, morning, spelling):
    before = users()
    response = api(pit_boss).post(
        f"/api/classes/{morning.pk}/invitations/",
        {"username": spelling, "email": "new@casino.example"},
        format="json",
    )
    assert response.status_code == 409
    assert response["Content-Type"] == "application/json"
    assert response.json()["field"] == "username"
    assert users() == before


def test_the_invite_page_refuses_a_full_width_duplicate(client, pit_boss, trainee, morning):
    client.force_login(pit_boss)
    before = users()
    response = client.post(
        f"/teach/classes/{morning.pk}/trainees/invite/",
        {"username": FULL_WIDTH_tina, "email": "new@casino.example"},
    )
    assert response.status_code == 400
    assert "is taken" in response.content.decode()
    assert users() == before


def test_the_add_trainee_page_finds_a_full_width_username(client, pit_boss, trainee, morning):
    client.force_login(pit_boss)
    response = client.post(
        f"/teach/classes/{morning.pk}/trainees/add/", {"username": FULL_WIDTH_TINA}
    )
    assert response.status_code == 302
    assert list(morning.trainees.all()) == [trainee]


# A roster.


def test_a_roster_row_with_a_variant_username_is_the_existing_trainee(pit_boss, trainee, morning):
    before = users()
    rows = [
        (
            2,
            {
                "username": FULL_WIDTH_TINA,
                "first_name": "",
                "last_name": "",
                "email": "",
                "class": "Morning",
            },
        )
    ]
    report = services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert report.applied, report.problems
    assert report.invited == []
    assert report.added == ["tina"]
    assert users() == before
    assert list(morning.trainees.all()) == [trainee]


def test_a_roster_naming_one_trainee_twice_in_two_widths_is_refused(pit_boss, morning):
    row = {"first_name": "J", "last_name": "D", "class": "Morning"}
    rows = [
        (2, {**row, "username": "jdoe", "email": "a@casino.example"}),
        (3, {**row, "username": "ＪＤＯＥ", "email": "b@casino.example"}),
    ]
    before = users()
    report = services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert not report.applied
    assert [(p.line, p.column) for p in report.problems] == [(3, "username")]
    assert users() == before


# A class's "add a trainee" (page, API).


def test_adding_a_trainee_finds_them_in_any_case_or_width(trainee):
    for spelling in (FULL_WIDTH_TINA, "Tina", FULL_WIDTH_tina):
        assert trainee_by_username(username=spelling) == trainee


def test_the_api_adds_a_trainee_named_in_full_width(pit_boss, trainee, morning):
    response = api(pit_boss).post(
        f"/api/classes/{morning.pk}/trainees/", {"username": FULL_WIDTH_TINA}, format="json"
    )
    assert response.status_code == 201
    assert [t["username"] for t in response.json()["trainees"]] == ["tina"]


# The admin's user pages: to read (issue #24). Accounts change on the Administration
# pages, whose services compare usernames as every other door does.


def test_the_admin_neither_adds_nor_renames_an_account(client, admin_user, trainee, other_trainee):
    client.force_login(admin_user)
    before = users()
    added = client.post(
        "/admin/auth/user/add/",
        {
            "username": "ＪＤＯＥ",
            "password1": "a-long-new-password-42",
            "password2": "a-long-new-password-42",
            "usable_password": "true",
        },
    )
    assert added.status_code == 403
    renamed = client.post(
        f"/admin/auth/user/{other_trainee.pk}/change/",
        {"username": "Tina", "is_active": "on"},
    )
    assert renamed.status_code == 403
    other_trainee.refresh_from_db()
    assert other_trainee.username == "otto"
    assert users() == before
    # It still shows the account.
    shown = client.get(f"/admin/auth/user/{other_trainee.pk}/change/")
    assert shown.status_code == 200
    assert "otto" in shown.content.decode()


# Signing in, and the lockout's count.


@pytest.mark.parametrize("spelling", ["tina", "Tina", "TINA", FULL_WIDTH_TINA, " tina"])
def test_any_spelling_signs_in_as_the_one_account(trainee, spelling):
    client = Client()
    response = client.post("/accounts/login/", {"username": spelling, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(trainee.pk)


def test_the_api_s_basic_authentication_reads_any_spelling(trainee):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic " + _basic(FULL_WIDTH_TINA, PASSWORD))
    assert client.get("/api/attempts/").status_code == 200


def _basic(username: str, password: str) -> str:
    import base64

    return base64.b64encode(f"{username}:{password}".encode()).decode()


def test_wrong_passwords_in_several_spellings_count_against_one_account(client, trainee):
    for spelling in ("tina", "Tina", "TINA", FULL_WIDTH_TINA, "tINA"):
        client.post("/accounts/login/", {"username": spelling, "password": "wrong-password"})
    response = client.post("/accounts/login/", {"username": "tina", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_counts_by_the_key():
    assert lockout_username(None, {"username": "ＡＤＭＩＮ"}) == "admin"
    assert lockout_username(None, {}) is None
