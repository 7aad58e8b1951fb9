"""The rows of a trainee's certification section and sign-off page: each graded sitting
with what a sign-off on it would meet (and whether its table still waits on the practical
test), and each certification or withdrawal with its signature as stated."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from django.utils import timezone

from audit.authority import signature_text
from audit.certification import profile_label
from audit.models import Certification
from audit.selectors import pit as audit_selectors
from audit.services import practical
from audit.web.pit_common import NO_FIGURE, day, minute, role_label
from core.durations import duration_text
from trainer.models import RuleProfile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class SittingRow:
    """A graded exam sitting, with what a sign-off on it would meet."""

    attempt_id: int
    title: str
    table: str
    table_name: str
    sat: str
    score: str
    passed: bool
    mean: str
    rounds: int
    refusals: list[str]
    fast: str | None
    # Why the table cannot be certified yet for want of a passed practical sheet.
    practical: str | None = None

    @property
    def label(self) -> str:
        """The sitting as the sign-off's choice reads it."""
        # A table test's title names its table already ("Table test: Six-deck shoe").
        named = self.title if self.table in self.title else f"{self.title} ({self.table})"
        return f"{named}: {self.score}, {self.rounds} scenarios, mean {self.mean}, sat {self.sat}"


def sitting_row(sitting: audit_selectors.Sitting) -> SittingRow:
    proof, drill = sitting.evidence, sitting.drill
    return SittingRow(
        attempt_id=proof.attempt_id,
        title=drill.title,
        table=profile_label(drill.certifies) if drill.certifies else NO_FIGURE,
        table_name=drill.certifies.name if drill.certifies else "",
        sat=minute(proof.submitted_at or proof.graded_at),
        score=NO_FIGURE if proof.score is None else f"{proof.score} %",
        passed=proof.passed is True,
        mean=NO_FIGURE if proof.mean_ms is None else duration_text(proof.mean_ms, "ms"),
        rounds=proof.rounds,
        refusals=[r.text for r in sitting.check.refusals],
        fast=sitting.check.fast,
    )


@dataclass(frozen=True)
class SignatureRow:
    """A certification or a withdrawal as the certification section lists it."""

    certification: Certification
    table: str
    role: str
    signature: str
    signed: str
    expires: str
    expired: bool
    withdrawn_by: Certification | None


def signature_row(cert: Certification) -> SignatureRow:
    withdrawals = [c for c in cert.corrections.all() if c.withdrawn]
    return SignatureRow(
        certification=cert,
        table=profile_label(cert.profile),
        role=role_label(cert.signer_role),
        signature=signature_text(cert.signer_full_name, cert.signer_rank, cert.signer_licence),
        signed=f"{minute(cert.signed_at)} {timezone.get_current_timezone_name()}",
        expires=day(cert.expires_at) if cert.expires_at else "",
        expired=cert.expires_at is not None and cert.expires_at <= timezone.now(),
        withdrawn_by=withdrawals[0] if withdrawals else None,
    )


def with_practical(trainee: User, sittings: list[audit_selectors.Sitting]) -> list[SittingRow]:
    """The sittings' rows, each that could back a certification marked with why its table
    still waits on the practical test (one check per table, on the table the drill
    certifies as read with it)."""
    waits: dict[int, str | None] = {}
    rows = []
    for sitting in sittings:
        row, table = sitting_row(sitting), sitting.drill.certifies
        if table is not None and not row.refusals:
            if table.pk not in waits:
                waits[table.pk] = practical.practical_refusal(trainee=trainee, profile=table)
            row = replace(row, practical=waits[table.pk])
        rows.append(row)
    return rows


def practical_words(trainee: User, ready: SittingRow | None) -> str | None:
    """Why the ready sitting's table cannot be certified yet for want of a passed practical
    sheet (None: it has one, or needs none), said before the signer tries."""
    profile = RuleProfile.objects.filter(name=ready.table_name).first() if ready else None
    if profile is None:
        return None
    return practical.practical_refusal(trainee=trainee, profile=profile)
