"""Reads for building drills and authoring scenarios (the workspace and the manager's API)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from core.errors import NotFoundError
from core.roles import Role, roles_of
from teaching.selectors.assignments import assignments_managed_by
from trainer.games import game_named, game_names
from trainer.models import (
    Assignment,
    Drill,
    DrillScenario,
    RuleProfile,
    RuleProfileVersion,
    Scenario,
)


def drills_for_managers(*, active: bool | None = None) -> QuerySet[Drill]:
    """Every drill with what its list shows: its profile, its scenarios' profiles and how
    many assignments use it, in a fixed number of queries however many drills there are."""
    drills = (
        Drill.objects.select_related("profile_version__profile", "certifies", "owner")
        .annotate(assignment_count=Count("assignments", distinct=True))
        .prefetch_related(
            Prefetch(
                "drill_scenarios",
                queryset=DrillScenario.objects.select_related(
                    "scenario__profile_version__profile"
                ).order_by("position"),
            )
        )
        .order_by("-is_active", "title", "pk")
    )
    if active is not None:
        drills = drills.filter(is_active=active)
    return drills


def drill_profile_titles(drill: Drill) -> list[str]:
    """The tables a drill deals at, by title: its recipe's, or its scenarios' (prefetched)."""
    if drill.profile_version is not None:
        profile = drill.profile_version.profile
        return [profile.title or profile.name]
    seen: list[str] = []
    for item in drill.drill_scenarios.all():
        profile = item.scenario.profile_version.profile
        title = profile.title or profile.name
        if title not in seen:
            seen.append(title)
    return seen


def drills_visible_to(
    *, user: AbstractBaseUser | AnonymousUser, drills: QuerySet[Drill] | None = None
) -> QuerySet[Drill]:
    """The drills this user may see and assign (security.md, *Class boundaries*): every
    drill for an administrator; for a pit boss, every drill but another class's: one that
    another pit boss made and gave to trainees of theirs one by one (a refresher made for one
    of their trainees, whose title and description speak of that trainee), with no
    assignment the viewer manages. A drill given to whole classes stays shared (the library
    a department builds together); the department's (no owner: the table tests) and one's
    own are always seen. Nobody else sees any drill here."""
    drills = drills_for_managers() if drills is None else drills
    held = roles_of(user)
    if Role.ADMIN in held:
        return drills
    if Role.PIT_BOSS not in held:
        return drills.none()
    personal = Assignment.objects.filter(drill=OuterRef("pk"), training_class__isnull=True)
    mine = assignments_managed_by(user=user).filter(drill=OuterRef("pk"))
    return drills.filter(
        Q(owner__isnull=True) | Q(owner=user.pk) | Exists(mine) | ~Exists(personal)
    )


def drill_get_for_viewer(*, drill_id: int, user: AbstractBaseUser | AnonymousUser) -> Drill:
    """The drill, if this user may see it (`drills_visible_to`); NotFoundError otherwise,
    the same answer as for a drill that does not exist."""
    drill = drills_visible_to(user=user).filter(pk=drill_id).first()
    if drill is None:
        raise NotFoundError("no such drill among yours", field="drill")
    return drill


def table_tests_missing(
    versions: Sequence[RuleProfileVersion], drills: Sequence[Drill]
) -> list[RuleProfileVersion]:
    """The versions no active table test among `drills` deals at yet (the ones to offer a
    table test for); `drills` hold every table test (they have no owner, so every manager
    sees them)."""
    having = {d.profile_version_id for d in drills if d.is_active and d.certifies_id}
    return [v for v in versions if v.pk not in having]


def drill_get_for_manager(*, drill_id: int) -> Drill:
    drill = drills_for_managers().filter(pk=drill_id).first()
    if drill is None:
        raise NotFoundError("no such drill", field="drill")
    return drill


def scenario_queryset_for_managers() -> QuerySet[Scenario]:
    """Every scenario, every revision, by title."""
    return Scenario.objects.select_related("profile_version__profile").order_by("title", "slug")


def scenarios_for_managers(
    *, profile: RuleProfile | None = None, skill: str | None = None, active: bool = True
) -> list[Scenario]:
    """The library, by title: optionally of one profile and exercising one skill."""
    scenarios = scenario_queryset_for_managers()
    if active:
        scenarios = scenarios.filter(is_active=True)
    if profile is not None:
        scenarios = scenarios.filter(profile_version__profile=profile)
    # Skills are a JSON list; "contains" on JSON is not portable to SQLite, so filter here.
    return [s for s in scenarios if skill is None or skill in s.skills]


def scenario_get_for_manager(*, scenario_id: int) -> Scenario:
    scenario = (
        Scenario.objects.select_related("profile_version__profile", "supersedes")
        .filter(pk=scenario_id)
        .first()
    )
    if scenario is None:
        raise NotFoundError("no such scenario", field="scenario")
    return scenario


def scenarios_by_ids(ids: Sequence[int]) -> list[Scenario]:
    """Active scenarios in the order of `ids` (unknown or superseded ones are left out)."""
    found = Scenario.objects.select_related("profile_version__profile").in_bulk(list(ids))
    return [found[i] for i in ids if i in found and found[i].is_active]


def current_versions() -> list[RuleProfileVersion]:
    """Each rule profile's version in force (not one scheduled for a later day), by the
    profile's title (RuleProfile.version_in_effect)."""
    profiles = RuleProfile.objects.prefetch_related("versions").order_by("title", "name")
    now = timezone.now()
    out = []
    for profile in profiles:
        versions = sorted(
            (v for v in profile.versions.all() if v.effective_from <= now),
            key=lambda v: (v.effective_from, v.version),
        )
        if versions:
            out.append(versions[-1])
    return out


