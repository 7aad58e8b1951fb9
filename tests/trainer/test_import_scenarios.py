"""import_scenarios and the scenario_import service behind it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from core.errors import ProductError
from trainer.models import Scenario
from trainer.services.scenarios import scenario_import, scenario_import_detailed

ROOT = Path(__file__).resolve().parents[2]


def natural(slug: str = "natural-vs-17", amount: str = "10") -> dict[str, Any]:
    """casino-shoe: box 1 Ah Ks is a natural against the dealer's 7d Qc."""
    return {
        "format": "blackjack-scenario/1",
        "id": slug,
        "title": "A natural against a dealer 17",
        "skills": ["natural-3to2"],
        "rules": "casino-shoe",
        "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": amount}]}],
        "shoe": ["Ah", "7d", "Ks", "Qc"],
    }


def illegal_double(slug: str = "bad-double") -> dict[str, Any]:
    """bicycle-6deck doubles only on 9-11: box 2's double on 12 is illegal."""
    return {
        "format": "blackjack-scenario/1",
        "id": slug,
        "title": "An illegal double",
        "skills": ["double"],
        "rules": "bicycle-6deck",
        "boxes": [{"box": 2, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["double"]}],
        "shoe": ["Ts", "7d", "2c", "Qc", "5h"],
    }


def write_lines(path: Path, entries: list[Any]) -> Path:
    path.write_text("\n".join(json.dumps(e) for e in entries) + "\n", encoding="utf-8")
    return path


def test_it_imports_a_good_file_of_json_lines(db, tmp_path):
    file = write_lines(
        tmp_path / "good.jsonl",
        [{"difficulty": 1, "scenario": natural("a")}, {"difficulty": 4, "scenario": natural("b")}],
    )
    out = io.StringIO()
    call_command("import_scenarios", str(file), stdout=out)
    rows = {s.slug: s for s in Scenario.objects.all()}
    assert set(rows) == {"a", "b"}
    assert rows["b"].difficulty == 4
    assert rows["a"].profile_version.profile.name == "casino-shoe"
    assert rows["a"].skills == ["natural-3to2"]
    assert "2 created" in out.getvalue()


def test_it_accepts_a_json_array_and_a_single_object(db, tmp_path):
    array = tmp_path / "array.json"
    array.write_text(json.dumps([natural("a"), natural("b")]), encoding="utf-8")
    single = tmp_path / "single.json"
    single.write_text(json.dumps(natural("c"), indent=2), encoding="utf-8")
    call_command("import_scenarios", str(array), stdout=io.StringIO())
    call_command("import_scenarios", str(single), stdout=io.StringIO())
    assert sorted(Scenario.objects.values_list("slug", flat=True)) == ["a", "b", "c"]


def test_it_reads_standard_input_when_the_file_is_a_dash(db, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(natural("from-stdin"))))
    call_command("import_scenarios", "-", stdout=io.StringIO())
    assert Scenario.objects.filter(slug="from-stdin").exists()


def test_a_bad_line_imports_nothing_and_names_the_line_box_and_field(db, tmp_path):
    file = write_lines(tmp_path / "bad.jsonl", [natural("a"), natural("b"), illegal_double()])
    with pytest.raises(CommandError) as caught:
        call_command("import_scenarios", str(file), stdout=io.StringIO())
    message = str(caught.value)
    assert "line 3" in message
    assert "box 2" in message
    assert "boxes[0].actions[0]" in message
    assert "illegal_action" in message
    assert not Scenario.objects.exists()


def test_the_command_exits_with_a_non_zero_status_on_a_bad_file(tmp_path):
    # A fresh process, as an operator runs it; the file is refused before any write.
    file = write_lines(tmp_path / "bad.jsonl", [illegal_double()])
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DJANGO_ENV="development", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = subprocess.run(
        [sys.executable, "manage.py", "import_scenarios", str(file)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "line 1: field boxes[0].actions[0] (illegal_action)" in result.stderr
    assert "nothing was imported" in result.stderr


def test_a_line_that_is_not_json_is_named(db, tmp_path):
    file = tmp_path / "broken.jsonl"
    file.write_text(json.dumps(natural("a")) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: not valid JSON"):
        call_command("import_scenarios", str(file), stdout=io.StringIO())
    assert not Scenario.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"id": "Not A Slug"}, "id"),
        ({"title": ""}, "title"),
        ({"skills": ["juggling"]}, "skills"),
        ({"rules": {"profile": "casino-shoe", "overrides": {"decks": 8}}}, "rules"),
    ],
)
def test_library_metadata_is_checked(db, change, field):
    with pytest.raises(ProductError) as caught:
        scenario_import(documents=[{**natural(), **change}])
    assert caught.value.field == field
    assert str(caught.value).startswith("line 1:")
    assert not Scenario.objects.exists()


def test_a_slug_twice_in_one_file_is_refused(db):
    with pytest.raises(ProductError, match="already used on line 1"):
        scenario_import(documents=[natural("a"), natural("a", amount="20")])
    assert not Scenario.objects.exists()


