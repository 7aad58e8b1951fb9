"""Certificates: the verification code of a signed certification (docs/security.md,
*The public verify page*).

A code is 80 random bits from `secrets`, written as 16 characters of Crockford's base32
in four groups ("7KQ2-M9XD-…"): no I, L, O or U, so nothing reads as another character;
what a person types is read back with Crockford's rules (lower case, I and L as 1, O as 0,
dashes and spaces ignored). Nobody can list the codes or guess one: 2**80 codes for a few
thousand certificates, and the verify page is rate-limited per address.

`certificate_issue` is called by the signing service in its transaction; a certification
signed before certificates existed gets its certificate the first time one is asked for
(`certificate_of`). Each issue is a ledger entry vouching for the row.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.models import Certificate, Certification
from core.errors import ConflictError
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
CODE_LENGTH = 16  # 16 x 5 = 80 bits
GROUP = 4
# The status list's length in bits: 16 KiB, the Bitstring Status List's least, so that a
# place says nothing about how many certificates there are.
STATUS_LIST_SIZE = 131_072
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})


def code_new() -> str:
    """A fresh code: 16 characters, each 5 bits from `secrets`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def code_shown(code: str) -> str:
    """The code as a person reads it: four groups of four, joined by dashes."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def code_read(typed: str) -> str | None:
    """The code a person typed, in its stored form; None if it cannot be one (wrong length
    or a character outside the alphabet)."""
    plain = "".join(typed.split()).replace("-", "").upper().translate(_READ_AS)
    if len(plain) != CODE_LENGTH or any(ch not in ALPHABET for ch in plain):
        return None
    return plain


def certificate_issue(*, certification: Certification) -> Certificate:
    """Issue the certificate of a signed certification (not of a withdrawal), in the
    caller's transaction, with a ledger entry vouching for it."""
    if certification.withdrawn:
        raise ConflictError("a withdrawal has no certificate of its own", field="certification")
    with transaction.atomic():
        certificate = _create(certification)
        ledger_append(
            event=Event.CERTIFICATE_ISSUED,
            subject_type=Subject.CERTIFICATION,
            subject_id=certification.pk,
            payload={
                "certificate": certificate.pk,
                "status_index": certificate.status_index,
                "vouches": row_vouches(Certificate, [certificate.pk]),
            },
            actor=certification.signed_by,
        )
    return certificate


def _create(certification: Certification) -> Certificate:
    """A new row with a fresh code and a free place on the status list; a clash of either
    (one in 2**80, or a taken place) draws again."""
    for _ in range(20):
        index = secrets.randbelow(STATUS_LIST_SIZE)
        if Certificate.objects.filter(status_index=index).exists():
            continue
        try:
            with transaction.atomic():
                return Certificate.objects.create(
                    certification=certification,
                    code=code_new(),
                    status_index=index,
                    issued_at=timezone.now(),
                )
        except IntegrityError:
            if Certificate.objects.filter(certification=certification).exists():
                raise
    raise ConflictError("the credential status list is full", field="certification")


def certificate_of(*, certification: Certification) -> Certificate:
    """The certification's certificate, issued now if it was signed before certificates
    existed. A withdrawal's is the certificate of the certification it withdraws."""
    original = certification.corrects if certification.withdrawn else certification
    if original is None:
        raise ConflictError("this withdrawal names no certification", field="certification")
    with transaction.atomic():
        Certification.objects.select_for_update().filter(pk=original.pk).first()
        found = Certificate.objects.filter(certification=original).first()
        return found or certificate_issue(certification=original)
