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
from trainer.models import AttemptItem, Drill, RuleProfile, RuleProfileVersion, Scenario


@dataclass(frozen=True)
class Rule:
    """One rule parameter: its label, and for a choice the words of each value."""

    key: str
    label: str
    help: str = ""
    # value (as stored) -> words; empty for a number, an amount or the chips.
    choices: tuple[tuple[Any, str], ...] = ()
    kind: str = "choice"  # choice | int | amount | chips
    low: int | None = None
    high: int | None = None
    optional: bool = False  # an int or amount that may be left empty (no limit, none)
    empty: str = ""  # the words of an empty value


YES_NO = ((True, "Yes"), (False, "No"))

# Every parameter of the engine's profiles (trainer.rules.PARAMETERS), in the order a table
# card reads, in words a dealer or pit manager uses.
RULES: tuple[Rule, ...] = (
    Rule(
        "blackjack_pays",
        "Blackjack pays",
        choices=(("3:2", "3 to 2"), ("6:5", "6 to 5"), ("1:1", "1 to 1 (even money)")),
    ),
    Rule(
        "dealer_hits_soft_17",
        "Soft 17",
        choices=((True, "Dealer hits soft 17"), (False, "Dealer stands on soft 17")),
    ),
    Rule(
        "hole_card",
        "Hole card",
        choices=(
            ("peek", "Dealer takes a hole card and peeks under an ace or a ten"),
            ("enhc", "No hole card: the dealer's second card comes after the players"),
        ),
    ),
    Rule(
        "insurance",
        "Insurance",
        choices=((True, "Offered, pays 2 to 1"), (False, "Not offered")),
    ),
    Rule(
        "even_money",
        "Even money on a blackjack against an ace",
        choices=((True, "Offered"), (False, "Not offered")),
    ),
    Rule(
        "surrender",
        "Surrender",
        choices=(("late", "Late surrender: half the stake back"), ("none", "No surrender")),
    ),
    Rule(
        "double_on",
        "Double down on",
        choices=(
            ("any", "Any first two cards"),
            ("9-11", "A first-two-card 9, 10 or 11"),
            ("10-11", "A first-two-card 10 or 11"),
        ),
    ),
    Rule("double_after_split", "Double after a split", choices=YES_NO),
    Rule("double_for_less", "Double for less than the stake", choices=YES_NO),
    Rule(
        "max_split_hands",
        "Most hands a box may split to",
        kind="int",
        low=1,
        high=52,
        optional=True,
        empty="No limit",
        help="Leave empty for no limit.",
    ),
    Rule(
        "split_unlike_tens",
        "Splitting tens",
        choices=(
            (True, "Any two ten-value cards"),
            (False, "Only tens of the same rank"),
        ),
    ),
    Rule("resplit_aces", "Resplitting aces", choices=((True, "Allowed"), (False, "Not allowed"))),
    Rule(
        "hit_split_aces",
        "Split aces",
        choices=((False, "Take one card each"), (True, "May be hit like any hand")),
    ),
    Rule(
        "bonus_777",
        "Three sevens bonus (times the stake)",
        kind="amount",
        optional=True,
        empty="No bonus",
        help="Leave empty for no bonus; e.g. 2 pays twice the stake, whatever the result.",
    ),
    Rule("min_bet", "Smallest bet", kind="amount"),
    Rule("max_bet", "Largest bet (for the whole box)", kind="amount"),
    Rule(
        "payout_unit",
        "Smallest chip a blackjack is paid in",
        kind="amount",
        help="A blackjack's winnings are rounded down to it.",
    ),
    Rule("decks", "Decks in the shoe", kind="int", low=1, high=8),
    Rule("burn", "Cards burned after the shuffle", kind="int", low=0, high=5),
    Rule("penetration_cards", "Cards left behind the cut card", kind="int", low=0, high=416),
    Rule("boxes", "Betting boxes on the table", kind="int", low=1, high=7),
    Rule(
        "settle_order",
        "Settling order",
        choices=(("right-to-left", "Right to left: the box on the dealer's right first"),),
    ),
    Rule(
        "chip_set",
        "Chips at the table",
        kind="chips",
        help="Every chip value, separated by commas: e.g. 1, 5, 25, 100.",
    ),
    Rule(
        "chip_rule",
        "Paying in chips",
        choices=(
            ("fewest", "The fewest chips, the larger chips first"),
            ("match", "The bet's colours for each whole bet, then the fewest chips"),
        ),
    ),
    Rule("change_chip", "Largest chip given for cash", kind="amount"),
)
RULE_OF: Mapping[str, Rule] = {rule.key: rule for rule in RULES}


def amount_words(value: object) -> str:
    """An amount as a table card writes it: 0.50, 5, 2.50."""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if not amount.is_finite():
        return str(value)
    return f"{amount:.2f}" if amount != amount.to_integral_value() else f"{amount:.0f}"


def rule_words(key: str, value: object) -> str:
    """A parameter's value in words."""
    rule = RULE_OF[key]
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


def rules_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[Change]:
    """What changes from one set of parameters to another, rule by rule, in words."""
    out = []
    for rule in RULES:
        old = rule_words(rule.key, (before or {}).get(rule.key))
        new = rule_words(rule.key, after.get(rule.key))
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
            changes = rules_changes(previous.parameters, version.parameters) if previous else []
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
