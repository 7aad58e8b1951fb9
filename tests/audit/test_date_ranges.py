"""A date range the wrong way round says so, naming its dates, on the pit's dashboard, the
trainee's page, the compliance report form and the API; it never silently shows zeros."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.graded import RIGHT, client_for, make_attempt, wrong

pytestmark = pytest.mark.django_db

INVERTED = {"submitted_min": "2026-03-31", "submitted_max": "2026-03-01"}
MESSAGE = "Submitted between: the “from” date (2026-03-31) is after the “to” date (2026-03-01)."


@pytest.fixture
def graded(pit, trainee):
    return make_attempt(
        trainee=trainee,
        submitted_at=timezone.now() - dt.timedelta(days=3),
        answers=[RIGHT, wrong("5.00")],
    )


@pytest.mark.parametrize("page", ["dashboard", "trainee"])
def test_an_inverted_range_on_the_pit_pages_is_an_error_naming_the_dates(
    page, graded, trainee, pit_boss
):
    url = (
        reverse("pit:dashboard")
        if page == "dashboard"
        else reverse("pit:trainee", args=[trainee.pk])
    )
    html = client_for(pit_boss).get(url, INVERTED).content.decode()
    assert MESSAGE in html
    assert "The filter is not applied" in html
    # The page shows the figures unfiltered, not the zeros an empty range would give.
    assert "50.0 %" in html


def test_a_range_of_one_day_is_fine(graded, pit_boss):
    day = {"submitted_min": "2026-03-01", "submitted_max": "2026-03-01"}
    html = client_for(pit_boss).get(reverse("pit:dashboard"), day).content.decode()
    assert "is after the “to” date" not in html
    assert "The filter is not applied" not in html


def test_an_inverted_period_on_the_compliance_form_names_both_fields(compliance_officer):
    response = client_for(compliance_officer).post(
        reverse("compliance:report_request"),
        {"start": "2026-03-31", "end": "2026-03-01", "fmt": "csv"},
    )
    assert response.status_code == 400
    assert (
        "“From” (2026-03-31) is after “To” (2026-03-01): the period must start on or before "
        "the day it ends." in response.content.decode()
    )


def test_an_inverted_due_date_range_on_the_api_is_a_400_naming_it(trainee):
    client = APIClient()
    client.force_authenticate(trainee)
    response = client.get(
        "/api/assignments/",
        {"due_after": "2026-03-31T00:00:00Z", "due_before": "2026-03-01T00:00:00Z"},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "due_after"
    assert (
        "due_after ('2026-03-31T00:00:00Z') is after due_before ('2026-03-01T00:00:00Z')"
        in (body["error"])
    )
    fine = client.get(
        "/api/assignments/",
        {"due_after": "2026-03-01T00:00:00Z", "due_before": "2026-03-31T00:00:00Z"},
    )
    assert fine.status_code == 200
