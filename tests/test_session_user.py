"""A request's session and its user are read in one query (config.session_store, core.auth),
and the user it acts as is still the one its signed session data names: the user id beside
the data is only where to look.

As an insider who edits the session table would try it, and as a person whose account
changes between two requests (a role taken away, deactivated, the password changed).
"""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.auth import session_being_read
from core.models import Session
from core.roles import Role
from tests.factories import UserFactory
from tests.graded import client_for as signed_in

pytestmark = pytest.mark.django_db

PAGE = "/train/"


def user_reads(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if '"auth_user"' in q["sql"]]


def test_the_session_row_names_its_user_and_one_query_reads_both(trainee):
    client = signed_in(trainee)
    [row] = Session.objects.all()
    assert row.user_id == trainee.pk
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    assert response.status_code == 200
    assert response.context["user"] == trainee
    [read] = user_reads(queries)
    assert read.startswith("SELECT s.session_data")
    # Nothing is left for the next request to take.
    assert session_being_read.get() is None


def test_signing_out_deletes_the_row_and_the_next_request_is_anonymous(trainee):
    client = signed_in(trainee)
    client.post("/accounts/logout/")
    assert not Session.objects.exists()
    assert client.get(PAGE).status_code == 302


def test_an_insider_pointing_the_row_at_another_user_changes_nobody(trainee, pit_boss):
    client = signed_in(trainee)
    Session.objects.update(user_id=pit_boss.pk)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    # Still the trainee, the user the signed data names, read on its own.
    assert response.status_code == 200
    assert response.context["user"] == trainee
    assert len(user_reads(queries)) == 2
    assert client.get("/pit/").status_code == 403


def test_an_insider_editing_the_data_signs_the_session_out(trainee, pit_boss):
    client = signed_in(trainee)
    Session.objects.update(session_data="forged", user_id=pit_boss.pk)
    assert client.get(PAGE).status_code == 302


def test_a_row_without_its_user_reads_the_user_apart(trainee):
    client = signed_in(trainee)
    Session.objects.update(user_id=None)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    assert response.context["user"] == trainee
    assert len(user_reads(queries)) == 2


def test_a_role_taken_away_holds_from_the_next_request(pit_boss):
    client = signed_in(pit_boss)
    assert client.get("/pit/").status_code == 200
    pit_boss.groups.remove(Group.objects.get(name=Role.PIT_BOSS.value))
    assert client.get("/pit/").status_code == 403


def test_a_deactivated_account_is_signed_out_at_its_next_request(trainee):
    client = signed_in(trainee)
    trainee.is_active = False
    trainee.save()
    assert client.get(PAGE).status_code == 302


def test_a_password_changed_elsewhere_signs_this_session_out(trainee):
    client = signed_in(trainee)
    trainee.set_password("a-new-one-entirely-7")
    trainee.save()
    assert client.get(PAGE).status_code == 302
    assert client.get(PAGE).status_code == 302


def test_two_people_signed_in_each_read_as_themselves():
    tina = UserFactory(username="tina2", roles=[Role.TRAINEE.value])
    tom = UserFactory(username="tom2", roles=[Role.TRAINEE.value])
    tina_client, tom_client = signed_in(tina), signed_in(tom)
    for _ in range(2):
        assert tina_client.get(PAGE).context["user"] == tina
        assert tom_client.get(PAGE).context["user"] == tom
