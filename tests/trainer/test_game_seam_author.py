"""The authoring facet of the game seam: a second game (tests/seam_game, "dealer-draws")
declares its own rule parameters and table, validates its own rounds, generates drills for
its own skills, and the shell (scenario import and authoring, drills, house rules, the
table card and placard) reaches all of it through trainer.games alone."""

from __future__ import annotations

import importlib

import pytest
from django.utils import timezone

from core.errors import ProductError
from trainer.games import game_named
from trainer.models import RuleProfile, Scenario
from trainer.selectors.drill_rounds import generate_documents
from trainer.selectors.house_rules import rule_words, rules_changes, table_rules
from trainer.services.drills import drill_create
from trainer.services.house_rules import house_rules_change
from trainer.services.profiles import profile_version_create
from trainer.services.scenario_authoring import scenario_create
from trainer.services.scenarios import scenario_import, scenario_validate

pytestmark = pytest.mark.django_db

TABLE = "dealer-draws-table"


@pytest.fixture
def draws_table():
    """The test game's table, recorded through the services (the game judges its rules)."""
    table = RuleProfile.objects.create(name=TABLE, title="Dealer draws", game="dealer-draws")
    return profile_version_create(
        profile=table,
        parameters={"stands_on": 17, "min_bet": "1", "max_bet": "100", "boxes": 1},
        notes="The test game's table.",
    )


def _round(total, **more):
    return {
        "format": "dealer-draws/1",
        "id": f"draws-{total}",
        "title": f"Dealer has {total}",
        "skills": ["stiff-hands" if total < 17 else "pat-hands"],
        "rules": TABLE,
        "total": total,
        **more,
    }


def test_its_parameters_are_its_own_and_the_house_rules_read_them():
    keys = [rule.key for rule in table_rules("dealer-draws")]
    assert keys == ["stands_on", "min_bet", "max_bet", "boxes"]
    assert "blackjack_pays" not in keys
    assert rule_words("stands_on", 17, game="dealer-draws") == "17"
    changes = rules_changes({"stands_on": 17}, {"stands_on": 18}, game="dealer-draws")
    assert [(c.label, c.before, c.after) for c in changes if c.before != c.after] == [
        ("The dealer stands on", "17", "18")
    ]


def test_its_table_card_and_placard_are_in_its_own_words(draws_table):
    assert draws_table.house_rules == [
        "The dealer draws to 16 and stands on 17",
        "Bets 1 to 100, one box",
    ]
    assert draws_table.placard == "Dealer draws · Stands on 17 · One box"
    assert "Blackjack" not in draws_table.placard
    assert draws_table.engine_profile.stands_on == 17


def test_a_version_of_its_rules_is_judged_by_it(draws_table, admin_user):
    with pytest.raises(ProductError) as refused:
        profile_version_create(
            profile=draws_table.profile, parameters={"stands_on": 30}, notes="too high"
        )
    assert refused.value.field == "parameters.stands_on"
    with pytest.raises(ProductError) as said:
        house_rules_change(
            actor=admin_user,
            profile=draws_table.profile,
            parameters={"stands_on": 9},
            effective_on=timezone.localdate(),
            notes="too low",
        )
    assert (said.value.field, said.value.message) == (
        "stands_on",
        "The dealer stands on: a whole number from 12 to 21",
    )
    changed = house_rules_change(
        actor=admin_user,
        profile=draws_table.profile,
        parameters={"stands_on": 18},
        effective_on=timezone.localdate(),
        notes="The house stands on 18.",
    )
    assert changed.placard == "Dealer draws · Stands on 18 · One box"


def test_its_rounds_are_imported_and_authored_through_the_services(draws_table, pit_boss):
    imported = scenario_import(documents=[_round(12), _round(19)])
    assert [(s.game, s.profile_version_id) for s in imported] == [
        ("dealer-draws", draws_table.pk),
        ("dealer-draws", draws_table.pk),
    ]
    authored = scenario_create(document={**_round(15), "id": "draws-authored"}, user=pit_boss)
    assert (authored.game, authored.skills) == ("dealer-draws", ["stiff-hands"])
    assert Scenario.objects.filter(game="dealer-draws").count() == 3


def test_its_own_validation_errors_name_the_field(draws_table):
    with pytest.raises(ProductError) as bad_total:
        scenario_validate(document=_round(40), line=3)
    assert bad_total.value.field == "total"
    assert bad_total.value.message.startswith("line 3: field total (bad_total): total must be")
    with pytest.raises(ProductError) as bad_table:
        scenario_validate(document=_round(12, rules="casino-shoe"))
    assert (bad_table.value.field, bad_table.value.code) == ("rules", "unknown_table")
    with pytest.raises(ProductError) as blackjack_skill:
        scenario_validate(document=_round(12, skills=["natural-3to2"]))
    assert blackjack_skill.value.field == "skills"


def test_a_drill_is_generated_for_its_skills(draws_table, pit_boss):
    drill = drill_create(
        title="Stiffs",
        kind="generated",
        user=pit_boss,
        profile_version=draws_table,
        skills=["stiff-hands"],
        count=5,
        max_boxes=1,
    )
    assert drill.game == "dealer-draws"
    rounds = generate_documents(drill=drill, seed=3)
    assert rounds == generate_documents(drill=drill, seed=3)
    assert len(rounds) == 5
    game = game_named("dealer-draws")
    for document in rounds:
        assert document["format"] == "dealer-draws/1"
        assert game.answer_key(document)[0]["expected"] == {"answer": "hit"}
    with pytest.raises(ProductError) as blackjack_skill:
        drill_create(
            title="Naturals",
            kind="generated",
            user=pit_boss,
            profile_version=draws_table,
            skills=["natural-3to2"],
            max_boxes=1,
        )
    assert blackjack_skill.value.field == "skills"


def test_the_shipped_profiles_migration_holds_the_games_rows():
    """Migration 0003 loads frozen data, not the engine: the same rows blackjack ships."""
    frozen = importlib.import_module("trainer.migrations.0003_builtin_profiles").SHIPPED
    blackjack = game_named("blackjack")
    assert {row["name"] for row in frozen} == set(blackjack.shipped_profiles)
    for row in frozen:
        played = blackjack.profile_judged(row["parameters"], name=row["name"])
        assert played == row["parameters"]
        assert (row["source"], row["assumed"]) == (played["source"], played["assumed"])


def test_its_house_rules_form_asks_its_own_rules(draws_table, admin_user):
    from django.urls import reverse

    from tests.graded import client_for

    client = client_for(admin_user)
    page = client.get(reverse("house_rules:change", args=[TABLE])).content.decode()
    assert "The dealer stands on" in page
    assert "Blackjack pays" not in page
    assert "Doubles, splits and surrender" not in page
    posted = {
        "stands_on": "18",
        "min_bet": "1",
        "max_bet": "100",
        "boxes": "1",
        "effective_on": timezone.localdate().isoformat(),
        "based_on": str(draws_table.version),
        "notes": "The dealer stands on 18 now.",
    }
    saved = client.post(reverse("house_rules:change", args=[TABLE]), posted)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    newest = RuleProfile.objects.get(name=TABLE).newest_version
    assert newest.parameters["stands_on"] == 18
