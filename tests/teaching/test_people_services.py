"""People through their services (issue #24): an administrator creates an account with its
roles, changes roles, closes and opens an account, clears a lockout and sends the
invitation again; nobody else may, nobody does it to themselves, the last administrator
stays; every change is in the ledger, and the link works for days."""

from __future__ import annotations

import re
from datetime import timedelta
from unittest import mock

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, ProductError
from core.lockout import lockout_state
from core.roles import Role, roles_of
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services import people
from tests.audit.factories import TrainingClassFactory
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

BASE = "http://testserver"
NEW_PASSWORD = "a-long-new-password-42"


def events(name: str) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(event=name).order_by("sequence"))


@pytest.fixture
def ada(db):
    """An administrator by role only (not a superuser)."""
    return UserFactory(username="ada", roles=["admin"], is_staff=True)


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


def lock_out(username: str) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": username, "password": "wrong-guess"})


def signs_in(username: str) -> int:
    response = Client().post("/accounts/login/", {"username": username, "password": PASSWORD})
    return response.status_code


# Creating a person.


def test_an_admin_creates_a_pit_boss_whose_link_works_for_seven_days(
    ada, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        made = people.person_create(
            actor=ada,
            username=" Paula ",
            email="paula@casino.example",
            first_name="Paula",
            last_name="Pit",
            roles=["pit_boss"],
            link_base=BASE,
        )
    made = fresh(made)
    assert made.username == "Paula"
    assert roles_of(made) == {Role.PIT_BOSS}
    assert not made.has_usable_password()
    assert not made.is_staff
    [entry] = events(Event.PERSON_CREATED)
    assert entry.actor_id == ada.pk
    assert entry.payload == {
        "username": "Paula",
        "email": "paula@casino.example",
        "roles": ["pit_boss"],
    }
    [message] = mail.outbox
    assert message.subject == "Shoe School: your account"
    assert "(pit boss)" in message.body
    assert "within 7 days" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    # Read the next morning, the link still works (it lasted 60 minutes before issue #24).
    client = Client()
    later = timezone.now() + timedelta(days=6, hours=20)
    with mock.patch("django.contrib.auth.tokens.PasswordResetTokenGenerator._now") as now:
        now.return_value = later.replace(tzinfo=None)
        page = client.get(link, follow=True)
        assert "Choose a new password" in page.content.decode()
        form_url = page.redirect_chain[-1][0]
        client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert fresh(made).check_password(NEW_PASSWORD)


def test_an_administrator_made_by_an_admin_is_staff(ada):
    made = people.person_create(
        actor=ada, username="bo", email="bo@x.example", roles=["admin"], link_base=BASE
    )
    assert fresh(made).is_staff
    assert roles_of(fresh(made)) == {Role.ADMIN}


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"roles": []}, "roles", "choose at least one role"),
        ({"roles": ["croupier"]}, "roles", "'croupier' is not a role"),
        ({"username": "a b"}, "username", "is not a username"),
        ({"email": "nowhere"}, "email", "is not an e-mail address"),
        ({"username": "TINA"}, "username", "is taken"),
        ({"email": "Tina@Casino.example"}, "email", "another account already has"),
    ],
)
def test_a_person_with_something_wrong_is_refused_at_the_field(ada, trainee, fields, field, words):
    trainee.email = "tina@casino.example"
    trainee.save()
    given = {"username": "newbie", "email": "newbie@casino.example", "roles": ["trainee"]}
    before = get_user_model().objects.count()
    with pytest.raises(ProductError) as refused:
        people.person_create(actor=ada, link_base=BASE, **{**given, **fields})
    assert refused.value.field == field
    assert words in refused.value.message
    assert get_user_model().objects.count() == before
    assert not mail.outbox
    assert not events(Event.PERSON_CREATED)


@pytest.mark.parametrize("who", ["trainee", "pit_boss", "compliance_officer"])
def test_nobody_but_an_admin_creates_a_person(request, who):
    actor = request.getfixturevalue(who)
    with pytest.raises(ForbiddenError):
        people.person_create(
            actor=actor, username="x", email="x@x.example", roles=["admin"], link_base=BASE
        )


# Roles.


def test_an_admin_changes_roles_and_the_ledger_says_from_what(ada, trainee):
    people.person_roles_set(actor=ada, person=trainee, roles=["trainee", "pit_boss"])
    assert roles_of(fresh(trainee)) == {Role.TRAINEE, Role.PIT_BOSS}
    [entry] = events(Event.PERSON_ROLES_CHANGED)
    assert entry.payload == {"username": "tina", "from": ["trainee"], "to": ["pit_boss", "trainee"]}
    # The same roles again change nothing and record nothing.
    people.person_roles_set(actor=ada, person=fresh(trainee), roles=["pit_boss", "trainee"])
    assert len(events(Event.PERSON_ROLES_CHANGED)) == 1


def test_an_admin_cannot_take_away_their_own_administrator_role(ada, admin_user):
    with pytest.raises(ForbiddenError, match="their own administrator role"):
        people.person_roles_set(actor=ada, person=ada, roles=["pit_boss"])
    assert Role.ADMIN in roles_of(fresh(ada))
    # Adding a role to oneself, keeping the administrator's, is allowed.
    people.person_roles_set(actor=ada, person=ada, roles=["admin", "pit_boss"])


def test_a_superuser_who_loses_the_role_loses_superuser_and_staff(ada, admin_user):
    people.person_roles_set(actor=ada, person=admin_user, roles=["compliance"])
    root = fresh(admin_user)
    assert roles_of(root) == {Role.COMPLIANCE}
    assert not root.is_superuser
    assert not root.is_staff


