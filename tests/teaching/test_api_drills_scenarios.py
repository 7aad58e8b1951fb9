"""The drill and scenario endpoints: pit bosses and administrators only; the services'
errors as JSON naming the field; revisions supersede; retiring is recorded."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.trainer.factories import DrillFactory, natural_document, simple_document
from trainer.models import Drill, Scenario
from trainer.services.scenarios import scenario_import

pytestmark = pytest.mark.django_db


def client_as(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def scenario(db) -> Scenario:
    return scenario_import(documents=[{**simple_document("two-boxes"), "skills": ["push"]}])[0]


def endpoints(drill, scenario):
    new = {**natural_document("a-new-one"), "skills": ["natural-3to2"]}
    return [
        ("get", "/api/drills/", None),
        ("post", "/api/drills/", {"title": "T", "kind": "fixed", "scenarios": [scenario.pk]}),
        ("get", f"/api/drills/{drill.pk}/", None),
        ("post", f"/api/drills/{drill.pk}/retire", {}),
        ("get", "/api/scenarios/", None),
        ("post", "/api/scenarios/", {"document": new}),
        ("get", f"/api/scenarios/{scenario.pk}/", None),
        (
            "post",
            f"/api/scenarios/{scenario.pk}/revise",
            {"document": scenario.document, "difficulty": 4},
        ),
    ]


@pytest.mark.parametrize("role", ["anonymous", "trainee", "compliance"])
def test_every_endpoint_refuses_who_does_not_run_drills(
    role, trainee, compliance_officer, scenario
):
    user = {"anonymous": None, "trainee": trainee, "compliance": compliance_officer}[role]
    drill = DrillFactory(documents=[simple_document("sealed")], purpose="exam")
    client = client_as(user)
    scenarios = Scenario.objects.count()
    for method, url, body in endpoints(drill, scenario):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 403, (method, url)
        assert "expected" not in response.content.decode()
    assert list(Drill.objects.values_list("is_active", flat=True)) == [True]
    assert Scenario.objects.count() == scenarios


@pytest.mark.parametrize("role", ["pit_boss", "admin"])
def test_pit_bosses_and_admins_use_every_endpoint(role, pit_boss, admin_user, scenario):
    user = pit_boss if role == "pit_boss" else admin_user
    # The pit boss's own drill: only its owner or an administrator retires one.
    drill = DrillFactory(documents=[simple_document("one-round")], owner=pit_boss)
    # And the pit boss's own scenario: only its author or an administrator revises one.
    Scenario.objects.filter(pk=scenario.pk).update(created_by=pit_boss)
    client = client_as(user)
    expected = [200, 201, 200, 200, 200, 201, 200, 201]
    got = [
        getattr(client, method)(url, body, format="json").status_code
        for method, url, body in endpoints(drill, scenario)
    ]
    assert got == expected


def test_a_generated_drill_by_the_api_names_its_field_when_wrong(pit_boss):
    client = client_as(pit_boss)
    body = {
        "title": "S",
        "kind": "generated",
        "profile": "casino-shoe",
        "skills": ["split"],
        "min_stake": "1",
        "max_stake": "100",
    }
    response = client.post("/api/drills/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "min_stake"
    body["min_stake"] = "10"
    made = client.post("/api/drills/", body, format="json")
    assert made.status_code == 201
    assert made.json()["min_stake"] == "10.00"
    assert made.json()["profile"] == "casino-shoe"


def test_the_drill_list_paginates_and_filters(pit_boss):
    DrillFactory(title="Practice one")
    DrillFactory(title="Retired one", is_active=False)
    client = client_as(pit_boss)
    body = client.get("/api/drills/", {"active": "true"}).json()
    assert [d["title"] for d in body["results"]] == ["Practice one"]
    assert client.get("/api/drills/", {"kind": "nonsense"}).status_code == 400


def test_a_scenario_the_engine_refuses_is_a_400_naming_the_documents_field(pit_boss):
    bad = {**simple_document("bad"), "skills": ["push"]}
    bad["boxes"][0]["actions"] = []
    response = client_as(pit_boss).post("/api/scenarios/", {"document": bad}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "boxes[0].actions[0]"
    assert not Scenario.objects.exists()


def test_revising_by_the_api_supersedes_and_never_edits(pit_boss, scenario):
    Scenario.objects.filter(pk=scenario.pk).update(created_by=pit_boss)
    client = client_as(pit_boss)
    changed = {**scenario.document, "title": "Two boxes, retitled"}
    response = client.post(
        f"/api/scenarios/{scenario.pk}/revise", {"document": changed}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["revision"], body["supersedes"], body["slug"]) == (2, scenario.pk, "two-boxes")
    old = Scenario.objects.get(pk=scenario.pk)
    assert old.document["title"] == "Two boxes against a dealer 17"
    again = client.post(
        f"/api/scenarios/{scenario.pk}/revise", {"document": changed}, format="json"
    )
    assert again.status_code == 409
    assert LedgerEntry.objects.filter(event=Event.SCENARIO_REVISED).count() == 1


def test_the_schema_describes_the_drill_and_scenario_endpoints(tmp_path):
    path = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    schema = yaml.safe_load(path.read_text())
    assert {
        "/api/drills/",
        "/api/drills/{drill_id}/",
        "/api/drills/{drill_id}/retire",
        "/api/scenarios/",
        "/api/scenarios/{scenario_id}/",
        "/api/scenarios/{scenario_id}/revise",
    } <= set(schema["paths"])
    create = schema["paths"]["/api/drills/"]["post"]
    assert {"201", "400", "403"} <= set(create["responses"])
    stake = schema["components"]["schemas"]["DrillCreateInput"]["properties"]["min_stake"]
    assert stake["type"] == "string"


def test_a_casino_drill_by_the_api_needs_no_boxes_and_refuses_three(pit_boss):
    client = client_as(pit_boss)
    body = {"title": "C", "kind": "generated", "profile": "scarne-casino", "skills": ["trailing"]}
    made = client.post("/api/drills/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["max_boxes"] == 1
    refused = client.post("/api/drills/", {**body, "title": "D", "max_boxes": 3}, format="json")
    assert refused.status_code == 400
    assert refused.json()["field"] == "max_boxes"
