"""The password policy: at least 12 characters, not a common password, not all digits, not
like the user's own name (docs/security.md)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.factories import PASSWORD, UserFactory


def refusals(password: str, user=None) -> list[str]:
    try:
        validate_password(password, user)
    except ValidationError as error:
        return list(error.messages)
    return []


def test_eleven_characters_are_too_few_and_twelve_enough():
    assert any("at least 12 characters" in m for m in refusals("tq8-vbz-k2wx"[:11]))
    assert refusals("tq8-vbz-k2wx") == []


@pytest.mark.parametrize(
    "password", ["password1234", "qwertyuiop123", "1q2w3e4r5t6y", "486025913774"]
)
def test_common_or_numeric_passwords_are_refused(password):
    assert refusals(password)


@pytest.mark.django_db
def test_a_password_like_the_users_name_is_refused():
    user = UserFactory(username="bartholomew.dealer", first_name="Bartholomew")
    assert any("too similar" in m for m in refusals("bartholomew.dealer1", user))


def test_the_test_and_demo_passwords_meet_the_policy():
    assert refusals(PASSWORD) == []
    assert refusals(DEMO_PASSWORD) == []


@pytest.mark.django_db
def test_the_admin_gives_no_account_a_password(admin_user, client):
    # A new account chooses its own password from the e-mailed link (the Administration
    # pages); the admin's user pages only show accounts.
    client.force_login(admin_user)
    response = client.post(
        "/admin/auth/user/add/",
        {"username": "newdealer", "password1": "short-pw1", "password2": "short-pw1"},
    )
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="newdealer").exists()
