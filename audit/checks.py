"""The credential key's start-up check (audit.services.credential_key): in production
the key must be there, private to its owner and an Ed25519 private key, or the site does
not start; elsewhere one is made on first use."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register


@register()
def credential_key_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.SHOESCHOOL_CREDENTIAL_KEY_MAKE:
        return []
    from audit.services.credential_key import CredentialKeyError, signing_key

    try:
        signing_key()
    except CredentialKeyError as error:
        return [
            Error(
                f"SHOESCHOOL_CREDENTIAL_KEY_FILE: {error.message}",
                hint="Make one with: manage.py credential_key --make PATH (docs/operations.md, "
                "The credential key)",
                id="audit.E001",
            )
        ]
    return []
