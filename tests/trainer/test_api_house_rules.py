"""House rules in the API (issue #24): administrators only; a change from a date, previewed
or saved; a new table from a copy; refusals at `parameters.<rule>` in words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import entries_written
from trainer.models import RuleProfile

pytestmark = pytest.mark.django_db


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def in_days(n: int) -> str:
    return (timezone.localdate() + dt.timedelta(days=n)).isoformat()


S17 = {"parameters": {"dealer_hits_soft_17": False}, "notes": "The house stands on soft 17"}


@pytest.mark.parametrize("role", ["pit_boss", "compliance_officer", "trainee"])
def test_only_administrators(role, request):
    client = as_user(request.getfixturevalue(role))
    assert client.get("/api/house-rules/").status_code == 403
    assert client.get("/api/house-rules/casino-shoe/").status_code == 403
    body = {**S17, "effective_on": in_days(1)}
    response = client.post("/api/house-rules/casino-shoe/versions", body, format="json")
    assert response.status_code == 403
    response = client.post(
        "/api/house-rules/casino-shoe/copy", {"name": "x", "title": "X"}, format="json"
    )
    assert response.status_code == 403
    assert RuleProfile.objects.get(name="casino-shoe").versions.count() == 1


def test_the_tables_and_their_versions(admin_user):
    tables = as_user(admin_user).get("/api/house-rules/").json()
    shoe = next(t for t in tables if t["name"] == "casino-shoe")
    assert shoe["title"] == "Six-deck shoe"
    [version] = shoe["versions"]
    assert version["status"] == "in force"
    assert "Dealer hits soft 17" in version["placard"]
    assert as_user(admin_user).get("/api/house-rules/nope/").status_code == 404


def test_a_preview_saves_nothing_and_a_change_is_saved_from_its_day(admin_user):
    client = as_user(admin_user)
    body = {**S17, "effective_on": in_days(3), "preview": True}
    response = client.post("/api/house-rules/casino-shoe/versions", body, format="json")
    assert response.status_code == 200
    preview = response.json()
    assert preview["changes"] == [
        {"rule": "Soft 17", "before": "Dealer hits soft 17", "after": "Dealer stands on soft 17"}
    ]
    assert "Dealer stands on all 17s" in preview["placard"]
    assert not entries_written().exists()
    body["preview"] = False
    response = client.post("/api/house-rules/casino-shoe/versions", body, format="json")
    assert response.status_code == 201
    assert (response.json()["version"], response.json()["status"]) == (2, "scheduled")
    assert LedgerEntry.objects.filter(event=Event.PROFILE_VERSION_CREATED).count() == 1
    shoe = as_user(admin_user).get("/api/house-rules/casino-shoe/").json()
    assert [v["status"] for v in shoe["versions"]] == ["scheduled", "in force"]


@pytest.mark.parametrize(
    ("parameters", "field"),
    [
        ({"decks": 9}, "parameters.decks"),
        ({"decks": "6"}, "parameters.decks"),
        ({"dealer_hits_soft_17": "no"}, "parameters.dealer_hits_soft_17"),
        ({"nonsense": 1}, "parameters.nonsense"),
    ],
)
def test_a_bad_rule_is_named(admin_user, parameters, field):
    body = {"parameters": parameters, "notes": "x", "effective_on": in_days(1)}
    response = as_user(admin_user).post(
        "/api/house-rules/casino-shoe/versions", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert RuleProfile.objects.get(name="casino-shoe").versions.count() == 1


def test_a_day_in_the_past_is_refused(admin_user):
    body = {**S17, "effective_on": in_days(-1)}
    response = as_user(admin_user).post(
        "/api/house-rules/casino-shoe/versions", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "effective_on"


def test_a_new_table_from_a_copy(admin_user):
    body = {"name": "high-limit", "title": "High limit", "parameters": {"min_bet": "100"}}
    client = as_user(admin_user)
    response = client.post("/api/house-rules/casino-shoe/copy", body, format="json")
    assert response.status_code == 201
    assert response.json()["versions"][0]["parameters"]["min_bet"] == "100"
    again = client.post("/api/house-rules/casino-shoe/copy", body, format="json")
    assert again.status_code == 409
    assert again.json()["field"] == "name"


def test_a_change_based_on_an_older_version_is_refused(admin_user):
    client = as_user(admin_user)
    first = {**S17, "effective_on": in_days(0), "based_on": 1}
    assert (
        client.post("/api/house-rules/casino-shoe/versions", first, format="json").status_code
        == 201
    )
    again = {"parameters": {"decks": 8}, "notes": "8", "effective_on": in_days(1), "based_on": 1}
    response = client.post("/api/house-rules/casino-shoe/versions", again, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "rules_changed"
