"""The key the house signs credentials with (docs/operations.md, *The credential key*).

An Ed25519 private key in a PEM file the operator keeps (SHOESCHOOL_CREDENTIAL_KEY_FILE),
outside the repository and the database. Development and tests make one on first use (in
the data folder, 0600); production names it and refuses to start without it
(audit.checks). Public keys of keys used before (SHOESCHOOL_CREDENTIAL_RETIRED_KEYS, PEM
files) stay published, so credentials signed before a rotation still verify.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from joserfc.jwk import OKPKey

from core.errors import ProductError


class CredentialKeyError(ProductError):
    """The credential key is missing, unreadable, readable by others, or not Ed25519."""


def key_make(path: Path) -> None:
    """Write a new Ed25519 private key to `path` (0600); an existing file is refused."""
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)


def _load(path: Path, *, private: bool) -> OKPKey:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CredentialKeyError(
            f"the credential key {path} cannot be read ({error.strerror})",
            field="SHOESCHOOL_CREDENTIAL_KEY_FILE",
        ) from error
    if private and os.name == "posix" and path.stat().st_mode & 0o077:
        raise CredentialKeyError(
            f"the credential key {path} may be read by others: chmod 600 it",
            field="SHOESCHOOL_CREDENTIAL_KEY_FILE",
        )
    try:
        key = OKPKey.import_key(data)
    except (ValueError, TypeError) as error:
        raise CredentialKeyError(
            f"{path} is not an Ed25519 key in PEM", field="SHOESCHOOL_CREDENTIAL_KEY_FILE"
        ) from error
    if key.curve_name != "Ed25519" or (private and not key.is_private):
        raise CredentialKeyError(
            f"{path} is not an Ed25519 private key", field="SHOESCHOOL_CREDENTIAL_KEY_FILE"
        )
    return key


@cache
def _signing_key(path: str) -> OKPKey:
    file = Path(path)
    if not file.exists() and settings.SHOESCHOOL_CREDENTIAL_KEY_MAKE:
        key_make(file)
    return _load(file, private=True)


def signing_key() -> OKPKey:
    """The house's private key (made first in development and tests)."""
    return _signing_key(str(settings.SHOESCHOOL_CREDENTIAL_KEY_FILE))


def key_id(key: OKPKey) -> str:
    """A key's id: its JWK thumbprint (RFC 7638)."""
    return str(key.thumbprint())


def published_keys() -> list[OKPKey]:
    """The public keys a credential may be checked with: the signing key's, then the
    retired ones'."""
    keys = [OKPKey.import_key(signing_key().as_dict(private=False))]
    for path in getattr(settings, "SHOESCHOOL_CREDENTIAL_RETIRED_KEYS", []):
        keys.append(_load(Path(path), private=False))
    return keys


def jwks() -> dict[str, object]:
    """The JSON Web Key Set anyone checks the house's credentials with."""
    return {
        "keys": [
            {**key.as_dict(private=False), "kid": key_id(key), "use": "sig", "alg": "Ed25519"}
            for key in published_keys()
        ]
    }
