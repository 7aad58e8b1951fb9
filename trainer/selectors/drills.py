"""Reads for building drills and authoring scenarios (the workspace and the manager's API)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from core.errors import NotFoundError
from trainer import rules
from trainer.games import game_named
from trainer.models import Drill, DrillScenario, RuleProfile, RuleProfileVersion, Scenario


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
    """The profiles a library scenario may name: those the engine knows by name."""
    return RuleProfile.objects.filter(name__in=list(rules.PROFILES)).order_by("title", "name")


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
        view=first["view"], box=first["box"], hand=first["hand"], questions=questions
    )
