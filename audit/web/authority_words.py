"""What a signing form says of the signer's authority before they sign: the rank and
licence number their signature will state, or why they may not sign that form."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from audit.authority import SignedForm, authority_refusal, jurisdiction_in_force
from audit.selectors.authority import authority_of, signer_profile_of


@dataclass(frozen=True)
class SignatureWords:
    rank: str
    licence: str
    refusal: str | None


def signature_words(user: AbstractBaseUser | AnonymousUser, form: SignedForm) -> SignatureWords:
    authority = authority_of(signer_profile_of(person_id=user.pk)) if user.pk else None
    if authority is None:
        return SignatureWords(rank="", licence="", refusal="sign in to sign")
    return SignatureWords(
        rank=authority.rank.label if authority.rank else "",
        licence=authority.licence_number,
        refusal=authority_refusal(
            form=form, authority=authority, jurisdiction=jurisdiction_in_force()
        ),
    )
