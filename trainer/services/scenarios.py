"""The scenario library: validating, importing (with revisions) and exporting scenarios.

A library entry is a line ``{"difficulty": 1-5, "scenario": {blackjack-scenario/1}}``
(the engine refuses fields it does not know, so the difficulty stays outside the
document); a bare scenario document is accepted too, at difficulty 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from core.errors import ProductError, clip, echo
from trainer import strictjson
from trainer.games import DocumentError, Game, game_named, game_names
from trainer.labels import skill_codes
from trainer.models import RuleProfileVersion, Scenario

DEFAULT_DIFFICULTY = 2
# Room is left in the 100-character slug column for a superseded row's "--rN" suffix.
MAX_SLUG = 90
MAX_TITLE = Scenario._meta.get_field("title").max_length or 200


@dataclass
class ImportResult:
    """The rows an import touched, in the order of the documents."""

    scenarios: list[Scenario] = field(default_factory=list)
    created: list[Scenario] = field(default_factory=list)
    revised: list[Scenario] = field(default_factory=list)
    unchanged: list[Scenario] = field(default_factory=list)


@dataclass(frozen=True)
class _Entry:
    line: int
    document: dict[str, Any]
    difficulty: int


def _fail(line: int, message: str, *, field: str | None = None, code: str = "invalid") -> NoReturn:
    raise ProductError(f"line {line}: {message}", field=field, code=code)


def _entry(raw: object, line: int) -> _Entry:
    if not isinstance(raw, Mapping):
        _fail(line, "each entry must be a JSON object")
    if "scenario" in raw:
        unknown = sorted(set(raw) - {"scenario", "difficulty"})
        if unknown:
            name = str(unknown[0])
            _fail(line, f"unknown field {echo(name)} in the library entry", field=clip(name))
        document, difficulty = raw["scenario"], raw.get("difficulty", DEFAULT_DIFFICULTY)
    else:
        document, difficulty = raw, DEFAULT_DIFFICULTY
    if type(difficulty) is not int or not 1 <= difficulty <= 5:
        _fail(
            line,
            f"difficulty must be a whole number from 1 to 5, not {echo(difficulty)}",
            field="difficulty",
        )
    if not isinstance(document, Mapping):
        _fail(line, "scenario must be a JSON object", field="scenario")
    return _Entry(line, dict(document), difficulty)


def scenario_validate(
    *, document: Mapping[str, Any], line: int = 1, rule_changes: bool = False
) -> dict[str, Any]:
    """The settlement of a library scenario; ProductError naming the line, field and reason.

    Besides the engine's rules, a library scenario needs a slug `id`, a `title`, known
    `skills`, and its `rules` must name a profile. The shipped library names its tables'
    rules only (a different rule set is a new profile version); a round authored in the
    workspace may change some of its table's rules (`rule_changes`: the engine's
    `{"profile", "overrides"}`), and the table it is dealt at shows them.
    """
    game = document_game(document)
    try:
        settlement = game.validate(document)
    except DocumentError as err:
        # The game's message already starts with the box ("box 2: ...") when there is one.
        message = f"field {err.field or '(document)'} ({err.reason}): {err.message}"
        raise ProductError(
            f"line {line}: {message}", field=err.field or None, code=err.reason
        ) from err
    slug = document.get("id")
    if not isinstance(slug, str) or not slug or slugify(slug) != slug or len(slug) > MAX_SLUG:
        _fail(
            line,
            f"id must be a slug (lower-case letters, digits and hyphens, at most {MAX_SLUG} "
            f"characters), not {echo(slug)}",
            field="id",
        )
    title = document.get("title")
    if not isinstance(title, str) or not title.strip():
        _fail(line, "title is missing; a library scenario needs a title", field="title")
    if len(title) > MAX_TITLE:
        _fail(line, f"title is {len(title):,} characters; at most {MAX_TITLE}", field="title")
    skills = document.get("skills") or []
    # The skills of the game the library deals (its own, labelled through it).
    declared = skill_codes(game.name)
    unknown = [s for s in skills if s not in declared]
    if unknown or not skills:
        known = ", ".join(sorted(declared))
        what = f"unknown skill {echo(unknown[0])}" if unknown else "skills is empty"
        _fail(line, f"{what}; skills are {known}", field="skills")
    twice = next((s for k, s in enumerate(skills) if s in skills[:k]), None)
    if twice is not None:
        _fail(line, f"skill {twice!r} is listed twice", field="skills")
    stated = document.get("rules")
    changed = (
        rule_changes and isinstance(stated, Mapping) and isinstance(stated.get("profile"), str)
    )
    if not isinstance(stated, str) and not changed:
        _fail(
            line,
            "rules must name a profile; overrides are not accepted in the library "
            "(record a new profile version for a different rule set)",
            field="rules",
        )
    return settlement


def document_game(document: Mapping[str, Any]) -> Game:
    """The game a staged document is a round of: the one whose format it declares. A
    document declaring no format, or one no game the house runs reads, is refused at
    ``format`` with the formats the house accepts (no game is assumed)."""
    stated = document.get("format")
    formats = {game_named(name).scenario_format: name for name in game_names()}
    if isinstance(stated, str) and stated in formats:
        return game_named(formats[stated])
    accepted = ", ".join(repr(known) for known in sorted(formats))
    said = "format is missing" if stated is None else f"format {echo(stated)} is not one we deal"
    raise DocumentError(
        f"{said}; a scenario declares one of: {accepted}", field="format", reason="unknown_format"
    )


def profile_version_for(name: str, *, game: str) -> RuleProfileVersion | None:
    """The newest recorded version of the profile whose rules are those the game plays
    under that name, among those in force now or before (not one scheduled for a later
    day)."""
    played = game_named(game)
    shipped = played.shipped_profiles.get(name)
    if shipped is None:
        return None
    versions = RuleProfileVersion.objects.filter(
        profile__name=name, profile__game=played.name, effective_from__lte=timezone.now()
    ).order_by("-version")
    for version in versions:
        # Through the game, so a version recorded before a parameter existed (the chips)
        # compares with that parameter's default for this profile.
        try:
            recorded = played.profile_parameters(version.parameters, name=name)
        except DocumentError:
            continue
        if all(recorded.get(key) == value for key, value in shipped.items()):
            return version
    return None


def scenario_import_detailed(
    *,
    documents: Iterable[object],
    user: AbstractBaseUser | None = None,
    line_numbers: Sequence[int] | None = None,
) -> ImportResult:
    """Import library entries all or nothing; says which rows were created, revised or kept.

    A document identical to its slug's active row is kept as it is; a changed one becomes a
    new revision that supersedes (and deactivates) the old row, which is renamed
    ``slug--rN`` so the slug always finds the active revision.
    """
    entries = []
    seen: dict[str, int] = {}
    for k, raw in enumerate(documents):
        line = line_numbers[k] if line_numbers is not None else k + 1
        entry = _entry(raw, line)
        scenario_validate(document=entry.document, line=line)
        _check_columns(entry)
        slug = entry.document["id"]
        if slug in seen:
            _fail(line, f"id {slug!r} is already used on line {seen[slug]}", field="id")
        seen[slug] = line
        entries.append(entry)
    result = ImportResult()
    versions: dict[str, RuleProfileVersion] = {}
    with transaction.atomic():
        rows = Scenario.objects.select_for_update().filter(slug__in=list(seen))
        existing = {row.slug: row for row in rows}
        for entry in entries:
            doc = entry.document
            name = doc["rules"]
            if name not in versions:
                version = profile_version_for(name, game=document_game(doc).name)
                if version is None:
                    _fail(
                        entry.line,
                        f"no recorded version of profile {echo(name)} has the rules the engine "
                        "plays under that name",
                        field="rules",
                    )
                versions[name] = version
            scenario = _save(
                entry, versions[name], user, result, existing.get(entry.document["id"])
            )
            result.scenarios.append(scenario)
    return result


def _check_columns(entry: _Entry) -> None:
    """Every column's own limits (lengths, ranges), checked by the model before any write."""
    doc = entry.document
    row = Scenario(
        slug=doc["id"],
        title=doc["title"],
        skills=list(doc["skills"]),
        difficulty=entry.difficulty,
        document=doc,
    )
    try:
        row.clean_fields(exclude=["profile_version", "supersedes", "created_by"])
    except ValidationError as err:
        name, messages = next(iter(err.message_dict.items()))
        _fail(entry.line, f"{name}: {messages[0]}", field=name)


