"""Authoring library scenarios one at a time (the workspace and the API): a new scenario,
or a new revision of one. A revision supersedes the row it corrects, which is kept as it
was (attempts dealt from it, and their grades, still point at it): never an edit in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from core.errors import ConflictError, ForbiddenError, ProductError, echo
from core.roles import Role, has_role
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.models import DrillScenario, RuleProfileVersion, Scenario
from trainer.selectors.runs import scenario_revision_chain
from trainer.services.scenarios import (
    MAX_SLUG,
    _check_columns,
    _Entry,
    document_game,
    profile_version_for,
    scenario_validate,
)


def _may_author(user: AbstractBaseUser) -> None:
    if not has_role(user, Role.PIT_BOSS, Role.ADMIN):
        raise ForbiddenError("only a pit boss or an administrator may author scenarios")


def _may_revise(user: AbstractBaseUser, scenario: Scenario) -> None:
    """A revision changes what every drill dealing any revision of the scenario is graded
    against at its next regrade (grading.basis replays the newest revision): so only an
    administrator, or the scenario's author while no drill but their own deals it."""
    _may_author(user)
    if has_role(user, Role.ADMIN):
        return
    chain = scenario_revision_chain(scenario=scenario)
    if chain[0].created_by_id != user.pk:
        raise ForbiddenError("only the scenario's author or an administrator may revise it")
    others = DrillScenario.objects.filter(scenario__in=chain).exclude(drill__owner_id=user.pk)
    if others.exists():
        raise ForbiddenError(
            "another pit boss's drill or a table test deals this scenario: a revision would "
            "change how that drill is graded, so an administrator revises it"
        )


def _difficulty(value: object) -> int:
    if type(value) is not int or not 1 <= value <= 5:
        raise ProductError(
            f"difficulty must be a whole number from 1 to 5, not {echo(value)}",
            field="difficulty",
        )
    return value


def _checked(document: Mapping[str, Any], difficulty: int) -> tuple[dict[str, Any], int]:
    """The document as it will be stored, and its difficulty, once the engine and the
    library's own rules accept them; ProductError names the field at fault."""
    if not isinstance(document, Mapping):
        raise ProductError("the scenario must be a JSON object", field="document")
    level = _difficulty(difficulty)
    doc = dict(document)
    scenario_validate(document=doc, rule_changes=True)
    _check_columns(_Entry(1, doc, level))
    return doc, level


def _version(doc: Mapping[str, Any]) -> RuleProfileVersion:
    # A round that changes some rules is filed under the table whose rules it starts from.
    rules_stated = doc["rules"]
    name = rules_stated.get("profile") if isinstance(rules_stated, Mapping) else rules_stated
    if not isinstance(name, str):
        raise ProductError("rules must name a table", field="rules")
    version = profile_version_for(name, game=document_game(doc).name)
    if version is None:
        raise ProductError(
            f"no recorded version of profile {echo(name)} has the rules the engine plays under "
            "that name",
            field="rules",
        )
    return version


def scenario_slug_free(title: str) -> str:
    """A slug for a new scenario from its title, not yet used by any row."""
    base = (slugify(title) or "scenario")[: MAX_SLUG - 4].strip("-") or "scenario"
    taken = set(Scenario.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _record(event: Event, scenario: Scenario, user: AbstractBaseUser) -> None:
    ledger_append(
        event=event,
        subject_type=Subject.SCENARIO,
        subject_id=scenario.pk,
        payload={
            "slug": scenario.slug,
            "revision": scenario.revision,
            "supersedes": scenario.supersedes_id,
            "difficulty": scenario.difficulty,
            "profile_version": scenario.profile_version_id,
            "document": scenario.document,
        },
        actor=user,
    )


def scenario_create(
    *, document: Mapping[str, Any], user: AbstractBaseUser, difficulty: int = 2
) -> Scenario:
    """A new library scenario. Without an `id` the document gets a free slug from its
    title; an `id` already used is refused (correct a scenario with `scenario_revise`)."""
    _may_author(user)
    doc = dict(document) if isinstance(document, Mapping) else document
    if isinstance(doc, dict) and not doc.get("id"):
        doc["id"] = scenario_slug_free(str(doc.get("title") or ""))
    doc, level = _checked(doc, difficulty)
    version = _version(doc)
    with transaction.atomic():
        if Scenario.objects.filter(slug=doc["id"]).exists():
            raise ConflictError(
                f"a scenario {echo(doc['id'])} exists already: save a revision of it instead",
                field="id",
            )
        scenario = Scenario.objects.create(
            slug=doc["id"],
            title=doc["title"],
            skills=list(doc["skills"]),
            difficulty=level,
            profile_version=version,
            game=version.profile.game,
            document=doc,
            created_by_id=user.pk,
        )
        _record(Event.SCENARIO_CREATED, scenario, user)
    return scenario


def _not_latest() -> ConflictError:
    return ConflictError(
        "this is not the latest revision: open the newest one and revise that",
        field="scenario",
    )


def scenario_revise(
    *,
    scenario: Scenario,
    document: Mapping[str, Any],
    user: AbstractBaseUser,
    difficulty: int | None = None,
) -> Scenario:
    """A new revision superseding `scenario` (the latest one: revising an older revision
    would fork its history), by an administrator, or by its author while only their own
    drills deal it (`_may_revise`). The old row is kept, renamed ``slug--rN`` and inactive, so
    the slug always finds the newest revision. An unchanged document is refused."""
    _may_revise(user, scenario)
    if not scenario.is_active:
        raise _not_latest()
    doc = dict(document) if isinstance(document, Mapping) else document
    if isinstance(doc, dict):
        # A revision keeps its scenario's name: the slug is what drills and imports know.
        doc["id"] = scenario.slug
    level = scenario.difficulty if difficulty is None else difficulty
    doc, level = _checked(doc, level)
    version = _version(doc)
    with transaction.atomic():
        current = Scenario.objects.select_for_update().get(pk=scenario.pk)
        if not current.is_active:
            raise _not_latest()
        if (
            current.document == doc
            and current.difficulty == level
            and current.profile_version_id == version.pk
        ):
            raise ProductError("nothing changed: the revision would be the same scenario")
        slug = current.slug
        current.slug = f"{slug}--r{current.revision}"
        current.is_active = False
        current.save(update_fields=["slug", "is_active"])
        revised = Scenario.objects.create(
            slug=slug,
            title=doc["title"],
            skills=list(doc["skills"]),
            difficulty=level,
            profile_version=version,
            game=version.profile.game,
            document=doc,
            revision=current.revision + 1,
            supersedes=current,
            created_by_id=user.pk,
        )
        _record(Event.SCENARIO_REVISED, revised, user)
    return revised
