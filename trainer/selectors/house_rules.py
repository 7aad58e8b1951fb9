"""House rules as an administrator reads them: every rule parameter in a pit manager's words,
what a new version changes against the one before it, and each table with its versions
(in force, scheduled, earlier) and the records made under each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count
from django.utils import timezone

from core.errors import NotFoundError
from trainer.games import game_named
from trainer.games.authoring import Parameter
from trainer.models import AttemptItem, Drill, RuleProfile, RuleProfileVersion, Scenario

# One rule of a table, as its game declares it (trainer.games.authoring.Parameter).
Rule = Parameter


def table_rules(game: str) -> tuple[Rule, ...]:
    """Every rule a table of the game is set with, in the order a table card reads."""
    return tuple(game_named(game).parameters)


def rule_of(game: str) -> dict[str, Rule]:
    """The game's rules by key."""
    return {rule.key: rule for rule in table_rules(game)}


def amount_words(value: object) -> str:
    """An amount as a table card writes it: 0.50, 5, 2.50."""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if not amount.is_finite():
        return str(value)
    return f"{amount:.2f}" if amount != amount.to_integral_value() else f"{amount:.0f}"


def rule_words(key: str, value: object, *, game: str) -> str:
    """A parameter's value in words."""
    rule = rule_of(game)[key]
    if value is None or value == "":
        return rule.empty or "None"
    if rule.kind == "choice":
        return dict(rule.choices).get(value, str(value))
    if rule.kind == "amount":
        return amount_words(value)
    if rule.kind == "chips" and isinstance(value, list | tuple):
        return ", ".join(amount_words(chip) for chip in value)
    return str(value)


@dataclass(frozen=True)
class Change:
    label: str
    before: str
    after: str


def rules_changes(
    before: Mapping[str, Any] | None, after: Mapping[str, Any], *, game: str
) -> list[Change]:
    """What changes from one set of parameters to another, rule by rule, in words."""
    out = []
    for rule in table_rules(game):
        old = rule_words(rule.key, (before or {}).get(rule.key), game=game)
        new = rule_words(rule.key, after.get(rule.key), game=game)
        if before is None or old != new:
            out.append(Change(rule.label, old if before is not None else "", new))
    return out


@dataclass
class VersionRow:
    version: RuleProfileVersion
    status: str  # "in force" | "scheduled" | "earlier"
    # What was made under it, and keeps it: rounds dealt, drills, scenarios.
    made: tuple[int, int, int] = (0, 0, 0)
    changes: list[Change] = field(default_factory=list)

    @property
    def records(self) -> int:
        return sum(self.made)

    @property
    def rounds(self) -> int:
        return self.made[0]

    @property
    def drills(self) -> int:
        return self.made[1]

    @property
    def scenarios(self) -> int:
        return self.made[2]

    @property
    def created_by(self) -> AbstractBaseUser | None:
        return self.version.created_by


@dataclass
class TableRow:
    profile: RuleProfile
    versions: list[VersionRow]

    @property
    def title(self) -> str:
        return self.profile.title or self.profile.name

    @property
    def current(self) -> RuleProfileVersion | None:
        return next((v.version for v in self.versions if v.status == "in force"), None)

    @property
    def scheduled(self) -> list[VersionRow]:
        return [v for v in self.versions if v.status == "scheduled"]


def _counts(model: Any, versions: list[int]) -> dict[int, int]:
    rows = (
        model.objects.filter(profile_version__in=versions)
        .values("profile_version")
        .annotate(n=Count("pk"))
        .order_by()  # no Meta ordering: it would join the attempts for nothing
    )
    return {row["profile_version"]: row["n"] for row in rows}


def _rows(profiles: list[RuleProfile]) -> list[TableRow]:
    now = timezone.now()
    ids = [v.pk for p in profiles for v in p.versions.all()]
    counts = [_counts(model, ids) for model in (AttemptItem, Drill, Scenario)]
    tables = []
    for profile in profiles:
        ordered = sorted(profile.versions.all(), key=lambda v: (v.effective_from, v.version))
        started = [v for v in ordered if v.effective_from <= now]
        current = started[-1] if started else None
        rows: list[VersionRow] = []
        previous: RuleProfileVersion | None = None
        for version in ordered:
            if version is current:
                status = "in force"
            elif version.effective_from > now:
                status = "scheduled"
            else:
                status = "earlier"
            rounds, drills, scenarios = (count.get(version.pk, 0) for count in counts)
            changes = (
                rules_changes(previous.parameters, version.parameters, game=profile.game)
                if previous
                else []
            )
            rows.append(VersionRow(version, status, (rounds, drills, scenarios), changes))
            previous = version
        rows.reverse()  # the newest first
        tables.append(TableRow(profile, rows))
    return tables


def house_rule_tables() -> list[TableRow]:
    """Every table with its versions, newest first, by title."""
    profiles = list(
        RuleProfile.objects.prefetch_related("versions__created_by").order_by("title", "name")
    )
    return _rows(profiles)


def house_rule_table(*, name: str) -> TableRow:
    profile = RuleProfile.objects.prefetch_related("versions__created_by").filter(name=name).first()
    if profile is None:
        raise NotFoundError("no such table", field="table")
    return _rows([profile])[0]


def profile_get(*, name: str) -> RuleProfile:
    profile = RuleProfile.objects.filter(name=name).first()
    if profile is None:
        raise NotFoundError("no such table", field="table")
    return profile


def preview_version(profile: RuleProfile, parameters: Mapping[str, Any]) -> RuleProfileVersion:
    """An unsaved version with these parameters: its card (house_rules) and placard are
    the ones the trainee's table and the table cards will show."""
    return RuleProfileVersion(profile=profile, version=0, parameters=dict(parameters))
