"""Refusals and missing pages show the product's own pages, in development too (never
Django's debug page listing every URL), and log one line each, not a traceback."""

from __future__ import annotations

import logging

import pytest
from django.test import Client, RequestFactory
from django.views import defaults

pytestmark = pytest.mark.django_db

DEBUG_PAGE_MARKERS = ("Using the URLconf", "technical_404", "Django tried these URL patterns")


@pytest.fixture(params=[False, True], ids=["production", "development"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def assert_product_page(html: str) -> None:
    assert "♠ Shoe School" in html  # the base template's header
    assert 'href="/"' in html  # a way back home
    for marker in DEBUG_PAGE_MARKERS:
        assert marker not in html


def test_an_unknown_address_shows_the_products_not_found_page(debug, trainee):
    response = signed_in(trainee).get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert_product_page(html)
    assert "Page not found" in html


def test_a_missing_record_shows_the_products_not_found_page(debug, pit_boss):
    response = signed_in(pit_boss).get("/pit/trainees/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert_product_page(html)
    assert "Page not found" in html


def test_a_page_of_another_role_shows_the_products_refusal_with_the_reason(debug, trainee):
    response = signed_in(trainee).get("/pit/")
    assert response.status_code == 403
    html = response.content.decode()
    assert_product_page(html)
    assert "The pit&#x27;s pages are for pit bosses and compliance." in html


def test_the_api_still_answers_not_found_in_json(debug, trainee):
    response = signed_in(trainee).get("/api/attempts/999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_server_error_page_renders_without_a_request_context():
    response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert_product_page(html)
    assert "Something went wrong" in html


def test_an_expired_form_shows_the_products_page(debug, trainee):
    client = Client(enforce_csrf_checks=True)
    client.force_login(trainee)
    response = client.post("/accounts/logout/")
    assert response.status_code == 403
    html = response.content.decode()
    assert_product_page(html)
    assert "reload the page" in html


def test_a_refusal_logs_one_line_with_who_and_why_and_no_traceback(debug, trainee, caplog):
    caplog.set_level(logging.INFO)
    signed_in(trainee).get("/pit/")
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    (line,) = lines
    assert line.name == "shoeschool.security"
    assert line.exc_info is None
    assert f"user {trainee.pk}" in line.getMessage()
    assert "/pit/" in line.getMessage()
    assert "pit bosses and compliance" in line.getMessage()


def test_a_missing_page_logs_one_line_and_no_traceback(debug, pit_boss, caplog):
    caplog.set_level(logging.INFO)
    signed_in(pit_boss).get("/pit/trainees/999999/")
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].exc_info is None
    assert "/pit/trainees/999999/" in lines[0].getMessage()
