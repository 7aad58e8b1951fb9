"""No error repeats more than 30 characters of one input (docs/security.md, "What an error
repeats"; issue #23, finding 8: a 5,000-character `profile` came back whole). One row per
place that words an error around something a person sent: the API's bodies and query
strings, scenario documents (the engine's messages and the fields they name), the pages'
forms and filters, the services and the commands."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from core.errors import ProductError
from teaching.services import classes as class_services
from tests.factories import profile_version
from tests.trainer.factories import simple_document
from trainer.games import game_named
from trainer.services.drills import drill_create

pytestmark = pytest.mark.django_db

LONG = "Q" * 5000
# The cap is 30: a run of 31 of the sent character is an echo past it.
TOO_MUCH = ("Q" * 31, "9" * 31)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _response_text(response: Any) -> str:
    assert response.status_code < 500, response.content[:300]
    assert 400 <= response.status_code < 500, response.status_code
    return response.content.decode()


def _error_text(call: Callable[[], Any]) -> str:
    try:
        call()
    except ProductError as error:
        return json.dumps(error.as_dict(), ensure_ascii=False)
    except CommandError as error:
        return str(error)
    raise AssertionError("no error was raised")


def _scenario(people: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    document = {**simple_document("echo-test"), "skills": ["push"]}
    change(document)
    response = _api(people["pit_boss"]).post("/api/scenarios/", {"document": document}, "json")
    return _response_text(response)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drill(people: dict[str, Any], **fields: Any) -> str:
    body = {
        "title": "Echo",
        "kind": "generated",
        "profile": "casino-shoe",
        "skills": ["split"],
        "min_stake": "10",
        "max_stake": "100",
        **fields,
    }
    return _response_text(_api(people["pit_boss"]).post("/api/drills/", body, format="json"))


CASES: dict[str, Callable[[dict[str, Any]], str]] = {
    # The API's bodies and query strings.
    "api: a drill's profile": lambda p: _drill(p, profile=LONG),
    "api: an unknown body field": lambda p: _drill(p, **{LONG: 1}),
    "api: a filter's value": lambda p: _response_text(
        _api(p["trainee"]).get("/api/attempts/", {"status": LONG})
    ),
    "api: a class's trainee": lambda p: _response_text(
        _api(p["pit_boss"]).post(
            f"/api/classes/{p['morning'].pk}/trainees/", {"username": LONG[:150]}, format="json"
        )
    ),
    # Scenario documents, through the API: the engine's messages and the fields they name.
    "scenario: an unknown field": lambda p: _scenario(p, _set((LONG,), 1)),
    "scenario: its format": lambda p: _scenario(p, _set(("format",), LONG)),
    "scenario: an unknown table": lambda p: _scenario(p, _set(("rules",), LONG)),
    "scenario: an unknown rule": lambda p: _scenario(
        p, _set(("rules",), {"profile": "casino-shoe", "overrides": {LONG: 1}})
    ),
    "scenario: a rule's amount": lambda p: _scenario(
        p, _set(("rules",), {"profile": "casino-shoe", "overrides": {"min_bet": "9" * 5000}})
    ),
    "scenario: a field of the rules": lambda p: _scenario(
        p, _set(("rules",), {"profile": "casino-shoe", LONG: 1})
    ),
    "scenario: a box's unknown field": lambda p: _scenario(p, _set(("boxes", 0, LONG), 1)),
    "scenario: a stake's unknown field": lambda p: _scenario(
        p, _set(("boxes", 0, "stakes", 0, LONG), 1)
    ),
    "scenario: an action": lambda p: _scenario(p, _set(("boxes", 0, "actions"), [LONG])),
    "scenario: a stake's amount": lambda p: _scenario(
        p, _set(("boxes", 0, "stakes", 0, "amount"), LONG)
    ),
    "scenario: an insurance's player": lambda p: _scenario(
        p, _set(("boxes", 0, "insurance"), {LONG: "5"})
    ),
    "scenario: a chips section's field": lambda p: _scenario(p, _set(("chips",), {LONG: 1})),
    # The pages.
    "page: the pit's skill filter": lambda p: _page(p["pit_boss"], "/pit/", {"skill": LONG}),
    "page: the pit's date filter": lambda p: _page(
        p["pit_boss"], "/pit/", {"submitted_after": LONG}
    ),
    # The services and the game seam.
    "service: an invitation's username": lambda p: _error_text(
        lambda: class_services.trainee_invite(
            actor=p["pit_boss"], username=LONG, email="x@casino.example", link_base="http://t"
        )
    ),
    "service: an invitation's address": lambda p: _error_text(
        lambda: class_services.trainee_invite(
            actor=p["pit_boss"], username="newbie", email=LONG, link_base="http://t"
        )
    ),
    "service: a generated drill's skill minimum": lambda p: _error_text(
        lambda: drill_create(
            title="Echo",
            kind="generated",
            user=p["pit_boss"],
            profile_version=profile_version(),
            skills=["split"],
            min_stake="10",
            max_stake="100",
            skill_minimums={LONG: 1},
        )
    ),
    "game: an unknown game": lambda p: _error_text(lambda: game_named(LONG)),
    # The commands.
    "command: export --user": lambda p: _error_text(
        lambda: call_command(
            "export_compliance_report",
            "--from=2026-01-01",
            "--to=2026-01-02",
            "--format=csv",
            f"--out={p['tmp']}/r.csv",
            f"--user={LONG}",
        )
    ),
    "command: export --from": lambda p: _error_text(
        lambda: call_command(
            "export_compliance_report",
            f"--from={LONG}",
            "--to=2026-01-02",
            "--format=csv",
            f"--out={p['tmp']}/r.csv",
        )
    ),
    "command: regrade --from": lambda p: _error_text(
        lambda: call_command("regrade", f"--from={LONG}")
    ),
}


def _page(user, path: str, query: dict[str, str]) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    response = client.get(path, query)
    assert response.status_code < 500
    return response.content.decode()


@pytest.fixture
def people(trainee, pit_boss, tmp_path):
    from tests.audit.factories import TrainingClassFactory

    morning = TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    return {"trainee": trainee, "pit_boss": pit_boss, "morning": morning, "tmp": tmp_path}


@pytest.mark.parametrize("case", list(CASES))
def test_no_error_repeats_more_than_30_characters_of_an_input(case, people):
    text = CASES[case](people)
    for run in TOO_MUCH:
        assert run not in text, text[:400]
