"""The compliance self-check: what this installation keeps and enforces, line by line,
against the jurisdiction it follows (audit.authority), each line met or not met."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model

from audit.authority import (
    Jurisdiction,
    Rank,
    SignedForm,
    authority_refusal,
    jurisdiction_in_force,
)
from audit.certification import CertificationRule, configured_valid_months, profile_label
from audit.models import Certification
from audit.selectors.authority import authority_of, signer_profiles_in_force
from trainer.models import Drill, DrillPurpose


@dataclass(frozen=True)
class CheckLine:
    """One thing a regulator looks for: what the jurisdiction requires, what the
    installation does, and whether that meets it."""

    topic: str
    required: str
    kept: str
    met: bool


@dataclass(frozen=True)
class SelfCheck:
    jurisdiction: Jurisdiction
    lines: list[CheckLine]

    @property
    def all_met(self) -> bool:
        return all(line.met for line in self.lines)


def _retention(j: Jurisdiction) -> CheckLine:
    years = int(settings.RETENTION_YEARS)
    cert = str(getattr(settings, "SHOESCHOOL_CERT_RETENTION", "indefinite"))
    cert_years = None if cert == "indefinite" else int(cert)
    met = years >= j.retention_years and (cert_years is None or cert_years >= j.retention_years)
    cert_words = "for as long as the personnel file" if cert_years is None else f"{cert} years"
    return CheckLine(
        topic="Retention",
        required=f"at least {j.retention_years} years ({j.retention_basis})",
        kept=f"decisions, grades and the ledger {years} years; certification records {cert_words}",
        met=met,
    )


def _validity(j: Jurisdiction) -> CheckLine:
    months = CertificationRule.from_settings().valid_months
    source = "SHOESCHOOL_CERT_VALID_MONTHS" if configured_valid_months() else "the jurisdiction's"
    return CheckLine(
        topic="How long a certification lasts",
        required=f"at most {j.validity_months} months ({j.validity_basis})",
        kept=f"{months} months ({source})",
        met=months <= j.validity_months,
    )


def _signers(j: Jurisdiction, form: SignedForm, topic: str) -> CheckLine:
    people = list(get_user_model().objects.filter(is_active=True, signer_profiles__isnull=False))
    profiles = signer_profiles_in_force(person_ids=[p.pk for p in people])
    able = [
        p
        for p in people
        if authority_refusal(form=form, authority=authority_of(profiles.get(p.pk)), jurisdiction=j)
        is None
    ]
    return CheckLine(
        topic=topic,
        required=f"{j.rank_for(form).words} or higher, with a licence number ({j.rank_basis})",
        kept=(
            f"every signature checked against that rank; {len(able)} active "
            f"{'person' if len(able) == 1 else 'people'} on file may sign one"
        ),
        met=bool(able),
    )


def _signed_below(j: Jurisdiction) -> CheckLine:
    """Certifications in force signed with no rank on file, or below the rank."""
    needed = j.rank_for(SignedForm.CERTIFICATION)
    rows = Certification.objects.filter(withdrawn=False, corrections__isnull=True)
    below = [
        c
        for c in rows.only("signer_rank")
        if not c.signer_rank or not Rank(c.signer_rank).at_least(needed)
    ]
    return CheckLine(
        topic="Certifications on file",
        required="each signed by full name, rank and licence number at or above the rank",
        kept=(
            "every one does"
            if not below
            else f"{len(below)} signed with no rank stated or below it (signed before ranks "
            "were recorded, or under another jurisdiction's rule)"
        ),
        met=not below,
    )


def _topics(j: Jurisdiction) -> list[CheckLine]:
    tests = list(
        Drill.objects.filter(
            purpose=DrillPurpose.EXAM, certifies__isnull=False, is_active=True
        ).select_related("certifies")
    )
    lines = []
    for topic in j.topics:
        covering = sorted(
            {
                profile_label(d.certifies)
                for d in tests
                if d.certifies is not None
                and d.game == topic.game
                and set(d.skills) & set(topic.skills)
            }
        )
        lines.append(
            CheckLine(
                topic=f"Topic: {topic.words}",
                required="covered by a table test",
                kept=("covered by the table tests of " + ", ".join(covering))
                if covering
                else "no active table test covers it",
                met=bool(covering),
            )
        )
    return lines


def self_check() -> SelfCheck:
    j = jurisdiction_in_force()
    lines = [
        _retention(j),
        _validity(j),
        _signers(j, SignedForm.CERTIFICATION, "Who signs a certification"),
        _signers(j, SignedForm.PRACTICAL_SHEET, "Who signs a practical evaluation sheet"),
        _signed_below(j),
        CheckLine(
            topic="Signatures",
            required=j.signature,
            kept="full name (refused without a first and last name), rank and licence number, "
            "after the signer re-enters their password",
            met=True,
        ),
        CheckLine(
            topic="The practical test",
            required="a table test per game, observed live"
            if j.practical_required
            else "not required",
            kept="a certification needs a passed practical evaluation sheet at its table, "
            "checked again at sign-off (unless the table's sheet says none is required)",
            met=True,
        ),
        CheckLine(
            topic="Records",
            required=j.records,
            kept="signed rows never edited (a correction is a new signed row), each in the "
            "hash-chained ledger; the training record PDF per trainee on demand",
            met=True,
        ),
        *_topics(j),
    ]
    return SelfCheck(jurisdiction=j, lines=lines)
