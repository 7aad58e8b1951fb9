"""Changing and resetting a password (Django's own views, config.accounts): the change is
checked as a login is, so it counts towards the lockout; a reset e-mails a link that sets a
new password, never says whether an address has an account, is throttled, and does not
lift a lockout (docs/security.md)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW = "felt-shoe-rack-4417"
CHANGE = reverse("password_change")
RESET = reverse("password_reset")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def change(client: Client, old: str, new: str = NEW, again: str | None = None):
    return client.post(
        CHANGE, {"old_password": old, "new_password1": new, "new_password2": again or new}
    )


def log_in(username: str, password: str) -> int:
    return Client().post(reverse("login"), {"username": username, "password": password}).status_code


@pytest.fixture
def tina(trainee):
    trainee.email = "tina@casino.example"
    trainee.save()
    return trainee


def test_the_change_form_shows_the_password_rules(trainee):
    html = signed_in(trainee).get(CHANGE).content.decode()
    assert "Change your password" in html
    assert "at least 12 characters" in html
    assert 'aria-describedby="id_new_password1_helptext"' in html
    assert 'id="id_new_password1_helptext"' in html


def test_a_password_is_changed_and_the_user_stays_signed_in(trainee):
    client = signed_in(trainee)
    response = change(client, PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert "Password changed" in client.get(response["Location"]).content.decode()
    assert client.get("/").status_code == 200
    trainee.refresh_from_db()
    assert trainee.check_password(NEW)
    assert log_in("tina", NEW) == 302


def test_a_new_password_must_meet_the_policy(trainee):
    response = change(signed_in(trainee), PASSWORD, new="short-one")
    assert response.status_code == 200
    html = response.content.decode()
    assert "at least 12 characters" in html
    assert 'id="id_new_password2_error"' in html
    trainee.refresh_from_db()
    assert trainee.check_password(PASSWORD)


def test_wrong_current_passwords_count_towards_the_lockout(trainee):
    client = signed_in(trainee)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = change(client, "a-wrong-guess")
        assert response.status_code == 200
    # Locked: the right current password is refused too, and the form says why.
    response = change(client, PASSWORD)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Too many wrong passwords" in html
    assert "Your password was not changed." in html
    trainee.refresh_from_db()
    assert trainee.check_password(PASSWORD)
    # The login page counts the same failures.
    assert log_in("tina", PASSWORD) == 429


def test_changing_needs_a_signed_in_user(client):
    response = client.get(CHANGE)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_login_page_offers_a_reset(client):
    html = client.get(reverse("login")).content.decode()
    assert f'<a href="{RESET}">Forgot your password?</a>' in html


def reset_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_a_reset_mails_a_link_that_sets_a_new_password(client, tina):
    response = client.post(RESET, {"email": "TINA@casino.example"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["tina@casino.example"]
    assert message.subject == "Shoe School: reset your password"
    assert '"tina"' in message.body
    assert "within 7 days" in message.body

    link = reset_link(message)
    page = client.get(link, follow=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Choose a new password" in html
    assert "at least 12 characters" in html  # the rules, shown where the password is chosen
    form_url = page.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    tina.refresh_from_db()
    assert tina.check_password(NEW)
    # Not signed in by the reset; the link works once.
    assert client.get("/").status_code == 302
    again = client.get(link, follow=True).content.decode()
    assert "This link no longer works" in again
    assert log_in("tina", NEW) == 302


def test_a_reset_does_not_say_whether_an_address_has_an_account(client, tina):
    known = client.post(RESET, {"email": "tina@casino.example"})
    unknown = client.post(RESET, {"email": "nobody@casino.example"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1
    html = client.get(known["Location"]).content.decode()
    assert "If an account has that e-mail address" in html


def test_a_reset_does_not_lift_a_lockout(client, tina):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post(reverse("login"), {"username": "tina", "password": "a-wrong-guess"})
    client.post(RESET, {"email": "tina@casino.example"})
    page = client.get(reset_link(mail.outbox[0]), follow=True)
    client.post(page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    tina.refresh_from_db()
    assert tina.check_password(NEW)
    # The lock stands: the new password does not get in until it lifts.
    assert log_in("tina", NEW) == 429


def test_one_address_gets_only_a_few_reset_emails(settings, client, tina):
    settings.SHOESCHOOL_PASSWORD_RESET_EMAIL_LIMIT = 2
    answers = [client.post(RESET, {"email": "tina@casino.example"}) for _ in range(4)]
    # Answered alike every time (the limit says nothing about the account) ...
    assert {a["Location"] for a in answers} == {reverse("password_reset_done")}
    # ... but only the first two were sent.
    assert len(mail.outbox) == 2


def test_one_client_may_ask_only_so_often(settings, tina):
    settings.SHOESCHOOL_PASSWORD_RESET_CLIENT_LIMIT = 3
    client = Client(REMOTE_ADDR="10.1.1.1")
    for number in range(3):
        assert client.post(RESET, {"email": f"x{number}@casino.example"}).status_code == 302
    refused = client.post(RESET, {"email": "tina@casino.example"})
    assert refused.status_code == 429
    assert "Too many password resets" in refused.content.decode()
    assert mail.outbox == []
    # Another address is still served.
    other = Client(REMOTE_ADDR="10.2.2.2").post(RESET, {"email": "tina@casino.example"})
    assert other.status_code == 302
    assert len(mail.outbox) == 1


def test_an_inactive_account_gets_no_reset_email(client):
    UserFactory(username="gone", email="gone@casino.example", is_active=False)
    client.post(RESET, {"email": "gone@casino.example"})
    assert mail.outbox == []


def test_the_admins_password_change_leads_to_the_one_inside_the_lockout(admin_user):
    response = signed_in(admin_user).get("/admin/password_change/")
    assert response.status_code == 302
    assert response["Location"] == CHANGE


# Hashing (config/settings/base.py). The tests hash with MD5 for speed; these use the
# hashers the product runs with.


@pytest.fixture
def product_hashers(settings):
    from config.settings.passwords import PASSWORD_HASHERS

    settings.PASSWORD_HASHERS = PASSWORD_HASHERS
    return PASSWORD_HASHERS


def test_the_product_stores_new_passwords_with_argon2(product_hashers):
    user = UserFactory(username="new-hire")
    user.set_password(NEW)
    user.save()
    assert user.password.startswith("argon2$argon2id$")
    assert log_in("new-hire", NEW) == 302
    assert log_in("new-hire", "wrong-password-1") == 200


def test_an_older_pbkdf2_password_still_signs_in_and_is_stored_again_as_argon2(
    product_hashers,
):
    from django.contrib.auth.hashers import make_password

    user = UserFactory(username="old-hand")
    user.password = make_password(NEW, hasher="pbkdf2_sha256")
    user.save(update_fields=["password"])
    assert log_in("old-hand", "wrong-password-1") == 200
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_sha256$")  # a wrong password changes nothing
    assert log_in("old-hand", NEW) == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    assert log_in("old-hand", NEW) == 302
