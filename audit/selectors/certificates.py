"""What the public verify page and the credentials say of a certificate.

`certificate_standing(code)` answers for a typed code: None when no certificate has it
(whatever was typed: the page says only that), else its `Standing`. The certification
and its corrections are checked against the ledger first (as a sign-off is: the rows'
vouches): a row that differs from what the ledger recorded makes the standing
UNVERIFIABLE, and the page names nothing of it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from django.utils import timezone

from audit.authority import rank_label, signature_text
from audit.certification import profile_label
from audit.models import Certificate, Certification, PracticalSheet
from core.errors import NotFoundError
from core.roles import Role
from ledger.services.vouch_check import vouch_problems
from trainer.games import game_named
from trainer.selectors import visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class State(StrEnum):
    VALID = "valid"
    EXPIRED = "expired"
    WITHDRAWN = "withdrawn"
    SUPERSEDED = "superseded"  # a later signed correction took its place
    UNVERIFIABLE = "unverifiable"  # its rows differ from the ledger


@dataclass(frozen=True)
class Standing:
    state: State
    certificate: Certificate
    trainee_name: str = ""
    game: str = ""
    table: str = ""
    signer_name: str = ""
    # The signer's rank in words (their role's for a row older than ranks): the public
    # page's "Signed by"; `signature` adds the licence number for the PDF and credential.
    signer_role: str = ""
    signature: str = ""
    signed_at: dt.datetime | None = None
    expires_at: dt.datetime | None = None
    # When it was withdrawn or superseded (the correction's signature).
    ended_at: dt.datetime | None = None


def certificate_standing(code: str | None) -> Standing | None:
    """The standing of the certificate with this stored-form code (None: no such one)."""
    certificate = (
        Certificate.objects.filter(code=code or "")
        .select_related("certification__trainee", "certification__profile")
        .first()
    )
    if certificate is None:
        return None
    return standing_of(certificate)


def standing_of(certificate: Certificate, *, now: dt.datetime | None = None) -> Standing:
    certification = certificate.certification
    corrections = list(
        Certification.objects.filter(corrects=certification).order_by("signed_at", "pk")
    )
    problems = [
        *vouch_problems(Certification, [certification.pk, *(c.pk for c in corrections)]),
        *vouch_problems(Certificate, [certificate.pk]),
    ]
    if problems:
        return Standing(state=State.UNVERIFIABLE, certificate=certificate)
    state, ended = _state(certification, corrections, now or _now())
    trainee = certification.trainee
    profile = certification.profile
    return Standing(
        state=state,
        certificate=certificate,
        trainee_name=trainee.get_full_name() or trainee.username,
        game=game_named(profile.game).title,
        table=profile_label(profile),
        signer_name=certification.signer_full_name,
        signer_role=rank_label(certification.signer_rank) or _role_words(certification.signer_role),
        signature=signer_words(
            certification.signer_full_name,
            certification.signer_role,
            certification.signer_rank,
            certification.signer_licence,
            licence=True,
        ),
        signed_at=certification.signed_at,
        expires_at=certification.expires_at,
        ended_at=ended,
    )


def _state(
    certification: Certification, corrections: list[Certification], now: dt.datetime
) -> tuple[State, dt.datetime | None]:
    withdrawals = [c for c in corrections if c.withdrawn]
    if withdrawals:
        return State.WITHDRAWN, withdrawals[0].signed_at
    if corrections:
        return State.SUPERSEDED, corrections[0].signed_at
    if certification.expires_at is not None and certification.expires_at <= now:
        return State.EXPIRED, None
    return State.VALID, None


def _now() -> dt.datetime:
    """Now (a function of its own so that tests can move the clock)."""
    return timezone.now()


def _role_words(value: str) -> str:
    try:
        return Role(value).label
    except ValueError:
        return ""


def signer_words(
    name: str, role: str, rank: str | None, licence_number: str | None, *, licence: bool = False
) -> str:
    """A certification's signer as a record states it: full name and rank (and, with
    ``licence``, the licence number); a row older than ranks keeps its role's words."""
    if rank_label(rank):
        return signature_text(name, rank, licence_number if licence else None)
    return ", ".join(part for part in (name, _role_words(role)) if part)


def practical_sheet_of(certification: Certification) -> PracticalSheet | None:
    """The passed practical evaluation sheet a certification rested on: the trainee's
    newest sheet at its table signed by then that no sheet signed by then corrected (as
    audit.services.practical.sheet_in_force found it at the sign-off); None when the table
    needed none, or for a withdrawal row (its original names it)."""
    original = certification.corrects or certification
    at = original.signed_at
    sheet = (
        PracticalSheet.objects.filter(
            trainee_id=original.trainee_id, profile_id=original.profile_id, signed_at__lte=at
        )
        .exclude(corrections__signed_at__lte=at)
        .order_by("-signed_at", "-pk")
        .first()
    )
    return sheet if sheet is not None and sheet.passed else None


def certification_get_for_reader(
    *, certification_id: int, user: AbstractBaseUser | AnonymousUser
) -> Certification:
    """The certification, if this user may read it: their own, or a trainee whose work
    they see (visibility.trainees_visible_to); NotFoundError otherwise."""
    found = (
        Certification.objects.select_related("trainee", "profile", "corrects")
        .filter(pk=certification_id)
        .first()
    )
    if found is None or not (
        found.trainee_id == user.pk
        or visibility.trainees_visible_to(user=user).filter(pk=found.trainee_id).exists()
    ):
        raise NotFoundError("no such certification among yours", field="certification")
    return found
