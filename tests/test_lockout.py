"""Password guessing: the login page and the API's basic authentication lock a username from
one address after too many wrong passwords (django-axes), and say so. What others cannot do
with it (lock someone out from elsewhere) is in tests/test_lockout_others.py."""

import base64
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
WRONG = "wrong-guess"


def guess(client: Client, username: str, password: str = WRONG):
    return client.post(LOGIN, {"username": username, "password": password})


def basic(username: str, password: str) -> APIClient:
    client = APIClient()
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    return client


def test_thirty_wrong_passwords_then_the_right_one_does_not_log_in(client, trainee):
    for _ in range(30):
        guess(client, "tina")
    response = guess(client, "tina", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get("/").status_code == 302


def test_the_account_locks_at_the_limit_and_not_before(client, trainee):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert guess(client, "tina").status_code == 200
    assert guess(client, "tina", PASSWORD).status_code == 302


def test_the_locked_page_says_why_and_how_long_in_the_sites_own_page(client, trainee):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = guess(client, "tina")
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many wrong passwords" in html
    assert f"{settings.SHOESCHOOL_LOGIN_COOLOFF_MINUTES} minutes" in html
    assert "ask your pit boss or an administrator" in html
    assert "Shoe School" in html  # the base template, not a bare message
    assert 'href="/accounts/login/"' in html


def test_a_proxys_forwarded_address_is_used_when_a_proxy_is_configured(trainee, settings):
    settings.SHOESCHOOL_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.254"}
    guesser = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        guess(guesser, "tina")
    assert guess(guesser, "tina", PASSWORD).status_code == 429
    from axes.models import AccessAttempt

    # Past the delay the username's own count asks of everyone, only the pair is locked.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(seconds=61))
    # Another client behind the same proxy is not the guesser, even claiming its address:
    # the proxy appends the address it saw, and that one is used.
    client = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.5, 198.51.100.7")
    assert guess(client, "tina", PASSWORD).status_code == 302
    addresses = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    assert addresses == {"203.0.113.5"}


def test_the_admin_login_counts_towards_the_same_lockout(client, admin_user):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "root", "password": "nope"})
    response = guess(client, "root", PASSWORD)
    assert response.status_code == 429


# The API's basic authentication.


def test_basic_auth_failures_count_and_a_locked_user_is_refused_with_the_wait(trainee):
    statuses = [basic("tina", "wrong-guess").get("/api/attempts/").status_code for _ in range(30)]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses == [403] * (limit - 1) + [429] * (30 - limit + 1)
    response = basic("tina", PASSWORD).get("/api/attempts/")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert "Too many wrong passwords" in body["error"]
    # The cool-off counts from the last wrong password: what is left of it, a few seconds
    # gone on a busy machine.
    minutes = settings.SHOESCHOOL_LOGIN_COOLOFF_MINUTES
    assert minutes * 60 - 60 < int(response["Retry-After"]) <= minutes * 60


def test_basic_auth_guesses_lock_the_login_page_too(client, trainee):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        basic("tina", "wrong-guess").get("/api/attempts/")
    assert guess(client, "tina", PASSWORD).status_code == 429


def test_basic_auth_under_the_limit_still_works(trainee):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        basic("tina", "wrong-guess").get("/api/attempts/")
    assert basic("tina", PASSWORD).get("/api/attempts/").status_code == 200


def test_the_lock_lifts_after_the_cool_off(client, trainee):
    from axes.models import AccessAttempt
    from django.utils import timezone

    for _ in range(settings.AXES_FAILURE_LIMIT):
        guess(client, "tina")
    assert guess(client, "tina", PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timezone.timedelta(seconds=1)
    )
    assert guess(client, "tina", PASSWORD).status_code == 302


def test_an_administrator_unlocks_an_account_in_the_admin(client, trainee, admin_user):
    from axes.models import AccessAttempt

    for _ in range(settings.AXES_FAILURE_LIMIT):
        guess(Client(REMOTE_ADDR="10.0.0.3"), "tina")
    admin = Client()
    admin.force_login(admin_user)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200
    assert b"tina" in listing.content
    attempt = AccessAttempt.objects.get(username="tina")
    response = admin.post(
        f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"}, follow=True
    )
    assert response.status_code == 200
    assert guess(Client(REMOTE_ADDR="10.0.0.3"), "tina", PASSWORD).status_code == 302


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "position=1&answer=hit"),
        ("application/json", '{"position": 1, "answer": {"answer": "hit"}}'),
        ("multipart/form-data", "position=1"),  # no boundary: a malformed body
    ],
)
def test_a_wrong_basic_password_is_refused_before_the_body_is_read(trainee, content_type, body):
    # The lockout records a failed login's form fields: it must not parse the API's body
    # (a form body answered 415, naming the body, before the wrong password's 403).
    response = basic("tina", "wrong-guess").generic(
        "POST", "/api/attempts/", body, content_type=content_type
    )
    assert response.status_code == 403
    assert response.json()["code"] == "authentication_failed"


@pytest.mark.parametrize(("username", "password"), [("ti\x00na", PASSWORD), ("tina", "a\x00b")])
def test_a_nul_byte_in_basic_credentials_is_a_wrong_password(trainee, username, password):
    # Found by the schema fuzz: PostgreSQL refused the lookup with a 500.
    response = basic(username, password).get("/api/attempts/")
    assert response.status_code == 403
    assert response.json()["code"] == "authentication_failed"