def _save(
    entry: _Entry,
    version: RuleProfileVersion,
    user: AbstractBaseUser | None,
    result: ImportResult,
    current: Scenario | None,
) -> Scenario:
    doc = entry.document
    slug = doc["id"]
    fields: dict[str, Any] = {
        "title": doc["title"],
        "skills": list(doc["skills"]),
        "difficulty": entry.difficulty,
        "profile_version": version,
        "game": version.profile.game,
        "document": doc,
        "created_by_id": user.pk if user is not None else None,
    }
    if current is None:
        created = Scenario.objects.create(slug=slug, **fields)
        result.created.append(created)
        return created
    if (
        current.document == doc
        and current.difficulty == entry.difficulty
        and current.profile_version_id == version.pk
        and current.is_active
    ):
        result.unchanged.append(current)
        return current
    current.slug = f"{slug}--r{current.revision}"
    current.is_active = False
    current.save(update_fields=["slug", "is_active"])
    revised = Scenario.objects.create(
        slug=slug,
        revision=current.revision + 1,
        supersedes=current,
        **fields,
    )
    result.revised.append(revised)
    return revised


def scenario_import(
    *,
    documents: Iterable[object],
    user: AbstractBaseUser | None = None,
    line_numbers: Sequence[int] | None = None,
) -> list[Scenario]:
    """The active scenario row of each document, importing them all or none."""
    return scenario_import_detailed(
        documents=documents, user=user, line_numbers=line_numbers
    ).scenarios


