"""The table cards: each rule profile's whole house rule, as printed for the table."""

from __future__ import annotations

from dataclasses import dataclass

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
    for profile in profiles:
        versions = sorted(profile.versions.all(), key=lambda v: v.version)
        if versions:
            cards.append(_card(profile, versions[-1]))
    return cards


def table_card_get(*, name: str) -> TableCard:
    profile = RuleProfile.objects.filter(name=name).first()
    version = profile.current_version if profile is not None else None
    if profile is None or version is None:
        raise NotFoundError("no such table", field="table")
    return _card(profile, version)
