"""The game-fields editor names no game (issue #26): any game that names it (its
``staged_editor``) and declares its fields (``staged_form``) is staged in them. The test game,
given a one-field form here, is offered on the library's page, staged, refused at its field
in its own words, and saved, with no Casino word on the way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from django.urls import reverse

from tests.audit.test_no_internal_names import visible_text
from tests.graded import client_for
from tests.teaching.test_workspace_scenario_documents import TABLE, draws_table  # noqa: F401
from trainer.games import DocumentError, game_named
from trainer.games.authoring import StagedField
from trainer.models import Scenario

pytestmark = pytest.mark.django_db


class DrawsForm:
    """The test game's form: the dealer's total, as a number."""

    fields: Sequence[StagedField] = (
        StagedField("total", "The dealer's total", "From 2 to 26", "number", group="The dealer"),
    )

    def values(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return {"total": str(document.get("total", ""))}

    def document(
        self, values: Mapping[str, Any], *, title: str, skills: Sequence[str], profile: str
    ) -> dict[str, Any]:
        text = str(values.get("total") or "")
        if not text.isdigit():
            raise DocumentError("write the dealer's total as a number", field="total")
        return {
            "format": "dealer-draws/1",
            "title": title,
            "skills": list(skills),
            "rules": profile,
            "total": int(text),
        }

    def refusal(self, error: DocumentError, values: Mapping[str, Any]) -> tuple[str | None, str]:
        return ("total" if error.field == "total" else None), "no dealer holds that total"


@pytest.fixture
def draws_in_fields(monkeypatch, draws_table):  # noqa: F811 - the imported fixture
    game = game_named("dealer-draws")
    monkeypatch.setattr(game, "staged_editor", "game-fields")
    monkeypatch.setattr(game, "staged_form", DrawsForm())
    return draws_table


def _post(client, total: str):
    from trainer.models import RuleProfile

    body = {
        "title": "Dealer has twelve",
        "profile": RuleProfile.objects.get(name=TABLE).pk,
        "skills": ["stiff-hands"],
        "difficulty": "2",
        "total": total,
        "action": "save",
    }
    return client.post(reverse("teach:scenario-new") + "?game=dealer-draws", body)


def test_any_game_naming_the_editor_is_staged_in_its_own_fields(draws_in_fields, pit_boss):
    client = client_for(pit_boss)
    listing = client.get(reverse("teach:scenarios")).content.decode()
    assert "?game=dealer-draws" in listing
    page = client.get(reverse("teach:scenario-new") + "?game=dealer-draws").content.decode()
    assert "The dealer&#x27;s total" in page
    assert "casino" not in visible_text(page).lower()
    refused = _post(client, "x")
    assert refused.status_code == 400
    assert 'id="id_total-error"' in refused.content.decode()
    assert not Scenario.objects.exists()
    judged = _post(client, "40")  # the game's own check, said in its words at the field
    assert judged.status_code == 400
    assert "no dealer holds that total" in judged.content.decode()
    assert _post(client, "12").status_code == 302
    scenario = Scenario.objects.get()
    assert (scenario.game, scenario.document["total"]) == ("dealer-draws", 12)
    edit = client.get(reverse("teach:scenario-edit", args=[scenario.pk])).content.decode()
    assert 'name="total" value="12"' in edit