def test_a_difficulty_out_of_range_is_refused(db):
    with pytest.raises(ProductError, match="difficulty"):
        scenario_import(documents=[{"difficulty": 9, "scenario": natural()}])


def test_reimporting_the_same_file_changes_nothing(db, trainee):
    first = scenario_import_detailed(documents=[natural("a"), natural("b")], user=trainee)
    again = scenario_import_detailed(documents=[natural("a"), natural("b")])
    assert len(first.created) == 2
    assert again.created == again.revised == []
    assert [s.pk for s in again.unchanged] == [s.pk for s in first.created]
    assert Scenario.objects.count() == 2


def test_a_changed_document_becomes_a_revision_that_supersedes_the_old(db):
    [old] = scenario_import(documents=[natural("a", amount="10")])
    [new] = scenario_import(documents=[natural("a", amount="25")])
    old.refresh_from_db()
    assert new.pk != old.pk
    assert new.slug == "a"
    assert new.revision == 2
    assert new.supersedes == old
    assert new.is_active
    assert not old.is_active
    assert old.slug == "a--r1"
    assert old.document["boxes"][0]["stakes"][0]["amount"] == "10"
    assert new.document["boxes"][0]["stakes"][0]["amount"] == "25"


# Strict input: nesting, echoes and every column's limits, all or nothing.


@pytest.mark.parametrize(("shape", "line"), [("jsonl", 2), ("array", 3), ("object", 2)])
def test_deeply_nested_json_is_a_clear_error_naming_the_line(db, tmp_path, shape, line):
    bomb = '{"a":' * 10_000 + "1" + "}" * 10_000
    file = tmp_path / "deep.json"
    if shape == "jsonl":
        file.write_text(json.dumps(natural("a")) + "\n" + bomb + "\n", encoding="utf-8")
    elif shape == "array":
        file.write_text("[\n" + json.dumps(natural("a")) + ",\n" + bomb + "\n]\n", encoding="utf-8")
    else:
        file.write_text("\n" + bomb + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_scenarios", str(file), stdout=io.StringIO())
    message = str(caught.value)
    assert f"line {line}: JSON nested deeper than 32 levels" in message
    assert "nothing was imported" in message
    assert len(message) < 300
    assert not Scenario.objects.exists()


def test_the_command_prints_no_traceback_on_deep_json(tmp_path):
    file = tmp_path / "deep.jsonl"
    file.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DJANGO_ENV="development", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = subprocess.run(
        [sys.executable, "manage.py", "import_scenarios", str(file)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "line 1: JSON nested deeper than" in result.stderr


def test_a_title_over_the_column_limit_is_refused_naming_line_and_field(db):
    long_title = {**natural("b"), "title": "T" * 5_000_000}
    with pytest.raises(ProductError) as caught:
        scenario_import(documents=[natural("a"), long_title])
    assert caught.value.field == "title"
    assert str(caught.value).startswith("line 2:")
    assert "200" in str(caught.value)
    assert len(str(caught.value)) < 200
    assert not Scenario.objects.exists()


def test_a_title_at_the_limit_is_accepted(db):
    [row] = scenario_import(documents=[{**natural("a"), "title": "T" * 200}])
    assert len(row.title) == 200


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"id": "a" * 5_000_000}, "id"),
        ({"skills": ["x" * 5_000_000]}, "skills"),
        ({"skills": ["double"] * 100_000}, "skills"),
        ({"skills": "double"}, "skills"),
    ],
)
def test_oversized_metadata_is_refused_without_echoing_it(db, change, field):
    with pytest.raises(ProductError) as caught:
        scenario_import(documents=[natural("a"), {**natural("b"), **change}])
    assert caught.value.field == field
    assert str(caught.value).startswith("line 2:")
    assert "a" * 31 not in str(caught.value)
    assert "x" * 31 not in str(caught.value)
    assert len(str(caught.value)) < 500
    assert not Scenario.objects.exists()


@pytest.mark.parametrize(
    "entry",
    [
        {"difficulty": "9" * 1_000_000, "scenario": natural("b")},
        {"scenario": natural("b"), "x" * 1_000_000: 1},
    ],
)
def test_a_bad_library_entry_is_not_echoed_whole(db, entry):
    with pytest.raises(ProductError) as caught:
        scenario_import(documents=[natural("a"), entry])
    assert str(caught.value).startswith("line 2:")
    assert len(str(caught.value)) < 300
    assert not Scenario.objects.exists()


def test_every_model_limit_is_checked_before_anything_is_written(db, monkeypatch):
    # The import follows the model: a tighter column is enforced without a code change.
    from django.core.validators import MaxLengthValidator

    field = Scenario._meta.get_field("title")
    monkeypatch.setattr(field, "max_length", 10)
    monkeypatch.setattr(field, "validators", [MaxLengthValidator(10)])
    with pytest.raises(ProductError) as caught:
        scenario_import(documents=[{**natural("a"), "title": "short"}, natural("b")])
    assert str(caught.value).startswith("line 2:")
    assert caught.value.field == "title"
    assert not Scenario.objects.exists()
