"""Reads of the scenario library."""

from __future__ import annotations

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