def scenario_entry(scenario: Scenario) -> dict[str, Any]:
    """The library line of a scenario: its difficulty and its document."""
    return {"difficulty": scenario.difficulty, "scenario": scenario.document}


def scenario_export(*, scenarios: Iterable[Scenario]) -> list[dict[str, Any]]:
    """Library entries for the scenarios, ready for `scenario_import`."""
    return [scenario_entry(s) for s in scenarios]


def scenario_entries_from_text(text: str) -> tuple[list[object], list[int]]:
    """Entries and their line numbers from a JSON array, one JSON object, or JSON Lines.

    ProductError names the line that is not JSON, or that nests deeper than
    strictjson.MAX_DEPTH (which Python's parser would answer with a RecursionError).
    """
    stripped = text.strip()
    if not stripped:
        raise ProductError("the file holds no scenarios")
    try:
        whole = strictjson.loads(stripped)
    except strictjson.JSONTooDeepError as err:
        skipped = text[: len(text) - len(text.lstrip())].count("\n")
        raise _too_deep(err, skipped + err.lineno) from err
    except ValueError:
        whole = None
    else:
        if isinstance(whole, list):
            return whole, [k + 1 for k in range(len(whole))]
        if isinstance(whole, dict):
            return [whole], [text[: text.index("{")].count("\n") + 1]
        raise ProductError("the file must hold a JSON object, an array of them, or JSON Lines")
    entries: list[object] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entries.append(strictjson.loads(line))
        except strictjson.JSONTooDeepError as err:
            raise _too_deep(err, number) from err
        except ValueError as err:
            raise ProductError(f"line {number}: not valid JSON: {err}", code="bad_json") from err
        lines.append(number)
    return entries, lines


def _too_deep(err: strictjson.JSONTooDeepError, line: int) -> ProductError:
    return ProductError(
        f"line {line}: JSON nested deeper than {err.limit} levels (column {err.colno})",
        code="too_deep",
    )
