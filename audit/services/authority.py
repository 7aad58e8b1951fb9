"""Signature authority: an administrator records a person's rank and licence or employee
number (``signer_profile_set``, a new row and a ledger entry each time), and every signing
service asks ``signature_authorised`` before it signs: the signer's rank against the rank
the jurisdiction in force requires for that form, and a licence number on file."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from audit.authority import (
    LICENCE_PATTERN,
    Rank,
    SignedForm,
    authority_refusal,
    jurisdiction_in_force,
)
from audit.models import SignerProfile
from audit.selectors.authority import authority_of, signer_profile_of
from core.errors import ForbiddenError, ProductError, echo
from core.roles import Role, has_role
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches
from ledger.services.vouch_check import vouch_problems

if TYPE_CHECKING:
    from django.contrib.auth.models import User

security_log = logging.getLogger("shoeschool.security")


def _rank_parsed(rank: str) -> Rank:
    try:
        return Rank(rank)
    except ValueError:
        choices = ", ".join(r.label.lower() for r in Rank)
        raise ProductError(
            f"{echo(rank)} is not a rank: choose one of {choices}", field="rank"
        ) from None


def _licence_parsed(licence_number: str) -> str:
    text = (licence_number or "").strip()
    if text and not LICENCE_PATTERN.match(text):
        raise ProductError(
            "a licence or employee number is up to 40 letters, digits, spaces, dots, "
            "hyphens or slashes, starting with a letter or digit",
            field="licence_number",
        )
    return text


def signer_profile_set(
    *, actor: User, person: User, rank: str, licence_number: str
) -> SignerProfile:
    """Record ``person``'s rank and licence or employee number (an administrator, never on
    oneself). Refused: an unknown rank, a malformed number, the administrator rank for
    someone without the administrator role, nothing changed."""
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only an administrator records a signer's rank and licence number")
    if person.pk == actor.pk:
        raise ForbiddenError(
            "nobody records their own signature authority: another administrator does it"
        )
    chosen = _rank_parsed(rank)
    number = _licence_parsed(licence_number)
    if chosen is Rank.ADMINISTRATOR and not has_role(person, Role.ADMIN):
        raise ProductError(
            f"{echo(person.get_full_name() or person.get_username())} does not hold the "
            "administrator role: give it on the People page first, or choose another rank",
            field="rank",
        )
    with transaction.atomic():
        before = signer_profile_of(person_id=person.pk)
        if before is not None and (before.rank, before.licence_number) == (chosen.value, number):
            raise ProductError("this rank and licence number are already on file", field="rank")
        profile = SignerProfile.objects.create(
            person=person,
            rank=chosen.value,
            licence_number=number,
            set_by=actor,
            set_at=timezone.now(),
        )
        ledger_append(
            event=Event.SIGNER_AUTHORITY_SET,
            subject_type=Subject.USER,
            subject_id=person.pk,
            payload={
                "signer_profile_id": profile.pk,
                "username": person.get_username(),
                "full_name": person.get_full_name(),
                "rank": profile.rank,
                "licence_number": number,
                "from": (
                    None
                    if before is None
                    else {"rank": before.rank, "licence_number": before.licence_number}
                ),
                "vouches": row_vouches(SignerProfile, [profile.pk]),
            },
            actor=actor,
        )
    return profile


@dataclass(frozen=True)
class Signature:
    """What a signature states beside the signer's full name."""

    rank: Rank
    licence_number: str


def signature_authorised(*, signer: User, form: SignedForm) -> Signature:
    """The rank and licence number ``signer`` signs ``form`` with; refused (403, at the
    signer) with the reason when the jurisdiction's rank is not met, no licence number is on
    file, or their authority differs from what the ledger recorded."""
    profile = signer_profile_of(person_id=signer.pk)
    refusal = authority_refusal(
        form=form, authority=authority_of(profile), jurisdiction=jurisdiction_in_force()
    )
    if refusal is not None:
        raise ProductError(
            f"nothing was signed: {refusal}", status=403, field="signer", code="no_authority"
        )
    assert profile is not None  # an authority with no row is refused above
    if vouch_problems(SignerProfile, [profile.pk]):
        security_log.error("signature refused: the authority of user %s differs", signer.pk)
        raise ProductError(
            "nothing was signed: your rank and licence number on file differ from what the "
            "audit ledger recorded. Ask compliance to run the ledger check",
            status=403,
            field="signer",
            code="no_authority",
        )
    return Signature(rank=Rank(profile.rank), licence_number=profile.licence_number)