def test_the_last_active_administrator_keeps_the_role_and_the_account(ada):
    """Two administrators taking the role from each other at once: the second finds the
    other is the last active one (here: ben, closed by ada in between, still holds the
    role on the request he sent)."""
    ben = UserFactory(username="ben", roles=["admin"])
    people.person_deactivate(actor=ada, person=ben)
    with pytest.raises(ConflictError) as refused:
        people.person_roles_set(actor=ben, person=ada, roles=["trainee"])
    assert refused.value.code == "last_administrator"
    assert "last active administrator" in refused.value.message
    with pytest.raises(ConflictError) as refused:
        people.person_deactivate(actor=ben, person=ada)
    assert refused.value.code == "last_administrator"
    ada = fresh(ada)
    assert ada.is_active
    assert Role.ADMIN in roles_of(ada)


def test_the_pit_boss_role_is_kept_while_they_teach_a_class(ada, pit_boss):
    TrainingClassFactory(name="Morning", instructors=[pit_boss])
    with pytest.raises(ConflictError, match="still teaches Morning"):
        people.person_roles_set(actor=ada, person=pit_boss, roles=["trainee"])
    assert Role.PIT_BOSS in roles_of(fresh(pit_boss))


@pytest.mark.parametrize("who", ["trainee", "pit_boss", "compliance_officer"])
def test_nobody_but_an_admin_changes_roles(request, who, trainee):
    actor = request.getfixturevalue(who)
    with pytest.raises(ForbiddenError):
        people.person_roles_set(actor=actor, person=actor, roles=["admin"])
    assert Role.ADMIN not in roles_of(fresh(actor))


# Closing and opening an account.


def test_a_closed_account_cannot_sign_in_and_its_session_ends(ada, trainee):
    client = Client()
    client.force_login(trainee)
    assert client.get("/train/").status_code == 200
    people.person_deactivate(actor=ada, person=trainee)
    assert client.get("/train/").status_code == 302  # to the login page
    assert signs_in("tina") == 200  # the login page again: refused
    [entry] = events(Event.PERSON_DEACTIVATED)
    assert entry.payload == {"username": "tina"}
    with pytest.raises(ConflictError, match="already closed"):
        people.person_deactivate(actor=ada, person=trainee)
    people.person_reactivate(actor=ada, person=trainee)
    assert signs_in("tina") == 302
    assert len(events(Event.PERSON_REACTIVATED)) == 1


def test_an_admin_cannot_close_their_own_account(ada, admin_user):
    with pytest.raises(ForbiddenError, match="their own account"):
        people.person_deactivate(actor=ada, person=ada)
    assert fresh(ada).is_active


# Unlocking.


def test_an_admin_unlocks_a_locked_account_and_it_signs_in_at_once(ada, trainee):
    lock_out("tina")
    assert lockout_state("TINA") is not None
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": "tina", "password": PASSWORD}).status_code
        == 429
    )
    cleared = people.person_unlock(actor=ada, person=trainee)
    assert cleared == settings.AXES_FAILURE_LIMIT
    assert lockout_state("tina") is None
    assert not AccessAttempt.objects.exists()
    response = client.post("/accounts/login/", {"username": "tina", "password": PASSWORD})
    assert response.status_code == 302
    [entry] = events(Event.PERSON_UNLOCKED)
    assert entry.payload == {"username": "tina", "failures": settings.AXES_FAILURE_LIMIT}
    with pytest.raises(ConflictError, match="not locked out"):
        people.person_unlock(actor=ada, person=trainee)


def test_nobody_unlocks_themselves_nor_does_a_pit_boss_unlock_anyone(ada, pit_boss, trainee):
    lock_out("ada")
    lock_out("tina")
    with pytest.raises(ForbiddenError, match="unlocks their own"):
        people.person_unlock(actor=ada, person=ada)
    with pytest.raises(ForbiddenError):
        people.person_unlock(actor=pit_boss, person=trainee)
    assert lockout_state("ada") is not None
    assert lockout_state("tina") is not None
    assert not events(Event.PERSON_UNLOCKED)


# The invitation again.


def test_an_admin_sends_the_invitation_again_to_anyone_without_a_password(
    ada, django_capture_on_commit_callbacks
):
    made = people.person_create(
        actor=ada, username="cc", email="cc@x.example", roles=["compliance"], link_base=BASE
    )
    with django_capture_on_commit_callbacks(execute=True):
        people.person_invitation_resend(actor=ada, person=fresh(made), link_base=BASE)
    [message] = mail.outbox
    assert "within 7 days" in message.body
    assert len(events(Event.PERSON_INVITATION_RESENT)) == 1


def test_the_invitation_again_is_refused_once_a_password_is_chosen(ada, trainee, pit_boss):
    with pytest.raises(ConflictError, match="chosen a password already"):
        people.person_invitation_resend(actor=ada, person=trainee, link_base=BASE)
    trainee.set_unusable_password()
    trainee.email = "tina@x.example"
    trainee.save()
    with pytest.raises(ForbiddenError):
        people.person_invitation_resend(actor=pit_boss, person=trainee, link_base=BASE)
    assert not mail.outbox


def test_a_trainee_who_is_also_a_pit_boss_does_not_teach_their_own_class(ada, pit_boss):
    from teaching.services.classes import class_instructor_add

    both = UserFactory(username="both", roles=["trainee", "pit_boss"])
    morning = TrainingClassFactory(name="Morning", trainees=[both], instructors=[pit_boss])
    with pytest.raises(ConflictError) as refused:
        class_instructor_add(actor=ada, training_class=morning, instructor=both)
    assert refused.value.code == "trainee_of_class"
    assert both not in morning.instructors.all()
