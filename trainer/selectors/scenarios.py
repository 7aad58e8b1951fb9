"""Reads of the scenario library."""

from __future__ import annotations

from collections.abc import Sequence

from trainer.errors import NotFoundError
from trainer.models import Scenario


def scenario_list(
    *, profile: str | None = None, skill: str | None = None, active: bool = True
) -> list[Scenario]:
    """The library's scenarios by slug, optionally of one profile or exercising one skill."""
    scenarios = Scenario.objects.select_related("profile_version__profile").order_by("slug")
    if active:
        scenarios = scenarios.filter(is_active=True)
    if profile:
        scenarios = scenarios.filter(profile_version__profile__name=profile)
    # Skills are a JSON list; "contains" on JSON is not portable to SQLite, so filter here.
    return [s for s in scenarios if skill is None or skill in s.skills]


def scenario_get(*, slug: str) -> Scenario:
    """The active scenario with this slug; NotFoundError when there is none."""
    found = Scenario.objects.filter(slug=slug, is_active=True).first()
    if found is None:
        raise NotFoundError(f"no active scenario {slug!r}", field="slug")
    return found


def scenarios_by_slugs(*, slugs: Sequence[str]) -> list[Scenario]:
    """The active scenarios with these slugs, in the order given; names the first missing."""
    found = {s.slug: s for s in Scenario.objects.filter(slug__in=slugs, is_active=True)}
    missing = [slug for slug in slugs if slug not in found]
    if missing:
        raise NotFoundError(f"no active scenario {missing[0]!r}", field="scenarios")
    return [found[slug] for slug in slugs]
