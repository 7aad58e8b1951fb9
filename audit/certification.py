"""The certification rule: what a table-test sitting must show before a pit boss may sign a
certification on it, what the signer must answer for, and how long a certification lasts.

Decisions over records already read, no queries: the sign-off service applies them before
it signs, and the pit's pages apply the same ones to say beforehand what would be refused.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings

from audit.authority import jurisdiction_in_force
from core.durations import duration_text
from trainer.selectors.blueprints import blueprint_shortfalls

if TYPE_CHECKING:
    from audit.models import Certification, RetrainingFlag
    from audit.selectors.evidence import AttemptEvidence
    from trainer.models import Drill, RuleProfile


def configured_valid_months() -> int | None:
    """The validity SHOESCHOOL_CERT_VALID_MONTHS sets, or None: the jurisdiction's."""
    months = getattr(settings, "SHOESCHOOL_CERT_VALID_MONTHS", None)
    return None if months is None else int(months)


def profile_label(profile: RuleProfile) -> str:
    """What a person reads for a rule profile: its title, its name only when it has none."""
    return profile.title or profile.name


def add_months(moment: datetime, months: int) -> datetime:
    """The same day and time ``months`` later; the month's last day when it is shorter
    (31 January + 1 month is 28 or 29 February)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, _days_in(year, month)))


def _days_in(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


@dataclass(frozen=True)
class CertificationRule:
    """What a table-test sitting must show before a pit boss may sign a certification on it.

    The defaults follow the training standard: at least 95 % right on an exam of at least
    50 scenarios, answered at a mean of under 10 seconds a question. A mean under
    1.5 seconds is faster than a dealer reads a table: the signer must say they checked
    it. A certification lasts as long as the jurisdiction in force says (audit.authority:
    12 months under the house's standard). Settings SHOESCHOOL_CERT_PASS_MARK,
    SHOESCHOOL_CERT_MIN_SCENARIOS, SHOESCHOOL_CERT_MAX_MEAN_SECONDS,
    SHOESCHOOL_CERT_MIN_MEAN_SECONDS and SHOESCHOOL_CERT_VALID_MONTHS change them (the
    last, when set, overrides the jurisdiction's validity; the compliance self-check says
    whether it is longer than the jurisdiction allows).
    """

    pass_mark: Decimal = Decimal("95")
    min_scenarios: int = 50
    max_mean_seconds: Decimal = Decimal("10")
    min_mean_seconds: Decimal = Decimal("1.5")
    valid_months: int = 12

    @classmethod
    def from_settings(cls) -> CertificationRule:
        return cls(
            pass_mark=Decimal(str(getattr(settings, "SHOESCHOOL_CERT_PASS_MARK", "95"))),
            min_scenarios=int(getattr(settings, "SHOESCHOOL_CERT_MIN_SCENARIOS", 50)),
            max_mean_seconds=Decimal(
                str(getattr(settings, "SHOESCHOOL_CERT_MAX_MEAN_SECONDS", "10"))
            ),
            min_mean_seconds=Decimal(
                str(getattr(settings, "SHOESCHOOL_CERT_MIN_MEAN_SECONDS", "1.5"))
            ),
            valid_months=configured_valid_months() or jurisdiction_in_force().validity_months,
        )

    @property
    def max_mean_ms(self) -> Decimal:
        return self.max_mean_seconds * 1000

    def shortfalls(
        self, evidence: AttemptEvidence, *, profile: str, label: str | None = None
    ) -> list[str]:
        """Why this sitting's figures cannot back a certification under ``profile`` (a
        profile's name; ``label`` is what the reader sees for it). Empty: they can."""
        label = label or profile
        found = []
        if evidence.mode != "exam":
            found.append(f"it is a {evidence.mode} attempt, not an exam")
        if evidence.passed is not True:
            found.append("the trainee did not pass it")
        if evidence.score is None or evidence.score < self.pass_mark:
            found.append(f"its score {evidence.score}% is under the pass mark {self.pass_mark}%")
        if evidence.rounds < self.min_scenarios:
            found.append(f"it dealt {evidence.rounds} scenarios, fewer than {self.min_scenarios}")
        if evidence.mean_ms is None or Decimal(str(evidence.mean_ms)) >= self.max_mean_ms:
            mean = "no" if evidence.mean_ms is None else duration_text(evidence.mean_ms, "ms")
            found.append(f"its mean response time ({mean}) is not under {self.max_mean_seconds} s")
        if evidence.profiles != (profile,):
            # The evidence holds the profiles' names, never shown: say how it differs.
            if len(evidence.profiles) > 1:
                found.append(
                    f"it mixes the rules of {len(evidence.profiles)} tables, not only {label}"
                )
            else:
                found.append(f"it was dealt under another table's rules, not {label}")
        return found

    def too_fast(self, evidence: AttemptEvidence) -> str | None:
        """The warning a signer must acknowledge when the answers came faster than a
        dealer can read a table (a mean under the floor), or None."""
        if evidence.mean_ms is None or Decimal(str(evidence.mean_ms)) >= (
            self.min_mean_seconds * 1000
        ):
            return None
        return (
            f"the answers came at a mean of {evidence.mean_ms / 1000:.2f} s a question, faster "
            f"than the plausible floor of {self.min_mean_seconds} s"
        )

    def expiry(self, signed_at: datetime) -> datetime:
        return add_months(signed_at, self.valid_months)


def table_test_shortfalls(*, drill: Drill, profile: RuleProfile | None) -> list[str]:
    """Why a sitting of ``drill`` was not sat under ``profile``'s table test (empty: it was).

    A certification rests only on a sealed exam that certifies that very profile and
    covers what its table needs; ``profile`` None asks about the drill's own profile.
    """
    certifies = drill.certifies if drill.certifies_id is not None else None
    if profile is not None and certifies is not None and certifies.pk != profile.pk:
        return [
            f"“{drill.title}” is the table test for {profile_label(certifies)}, "
            f"not for {profile_label(profile)}"
        ]
    label = profile_label(profile) if profile is not None else "any table"
    return [
        f"it was not sat under a table test of {label}: {s}"
        for s in blueprint_shortfalls(drill=drill)
    ]


@dataclass(frozen=True)
class Refusal:
    """One reason nothing can be signed, and the form field that answers it (if one does)."""

    text: str
    field: str = "attempt"


@dataclass(frozen=True)
class SignOffCheck:
    """What stands between a sitting and a certification on it.

    ``refusals`` stop it outright. ``flags`` (retraining flags in force) stop it unless
    the signer writes why they sign regardless; ``fast`` (a warning) stops it unless the
    signer acknowledges it.
    """

    refusals: tuple[Refusal, ...] = ()
    flags: tuple[RetrainingFlag, ...] = ()
    fast: str | None = None

    @property
    def signable(self) -> bool:
        """Signable once the signer answers the flags and the warning (if any)."""
        return not self.refusals

    def unanswered(self, *, override_reason: str, fast_acknowledged: bool) -> list[Refusal]:
        """Every reason nothing may be signed given what the signer wrote and ticked."""
        found = list(self.refusals)
        if self.flags and not override_reason:
            found.append(
                Refusal(
                    f"the trainee has {_flags_text(self.flags)} in force: lift it, or write "
                    "why you sign regardless in the override",
                    "override_reason",
                )
            )
        if self.fast and not fast_acknowledged:
            found.append(
                Refusal(
                    f"{self.fast}: tick the box to say you checked that the answers are the "
                    "trainee's own",
                    "acknowledge_fast",
                )
            )
        return found


def _flags_text(flags: Sequence[RetrainingFlag]) -> str:
    first = flags[0]
    raised = f"raised {first.created_at:%Y-%m-%d}: “{first.reason}”"
    if len(flags) == 1:
        return f"a retraining flag ({raised})"
    return f"{len(flags)} retraining flags (the newest {raised})"


def sign_off_check(
    *,
    rule: CertificationRule,
    evidence: AttemptEvidence,
    drill: Drill,
    profile: RuleProfile | None,
    certifications: Iterable[Certification],
    flags: Sequence[RetrainingFlag],
) -> SignOffCheck:
    """What stops a certification under ``profile`` (None: the drill's own) on this
    sitting, given the trainee's certifications (every row, signed and withdrawn) and
    retraining flags in force."""
    profile = profile if profile is not None else drill.certifies
    refusals = [Refusal(text) for text in table_test_shortfalls(drill=drill, profile=profile)]
    if profile is not None:
        refusals += [
            Refusal(text)
            for text in rule.shortfalls(
                evidence, profile=profile.name, label=profile_label(profile)
            )
        ]
    refusals += [Refusal(text) for text in _already_answered(evidence, profile, certifications)]
    return SignOffCheck(refusals=tuple(refusals), flags=tuple(flags), fast=rule.too_fast(evidence))


def _already_answered(
    evidence: AttemptEvidence, profile: RuleProfile | None, certifications: Iterable[Certification]
) -> list[str]:
    """A sitting backs one certification at most, and only one sat after the table's last
    signature: once signed (or withdrawn) what it showed is answered for."""
    found = []
    rows = list(certifications)
    withdrawals = {c.corrects_id: c for c in rows if c.withdrawn}
    used = [c for c in rows if c.attempt_id == evidence.attempt_id and not c.withdrawn]
    if used:
        first = min(used, key=lambda c: (c.signed_at, c.pk))
        text = (
            f"this sitting already backed the certification {first.signer_full_name} signed "
            f"on {first.signed_at:%Y-%m-%d}"
        )
        withdrawal = withdrawals.get(first.pk)
        if withdrawal is not None:
            text += (
                f", withdrawn on {withdrawal.signed_at:%Y-%m-%d}: the trainee sits the table "
                "test again"
            )
        found.append(text)
    elif profile is not None and evidence.submitted_at is not None:
        later = [
            c for c in rows if c.profile_id == profile.pk and c.signed_at >= evidence.submitted_at
        ]
        if later:
            last = max(later, key=lambda c: (c.signed_at, c.pk))
            what = "withdrew a certification" if last.withdrawn else "signed a certification"
            found.append(
                f"it was sat before {last.signer_full_name} {what} of this table on "
                f"{last.signed_at:%Y-%m-%d}: a new certification rests on a sitting after that"
            )
    return found
