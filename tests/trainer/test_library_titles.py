"""Library titles in words (issue #24, found 6): no shipped title names a table by its
profile's slug, and the rows already loaded are renamed where they stand (not revised)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from django.apps import apps

from trainer import rules
from trainer.management.commands.import_scenarios import load_library
from trainer.models import Scenario

LIBRARY = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"
MIGRATION = "trainer.migrations.0017_library_titles_in_words"


def test_no_shipped_title_names_a_profile_slug():
    titles = [
        json.loads(line)["scenario"]["title"]
        for path in sorted(LIBRARY.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert len(titles) >= 233
    leaks = [t for t in titles for name in rules.PROFILES if name in t]
    assert leaks == []
    assert "A split ace dealt another ace is split again at the six-deck shoe table" in titles


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
