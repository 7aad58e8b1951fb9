"""The shell assumes no game (issue 25): a record's game is read from the record, a document's
from the format it declares, and a form offers every loaded game's skills, each under its
game's name; nothing falls back to blackjack."""

from __future__ import annotations

import pytest
from django.template import TemplateSyntaxError, engines

from trainer.games import DocumentError, game_named
from trainer.labels import skill_choices_by_game
from trainer.services.scenarios import document_game


def test_no_game_is_assumed_for_a_record_without_one():
    with pytest.raises(DocumentError) as none:
        game_named(None)
    assert none.value.field == "game"
    assert game_named("dealer-draws").name == "dealer-draws"


@pytest.mark.parametrize("document", [{}, {"format": "poker/1"}, {"format": None}])
def test_a_document_of_no_known_format_is_refused_naming_the_formats(document):
    with pytest.raises(DocumentError) as refused:
        document_game(document)
    error = refused.value
    assert (error.field, error.reason) == ("format", "unknown_format")
    assert "blackjack-scenario/1" in error.message
    assert "dealer-draws/1" in error.message


def test_a_document_is_its_declared_formats_game():
    assert document_game({"format": "dealer-draws/1"}).name == "dealer-draws"
    assert document_game({"format": "blackjack-scenario/1"}).name == "blackjack"


def test_skills_are_offered_by_game_under_its_name():
    groups = dict(skill_choices_by_game())
    assert dict(groups["Dealer draws"]) == {
        "stiff-hands": "Drawing to a stiff",
        "pat-hands": "Standing on a pat hand",
    }
    assert "natural-3to2" in dict(groups["Blackjack"])
    assert "natural-3to2" not in dict(groups["Dealer draws"])


def test_the_dealer_words_filter_that_assumed_blackjack_is_gone():
    with pytest.raises(TemplateSyntaxError):
        engines["django"].from_string("{% load dealer %}{{ 'Ah'|dealer_words }}")


@pytest.mark.parametrize(
    "call",
    [
        "trainer.selectors.house_rules:table_rules",
        "trainer.selectors.house_rules:rule_of",
        "trainer.timing:chip_target_seconds",
    ],
)
def test_shell_functions_take_the_game_from_the_caller(call):
    import importlib
    import inspect

    module, name = call.split(":")
    function = getattr(importlib.import_module(module), name)
    parameter = inspect.signature(function).parameters["game"]
    assert parameter.default is inspect.Parameter.empty, call
