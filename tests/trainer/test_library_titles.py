"""Library titles in words (issue #24, found 6): no shipped title names a table by its
profile's slug (blackjack's or Casino's) nor an engine's name, and the rows already loaded
are renamed where they stand (not revised)."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from django.apps import apps

from trainer import rules
from trainer.games.casino.engine import REASONS
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.management.commands.import_scenarios import load_library
from trainer.models import Scenario

LIBRARY = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
MIGRATION = "trainer.migrations.0017_library_titles_in_words"


def shipped_titles() -> list[str]:
    documents = [
        json.loads(line)
        for path in sorted(LIBRARY.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    # blackjack's lines are library entries; Casino's are bare documents
    return [doc.get("scenario", doc)["title"] for doc in documents]


def test_no_shipped_title_names_a_profile_slug():
    titles = shipped_titles()
    assert len(titles) >= 233 + 89
    leaks = [t for t in titles for name in [*rules.PROFILES, "scarne-casino"] if name in t]
    assert leaks == []
    assert "A split ace dealt another ace is split again at the six-deck shoe table" in titles
    assert "A ten takes three tens and an ace-six-three" in titles


def test_no_shipped_title_names_an_engines_word_or_a_card_code():
    internal = {*REASONS, *QUESTION_KINDS, "non_dealer", "may_take", "is_legal"}
    titles = shipped_titles()
    leaks = [t for t in titles if "_" in t or any(name in t for name in internal)]
    assert leaks == []
    assert [t for t in titles if re.search(r"\b(10|[2-9TJQKA])[shdc]\b", t)] == []


@pytest.mark.django_db
def test_loaded_rows_are_renamed_in_place_and_the_library_then_finds_them_unchanged():
    load_library()
    migration = importlib.import_module(MIGRATION)
    slug = "shoe-resplit-aces"
    old, new = migration.TITLES[slug]
    row = Scenario.objects.get(slug=slug)
    # The database as it was before: the shipped title with the profile's slug.
    row.title = old
    row.document = {**row.document, "title": old}
    row.save(update_fields=["title", "document"])
    edited_by_hand = Scenario.objects.get(slug="shoe-split-unlike-tens")
    edited_by_hand.title = "Our own title for casino-shoe"
    edited_by_hand.save(update_fields=["title"])

    migration.titles_in_words(apps, None)

    row.refresh_from_db()
    assert (row.title, row.document["title"], row.revision) == (new, new, 1)
    edited_by_hand.refresh_from_db()
    assert edited_by_hand.title == "Our own title for casino-shoe"  # not the shipped one
    assert "0 created, 0 revised" in load_library()
    assert not Scenario.objects.filter(slug=f"{slug}--r1").exists()

    migration.titles_as_before(apps, None)
    row.refresh_from_db()
    assert row.title == old
