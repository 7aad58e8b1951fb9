"""The table cards: each rule profile's whole house rule, as printed for the table."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from core.errors import NotFoundError
from trainer.models import RuleProfile, RuleProfileVersion


@dataclass(frozen=True)
class TableCard:
    name: str
    title: str
    version: int
    rules: list[str]


def _card(profile: RuleProfile, version: RuleProfileVersion) -> TableCard:
    return TableCard(
        name=profile.name,
        title=profile.title or profile.name,
        version=version.version,
        rules=version.house_rules,
    )


def table_cards() -> list[TableCard]:
    """Every table's card, under its current rule version, by title."""
    profiles = RuleProfile.objects.prefetch_related("versions").order_by("title", "name")
    cards = []
    now = timezone.now()
    for profile in profiles:
        # The rules in force (RuleProfile.version_in_effect), not one scheduled for later.
        versions = sorted(
            (v for v in profile.versions.all() if v.effective_from <= now),
            key=lambda v: (v.effective_from, v.version),
        )
        if versions:
            cards.append(_card(profile, versions[-1]))
    return cards


def table_card_get(*, name: str) -> TableCard:
    profile = RuleProfile.objects.filter(name=name).first()
    version = profile.current_version if profile is not None else None
    if profile is None or version is None:
        raise NotFoundError("no such table", field="table")
    return _card(profile, version)
