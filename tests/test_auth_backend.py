"""core.auth: the signed-in user and their roles, read in one query on every request."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.auth import RolesModelBackend
from core.roles import Role, roles_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_user_comes_with_every_role_their_groups_give_in_one_query():
    user = UserFactory(roles=["pit_boss", "compliance"])
    with CaptureQueriesContext(connection) as queries:
        found = RolesModelBackend().get_user(user.pk)
        roles = roles_of(found)
    assert len(queries.captured_queries) == 1
    assert found == user
    assert roles == {Role.PIT_BOSS, Role.COMPLIANCE}


def test_a_user_without_groups_has_no_role_and_a_superuser_is_an_administrator():
    plain = UserFactory()
    assert roles_of(RolesModelBackend().get_user(plain.pk)) == frozenset()
    plain.is_superuser = True
    plain.save()
    assert roles_of(RolesModelBackend().get_user(plain.pk)) == {Role.ADMIN}


def test_an_inactive_or_missing_user_is_nobody():
    user = UserFactory(roles=["trainee"], is_active=False)
    assert RolesModelBackend().get_user(user.pk) is None
    assert RolesModelBackend().get_user(10**9) is None


def test_a_role_taken_away_holds_from_the_next_request():
    boss = UserFactory(roles=["pit_boss"])
    client = Client()
    client.force_login(boss)
    assert client.session["_auth_user_backend"] == "core.auth.RolesModelBackend"
    assert client.get(reverse("pit:dashboard")).status_code == 200
    boss.groups.remove(Group.objects.get(name="pit_boss"))
    assert client.get(reverse("pit:dashboard")).status_code == 403
