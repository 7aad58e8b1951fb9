"""The workspace asks a table's game how its rounds are staged (issue 25): blackjack's tables
keep the seats-and-shoe form; a game with no form of its own (the test game) is staged as a
document of its format, pasted or uploaded, judged by the game, its refusal at the field."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.graded import client_for
from trainer.games import game_named
from trainer.models import RuleProfile, Scenario
from trainer.services.profiles import profile_version_create
from trainer.services.scenario_authoring import scenario_create

pytestmark = pytest.mark.django_db

TABLE = "dealer-draws-table"


@pytest.fixture
def draws_table():
    table = RuleProfile.objects.create(name=TABLE, title="Dealer draws", game="dealer-draws")
    return profile_version_create(
        profile=table,
        parameters={"stands_on": 17, "min_bet": "1", "max_bet": "100", "boxes": 1},
        notes="The test game's table.",
    )


def _round(total: int = 12, **more: object) -> dict[str, object]:
    return {
        "format": "dealer-draws/1",
        "title": f"Dealer has {total}",
        "skills": ["stiff-hands" if total < 17 else "pat-hands"],
        "rules": TABLE,
        "total": total,
        **more,
    }


def _post(client, document: object, **more: object):
    text = document if isinstance(document, str) else json.dumps(document)
    body = {"document": text, "difficulty": "2", "action": "save", **more}
    return client.post(reverse("teach:scenario-new-document"), body)


def test_the_games_declare_how_their_rounds_are_staged():
    assert game_named("blackjack").staged_editor == "seats-and-shoe"
    assert game_named("dealer-draws").staged_editor is None


def test_a_round_of_a_game_without_a_form_is_staged_as_a_document(draws_table, pit_boss):
    response = _post(client_for(pit_boss), _round(12))
    assert response.status_code == 302
    scenario = Scenario.objects.get()
    assert (scenario.game, scenario.title, scenario.profile_version_id) == (
        "dealer-draws",
        "Dealer has 12",
        draws_table.pk,
    )


def test_the_document_may_be_uploaded(draws_table, pit_boss):
    upload = SimpleUploadedFile("round.json", json.dumps(_round(19)).encode(), "application/json")
    response = client_for(pit_boss).post(
        reverse("teach:scenario-new-document"),
        {"document": "", "upload": upload, "difficulty": "3", "action": "save"},
    )
    assert response.status_code == 302
    assert Scenario.objects.get().difficulty == 3


@pytest.mark.parametrize(
    ("document", "says"),
    [
        (_round(40), "total"),
        ("{not json", "not a JSON document"),
        ("[1, 2]", "JSON object"),
        ({k: v for k, v in _round(12).items() if k != "format"}, "dealer-draws/1"),
        (_round(12, format="poker/1"), "blackjack-scenario/1"),
        (_round(12, skills=["natural-3to2"]), "skill"),
    ],
)
def test_the_games_refusal_is_shown_at_the_document(draws_table, pit_boss, document, says):
    response = _post(client_for(pit_boss), document)
    text = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_document-error"' in text
    error = text.split('id="id_document-error">', 1)[1].split("</p>", 1)[0]
    assert says in error
    assert not Scenario.objects.exists()


def test_the_preview_shows_the_games_own_table(draws_table, pit_boss):
    response = _post(client_for(pit_boss), _round(12), action="preview")
    text = response.content.decode()
    assert response.status_code == 200
    assert "The dealer holds 12: draw or stand?" in text
    assert not Scenario.objects.exists()


def test_the_seats_and_shoe_form_offers_only_its_games_tables(draws_table, pit_boss):
    client = client_for(pit_boss)
    page = client.get(reverse("teach:scenario-new")).content.decode()
    assert "Seats and stakes" in page
    tables = page.split('name="profile"', 1)[1].split("</select>", 1)[0]
    assert "Six-deck shoe" in tables
    assert f'value="{draws_table.profile.pk}"' not in tables
    assert "Dealer draws" not in tables
    posted = client.post(
        reverse("teach:scenario-new"),
        {"title": "A draw", "profile": draws_table.profile.pk, "skills": ["stiff-hands"]},
    )
    assert posted.status_code == 400
    assert 'id="id_profile-error"' in posted.content.decode()
    assert not Scenario.objects.exists()


def test_a_round_of_a_game_without_a_form_is_revised_as_its_document(draws_table, pit_boss):
    made = scenario_create(document=_round(15), user=pit_boss)
    client = client_for(pit_boss)
    url = reverse("teach:scenario-edit", kwargs={"scenario_id": made.pk})
    page = client.get(url).content.decode()
    assert "Seats and stakes" not in page
    assert "&quot;total&quot;: 15" in page
    revised = client.post(
        url, {"document": json.dumps(_round(16)), "difficulty": "2", "action": "save"}
    )
    assert revised.status_code == 302
    newest = Scenario.objects.get(is_active=True)
    assert (newest.revision, newest.document["total"], newest.slug) == (2, 16, made.slug)


def _generated(profile: RuleProfile, skills: list[str]) -> dict[str, object]:
    return {
        "title": "Stiffs",
        "profile": profile.pk,
        "skills": skills,
        "count": 2,
        "max_boxes": 1,
        "time_limit_seconds": 30,
        "time_box_seconds": 300,
        "pass_mark": "90",
    }


def test_the_drill_form_offers_every_games_skills_under_its_name(draws_table, pit_boss):
    client = client_for(pit_boss)
    page = client.get(reverse("teach:drill-new-generated")).content.decode()
    skills = page.split('id="id_skills"', 1)[1].split("</div>\n</div>", 1)[0]
    for words in ("Blackjack", "Dealer draws", "Drawing to a stiff", "Natural at 3:2"):
        assert words in skills, words
    # A skill of another game than the table's is refused at the skills.
    refused = client.post(
        reverse("teach:drill-new-generated"), _generated(draws_table.profile, ["natural-3to2"])
    )
    assert refused.status_code == 400
    assert 'id="id_skills-error"' in refused.content.decode()
    made = client.post(
        reverse("teach:drill-new-generated"), _generated(draws_table.profile, ["stiff-hands"])
    )
    assert made.status_code == 302
