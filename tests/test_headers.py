"""Security headers on pages and API responses: a Content-Security-Policy without inline
script, no caching of anything shown to a signed-in user, and a same-origin referrer."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.web import charts

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.fixture
def page(trainee):
    client = Client()
    client.force_login(trainee)
    return client.get("/train/")


@pytest.fixture
def api_response(trainee):
    client = APIClient()
    client.force_login(trainee)
    return client.get("/api/attempts/")


@pytest.fixture(params=["page", "api_response"])
def response(request):
    return request.getfixturevalue(request.param)


def test_every_response_carries_a_policy_that_allows_no_inline_script(response):
    assert response.status_code == 200
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


def test_nothing_shown_to_a_signed_in_user_is_stored_by_a_cache(response):
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= cache_control


def test_the_referrer_stays_on_the_site(response):
    assert response["Referrer-Policy"] == "same-origin"


def test_basic_authenticated_api_responses_are_not_stored_either(trainee):
    import base64

    from tests.factories import PASSWORD

    client = APIClient()
    token = base64.b64encode(f"tina:{PASSWORD}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    response = client.get("/api/attempts/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_static_files_stay_cacheable(client):
    response = client.get("/static/css/site.css")
    assert "no-store" not in response.get("Cache-Control", "")


def test_the_pit_charts_style_is_allowed_by_the_pages_nonce_and_they_carry_no_script(
    pit_boss, trainee
):
    from tests.audit.factories import TrainingClassFactory
    from tests.graded import RIGHT, make_attempt, wrong

    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00")])
    client = Client()
    client.force_login(pit_boss)
    response = client.get(f"/pit/trainees/{trainee.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    nonces = {value for value in directives(response)["style-src"] if value.startswith("'nonce-")}
    assert len(nonces) == 1
    nonce = nonces.pop()[len("'nonce-") : -1]
    styles = re.findall(r"<style[^>]*>", html)
    assert len(styles) == 3  # one per chart
    assert all(f'nonce="{nonce}"' in tag for tag in styles)
    assert "<script" not in html
    assert 'style="' not in html


def test_a_chart_is_drawn_without_inline_script_or_style_attributes():
    svg = str(charts.error_mix_svg([("overpay", 3), ("underpay", 1)]))
    assert "<script" not in svg
    assert 'style="' not in svg
    assert 'opacity="0"' in svg  # the hidden tooltip stays hidden


def test_the_api_docs_page_has_no_inline_script_or_style(trainee):
    client = Client()
    client.force_login(trainee)
    html = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert len(scripts) == 3
    assert all("src=" in tag for tag in scripts)
    assert "<style" not in html
    assert "style=" not in html
    script_url = re.search(r'<script src="(/api/docs/\?[^"]*script[^"]*)"', html)
    assert script_url is not None
    script = client.get(script_url.group(1).replace("&amp;", "&"))
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()
