import pytest
from django.contrib.auth.models import Group

from tests.factories import PASSWORD


@pytest.mark.django_db
def test_the_migration_creates_the_four_role_groups():
    names = set(Group.objects.values_list("name", flat=True))
    assert {"trainee", "pit_boss", "compliance", "admin"} <= names


@pytest.mark.django_db
def test_the_login_page_logs_a_user_in_and_out(client, trainee):
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert b'name="csrfmiddlewaretoken"' in page.content
    response = client.post("/accounts/login/", {"username": "tina", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/").status_code == 302


@pytest.mark.django_db
def test_a_wrong_password_is_refused_with_a_message(client, trainee):
    response = client.post("/accounts/login/", {"username": "tina", "password": "nope"})
    assert response.status_code == 200
    assert b"do not match" in response.content


@pytest.mark.django_db
def test_anonymous_users_are_sent_to_log_in(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
