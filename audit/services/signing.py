"""A signature's password check, shared by every signing service (certifications and
their withdrawals, practical evaluation sheets)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.contrib.auth import authenticate

from core.errors import ProductError
from core.lockout import lockout_claim, lockout_message

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

security_log = logging.getLogger("shoeschool.security")
# The longest statement, reason or comment a signed row holds.
MAX_TEXT = 4000


def check_signature(*, signer: User, password: str, request: HttpRequest) -> str:
    """The signer's full name, once their password is confirmed.

    The password is checked as a login checks it, through ``authenticate`` with the
    request, so wrong passwords count towards the signer's lockout (django-axes) and a
    locked-out signer is refused even with the right one: otherwise anyone at a pit
    boss's unlocked screen could guess at the password here without limit.
    """
    if not password:
        raise ProductError("enter your password to sign: nothing was signed", field="password")
    confirmed = authenticate(request, username=signer.get_username(), password=password)
    if confirmed is None or confirmed.pk != signer.pk:
        # Not a change, so not a ledger entry (nothing is stored); the security log keeps it.
        if lockout_claim(request):
            security_log.warning("sign-off refused: user %s is locked out", signer.pk)
            raise ProductError(
                f"{lockout_message(request)} Nothing was signed.",
                status=429,
                field="password",
                code="locked_out",
            )
        security_log.warning("failed sign-off password for user %s", signer.pk)
        raise ProductError("the password is not right: nothing was signed", field="password")
    full_name = signer.get_full_name().strip()
    if not signer.first_name.strip() or not signer.last_name.strip():
        raise ProductError(
            "a signature records your full name, never initials: ask an administrator to "
            "set your first and last name",
            field="signer",
        )
    return full_name
