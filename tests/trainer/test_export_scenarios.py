"""export_scenarios: the library back out, in a form import_scenarios reads again."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from trainer.models import Scenario


@pytest.fixture
def library(db):
    call_command("load_library", stdout=io.StringIO())
    return list(Scenario.objects.filter(is_active=True))


def entries_by_slug(entries):
    return {e["scenario"]["id"]: e for e in entries}


def test_an_export_imports_back_into_an_empty_library_unchanged(library, tmp_path):
    out = tmp_path / "library.jsonl"
    call_command("export_scenarios", "--out", str(out), stderr=io.StringIO())
    before = {s.slug: (s.document, s.difficulty, s.skills, s.title) for s in library}
    Scenario.objects.all().delete()
    call_command("import_scenarios", str(out), stdout=io.StringIO())
    after = {s.slug: (s.document, s.difficulty, s.skills, s.title) for s in Scenario.objects.all()}
    assert after == before


def test_reimporting_an_export_over_the_library_changes_nothing(library, tmp_path):
    out = tmp_path / "library.json"
    call_command("export_scenarios", "--format", "json", "--out", str(out), stderr=io.StringIO())
    report = io.StringIO()
    call_command("import_scenarios", str(out), stdout=report)
    assert f"0 created, 0 revised, {len(library)} unchanged" in report.getvalue()


def test_json_lines_go_to_standard_output_by_default(library):
    out = io.StringIO()
    call_command("export_scenarios", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == len(library)
    assert set(lines[0]) == {"difficulty", "scenario"}


def test_it_filters_by_profile_and_by_skill(library):
    out = io.StringIO()
    call_command("export_scenarios", "--profile", "european-enhc-6deck", stdout=out)
    enhc = [json.loads(line) for line in out.getvalue().splitlines()]
    assert enhc
    assert {e["scenario"]["rules"] for e in enhc} == {"european-enhc-6deck"}
    out = io.StringIO()
    call_command("export_scenarios", "--skill", "surrender", stdout=out)
    surrender = [json.loads(line) for line in out.getvalue().splitlines()]
    assert surrender
    assert all("surrender" in e["scenario"]["skills"] for e in surrender)
    assert len(surrender) < len(library)


def test_superseded_revisions_are_not_exported(library):
    entry = {"difficulty": 5, "scenario": {**library[0].document, "title": "Retitled"}}
    from trainer.services.scenarios import scenario_import

    scenario_import(documents=[entry])
    out = io.StringIO()
    call_command("export_scenarios", stdout=out)
    exported = entries_by_slug(json.loads(line) for line in out.getvalue().splitlines())
    assert len(exported) == len(library)
    assert exported[library[0].slug]["scenario"]["title"] == "Retitled"
    assert exported[library[0].slug]["difficulty"] == 5


def test_an_unknown_skill_is_refused(library):
    with pytest.raises(CommandError):
        call_command("export_scenarios", "--skill", "juggling", stdout=io.StringIO())
