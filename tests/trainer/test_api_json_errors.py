"""Everything under /api/ answers JSON in the API's shape, never an HTML page, whatever
refuses the request: a view's exception (a 500), Django's own 400 (an unknown host, a body
too large read outside the parser), a 404, a 405, a CSRF refusal (issue #23, finding 8).
DEBUG is off, as in production (the test settings' default)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.test import Client, RequestFactory

from config import errors
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def assert_api_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert set(body) >= {"error", "field", "code"}
    if code is not None:
        assert body["code"] == code
    assert "<html" not in response.content.decode().lower()
    return body


@pytest.fixture
def signed_in(trainee) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(trainee)
    return client


def test_an_exception_in_an_api_view_is_a_json_500(settings, signed_in, monkeypatch):
    assert settings.DEBUG is False

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("trainer.api.views.attempts_for_trainee", broken)
    body = assert_api_error(signed_in.get("/api/attempts/"), 500, "server_error")
    assert "a bug" not in body["error"]


def test_a_page_s_500_is_still_the_product_page(signed_in, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("trainer.web.views.attempts_for_trainee", broken, raising=False)
    monkeypatch.setattr("trainer.web.views.render", broken)
    response = signed_in.get("/train/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("get", "/api/nothing/here", 404, "not_found"),
        ("put", "/api/attempts/", 405, "method_not_allowed"),
        ("delete", "/api/assignments/", 405, "method_not_allowed"),
        ("post", "/api/schema/", 405, "method_not_allowed"),
        ("get", "/api/attempts/999999/", 404, "not_found"),
    ],
)
def test_refusals_under_the_api_are_json(signed_in, method, path, status, code):
    response = getattr(signed_in, method)(path, content_type="application/json")
    assert_api_error(response, status, code)


def test_an_unknown_host_is_a_json_400_under_the_api(signed_in):
    response = signed_in.get("/api/attempts/", HTTP_HOST="evil.example")
    assert_api_error(response, 400, "bad_request")


def test_an_unknown_host_is_the_products_page_elsewhere(signed_in):
    response = signed_in.get("/train/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_a_session_post_without_its_csrf_token_is_a_json_403(trainee):
    client = Client(enforce_csrf_checks=True)
    client.post("/accounts/login/", {"username": "tina", "password": PASSWORD})
    client = Client(enforce_csrf_checks=True)
    client.force_login(trainee)
    response = client.post("/api/attempts/", {"drill": 1}, content_type="application/json")
    body = assert_api_error(response, 403)
    assert "CSRF" in body["error"]


def _page_request(path: str):
    request = RequestFactory().post(path)
    request.user = AnonymousUser()
    return request


@pytest.mark.parametrize(
    ("handler", "exception", "status", "code"),
    [
        (errors.bad_request, RequestDataTooBig(), 413, "too_large"),
        (errors.bad_request, ValueError(), 400, "bad_request"),
        (errors.permission_denied, PermissionDenied(), 403, "permission_denied"),
        (errors.page_not_found, Http404(), 404, "not_found"),
    ],
)
def test_django_s_own_handlers_answer_json_under_the_api(handler, exception, status, code):
    request = RequestFactory().post("/api/attempts/")
    assert_api_error(handler(request, exception), status, code)
    page = handler(_page_request("/train/"), exception)
    assert page["Content-Type"].startswith("text/html")


def test_django_s_500_and_csrf_handlers_answer_json_under_the_api():
    request = RequestFactory().post("/api/attempts/")
    assert_api_error(errors.server_error(request), 500, "server_error")
    assert_api_error(errors.csrf_failure(request, reason="no token"), 403, "csrf_failed")
    page = errors.csrf_failure(_page_request("/accounts/login/"), reason="no token")
    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")
