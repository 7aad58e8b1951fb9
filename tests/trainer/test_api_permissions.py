"""Who may use the trainee API: trainees on their own attempts; no other role; no one
signed out. Session requests need a CSRF token; basic authentication needs none."""

import base64

import pytest
from rest_framework.test import APIClient

from tests.factories import PASSWORD
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Attempt, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt(trainee):
    drill = DrillFactory(documents=[natural_document()])
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def endpoints(attempt):
    """(method, url, body) for every endpoint; the body is valid for the attempt's owner."""
    url = f"/api/attempts/{attempt.pk}"
    answer = {"position": 1, "question": 1, "answer": {"action": "pay", "amount": "37.50"}}
    return [
        ("get", "/api/assignments/", None),
        ("get", "/api/attempts/", None),
        ("post", "/api/attempts/", {"drill": attempt.drill_id, "mode": "practice"}),
        ("get", f"{url}/", None),
        ("get", f"{url}/question", None),
        ("post", f"{url}/answers", answer),
        ("get", f"{url}/results", None),
        ("post", f"{url}/submit", None),
    ]


def call(client, method, url, body):
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize("role", ["pit_boss", "compliance_officer", "admin_user"])
def test_other_roles_are_refused_with_403_on_every_endpoint(request, role, attempt):
    client = APIClient()
    client.force_login(request.getfixturevalue(role))
    for method, url, body in endpoints(attempt):
        response = call(client, method, url, body)
        assert response.status_code == 403, (role, url)
        assert response.json()["code"] == "permission_denied"
        assert response.json()["error"] == "only trainees may use this endpoint"
    assert Attempt.objects.count() == 1


def test_a_signed_out_client_is_refused_on_every_endpoint(attempt):
    client = APIClient()
    for method, url, body in endpoints(attempt):
        response = call(client, method, url, body)
        assert response.status_code == 403, url
        assert response.json()["code"] == "not_authenticated"


def test_another_trainee_gets_404_for_every_endpoint_of_the_attempt(other_trainee, attempt):
    client = APIClient()
    client.force_login(other_trainee)
    for method, url, body in endpoints(attempt)[3:]:
        response = call(client, method, url, body)
        assert response.status_code == 404, url
        assert response.json()["code"] == "not_found"
    attempt.refresh_from_db()
    assert attempt.status == "in_progress"
    assert not attempt.items.filter(shown_at__isnull=False).exists()


def test_the_owner_may_use_every_endpoint(trainee, attempt):
    client = APIClient()
    client.force_login(trainee)
    statuses = [call(client, *endpoint).status_code for endpoint in endpoints(attempt)]
    assert statuses == [200, 200, 201, 200, 200, 201, 200, 202]


def test_a_session_post_without_a_csrf_token_is_refused(trainee, attempt):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(trainee)
    response = client.post(f"/api/attempts/{attempt.pk}/submit")
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]
    attempt.refresh_from_db()
    assert attempt.status == "in_progress"


def test_basic_authentication_works_without_a_csrf_token(trainee, attempt):
    client = APIClient(enforce_csrf_checks=True)
    token = base64.b64encode(f"{trainee.username}:{PASSWORD}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    assert client.post(f"/api/attempts/{attempt.pk}/submit").status_code == 202


def test_a_wrong_password_is_refused(trainee):
    client = APIClient()
    token = base64.b64encode(f"{trainee.username}:wrong".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    response = client.get("/api/attempts/")
    # 403, not 401: session authentication comes first and sends no WWW-Authenticate.
    assert response.status_code == 403
    assert response.json()["code"] == "authentication_failed"