def library_profiles() -> QuerySet[RuleProfile]:
    """The profiles a library scenario may name: those their game ships (knows by name)."""
    shipped = Q(pk__in=[])
    for name in game_names():
        shipped |= Q(game=name, name__in=list(game_named(name).shipped_profiles))
    return RuleProfile.objects.filter(shipped).order_by("title", "name")


@dataclass(frozen=True)
class RoundPreview:
    """A round as its first question shows it, and its answer key (for the author)."""

    view: dict[str, Any]
    box: int | None
    hand: int | None
    questions: list[dict[str, Any]]


def round_preview(document: dict[str, Any], *, game: str | None = None) -> RoundPreview:
    """What a trainee sees at the round's first question; the whole key beside it."""
    questions = game_named(game).answer_key(document)
    first = questions[0] if questions else {"view": {}, "box": None, "hand": None}
    return RoundPreview(
        view=first["view"], box=first.get("box"), hand=first.get("hand"), questions=questions
    )


def rules_shown(document: dict[str, Any], version: RuleProfileVersion) -> RuleProfileVersion:
    """The rules a round is dealt under, as its table's placard and house rules show them:
    `version` with the round's own rule changes on top (the same as
    `trainer.selectors.attempts.round_rules` gives the trainee's table), unsaved."""
    stated = document.get("rules")
    changes = stated.get("overrides") if isinstance(stated, dict) else None
    if not changes:
        return version
    return RuleProfileVersion(
        profile=version.profile,
        version=version.version,
        parameters={**version.parameters, **changes},
        source=version.source,
    )


def table_names() -> dict[str, str]:
    """Each rule profile's name and the title a person reads for it."""
    return {name: title or name for name, title in RuleProfile.objects.values_list("name", "title")}


def profiles_without_hole_card() -> list[int]:
    """The library's tables whose dealer takes no hole card at the deal (European)."""
    # The round editor's rule (blackjack's), as the table's game ships it.
    return [
        p.pk
        for p in library_profiles()
        if game_named(p.game).shipped_profiles[p.name].get("hole_card") == "enhc"
    ]


def scenarios_listed() -> QuerySet[Scenario]:
    """The active library as the scenario list pages it, by title (filters apply on top)."""
    return scenario_queryset_for_managers().filter(is_active=True)
