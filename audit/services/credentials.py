"""Open Badges 3.0 credentials (W3C Verifiable Credentials, `OpenBadgeCredential`) of
certificates, secured as VC-JOSE (a compact JWS, `typ` "vc+jwt", algorithm Ed25519 by
RFC 9864) with joserfc over `cryptography` (docs/security.md, *Credentials*).

- `credential_issue`: the signed credential of a certification's certificate: the issuer
  (the house's profile), the achievement (dealing a table of a game), the trainee (name,
  and the account as a salted hash), validFrom/validUntil, the evidence (the graded
  sitting: attempt, score, the signer's full name, rank and licence number, and the ledger
  entry and head hash recording the signature; and the passed practical evaluation sheet
  it rested on: its id, score, evaluator and date),
  and its status entry on the house's Bitstring Status List.
- `status_list_issue`: that list, signed: a bit per certificate, set when it was
  withdrawn or superseded. Expiry is the credential's own validUntil.
- `credential_check`: what the verify page says of a pasted credential.
"""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from joserfc import jws
from joserfc.errors import JoseError

from audit.authority import rank_label
from audit.models import Certificate, Certification, PracticalSheet
from audit.selectors.certificates import State, practical_sheet_of, standing_of
from audit.services.certificates import STATUS_LIST_SIZE, code_shown
from audit.services.credential_key import key_id, published_keys, signing_key
from ledger.events import Event, Subject
from ledger.models import LedgerEntry

CONTEXT = [
    "https://www.w3.org/ns/credentials/v2",
    "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
]
ALGORITHM = "Ed25519"
MEDIA_TYPE = "vc+jwt"
MAX_PASTED = 20_000  # characters: a credential is a few kilobytes


def public_url(name: str, *args: object) -> str:
    """The public address of one of the site's pages (SHOESCHOOL_PUBLIC_URL)."""
    return settings.SHOESCHOOL_PUBLIC_URL + reverse(name, args=args)


def issuer_id() -> str:
    return public_url("credentials:issuer")


def issuer_profile() -> dict[str, Any]:
    """The house as an Open Badges issuer (a `Profile`), served at its own id."""
    return {
        "@context": CONTEXT,
        "id": issuer_id(),
        "type": ["Profile"],
        "name": settings.SHOESCHOOL_ISSUER_NAME,
        "url": settings.SHOESCHOOL_PUBLIC_URL + "/",
        "publicKeys": public_url("credentials:jwks"),
    }


def _when(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _sign(claims: dict[str, Any]) -> str:
    key = signing_key()
    header = {"alg": ALGORITHM, "typ": MEDIA_TYPE, "kid": key_id(key)}
    payload = json.dumps(claims, separators=(",", ":"), ensure_ascii=False).encode()
    return str(jws.serialize_compact(header, payload, key, algorithms=[ALGORITHM]))


def credential_claims(certificate: Certificate) -> dict[str, Any]:
    """The credential of a certificate, unsigned."""
    standing = standing_of(certificate)
    certification = certificate.certification
    verify = public_url("verify:code", code_shown(certificate.code))
    status_list = public_url("credentials:status")
    claims: dict[str, Any] = {
        "@context": CONTEXT,
        "id": verify,
        "type": ["VerifiableCredential", "OpenBadgeCredential"],
        "name": f"Dealer certification: {standing.table} ({standing.game})",
        "issuer": {
            "id": issuer_id(),
            "type": ["Profile"],
            "name": settings.SHOESCHOOL_ISSUER_NAME,
        },
        "validFrom": _when(certification.signed_at),
        "credentialSubject": _subject(certification, standing.trainee_name, standing),
        "evidence": _evidence_all(certification, verify, standing.signature),
        "credentialStatus": {
            "id": f"{status_list}#{certificate.status_index}",
            "type": "BitstringStatusListEntry",
            "statusPurpose": "revocation",
            "statusListIndex": str(certificate.status_index),
            "statusListCredential": status_list,
        },
    }
    if certification.expires_at is not None:
        claims["validUntil"] = _when(certification.expires_at)
    return claims


def _subject(certification: Certification, name: str, standing: Any) -> dict[str, Any]:
    salt = hashlib.sha256(f"{certification.pk}:{certification.signed_at}".encode()).hexdigest()
    account = hashlib.sha256(f"{certification.trainee_id}{salt[:16]}".encode()).hexdigest()
    return {
        "type": ["AchievementSubject"],
        "identifier": [
            {
                "type": "IdentityObject",
                "identityType": "name",
                "hashed": False,
                "identityHash": name,
            },
            {
                "type": "IdentityObject",
                "identityType": "identifier",
                "hashed": True,
                "identityHash": f"sha256${account}",
                "salt": salt[:16],
            },
        ],
        "achievement": {
            "id": public_url("credentials:achievement", certification.profile.name),
            "type": ["Achievement"],
            "achievementType": "License",
            "name": f"Dealing {standing.table} of {standing.game}",
            "description": (
                f"Certified to deal {standing.game} at the table {standing.table}, on a "
                "passed table test signed off by a pit boss."
            ),
            "criteria": {
                "narrative": "A passed sitting of the table's own table test, graded and "
                "signed by a pit boss or an administrator who re-entered their password."
            },
        },
    }


def _evidence_all(
    certification: Certification, verify: str, signature: str
) -> list[dict[str, Any]]:
    sheet = practical_sheet_of(certification)
    return [
        _evidence(certification, verify, signature),
        *([_practical_evidence(sheet, verify)] if sheet else []),
    ]


def _practical_evidence(sheet: PracticalSheet, verify: str) -> dict[str, Any]:
    when = _when(sheet.signed_at)
    return {
        "id": f"{verify}#practical",
        "type": ["Evidence"],
        "name": "The observed practical test",
        "narrative": (
            f"Practical evaluation sheet {sheet.pk}, scored {sheet.score} %, "
            f"{'passed' if sheet.passed else 'not passed'}, evaluated by "
            f"{sheet.evaluator_full_name}, {rank_label(sheet.evaluator_rank)}, licence "
            f"{sheet.evaluator_licence} on {when}."
        ),
        "practicalSheet": sheet.pk,
        "score": str(sheet.score),
        "passed": sheet.passed,
        "evaluator": {
            "name": sheet.evaluator_full_name,
            "rank": rank_label(sheet.evaluator_rank),
            "licence": sheet.evaluator_licence,
        },
        "evaluatedAt": when,
    }


def _evidence(certification: Certification, verify: str, signature: str) -> dict[str, Any]:
    entry = (
        LedgerEntry.objects.filter(
            event=Event.CERTIFICATION_SIGNED,
            subject_type=Subject.CERTIFICATION,
            subject_id=str(certification.pk),
        )
        .order_by("sequence")
        .values("sequence", "hash")
        .first()
    ) or {"sequence": None, "hash": ""}
    score = certification.evidence.get("score", "")
    return {
        "id": f"{verify}#sitting",
        "type": ["Evidence"],
        "name": "The graded table-test sitting",
        "narrative": (
            f"Sitting {certification.attempt_id}, scored {score} %, signed by "
            f"{signature}; audit ledger entry {entry['sequence']}, head "
            f"hash {entry['hash']}."
        ),
        "attempt": certification.attempt_id,
        "score": str(score),
        "signer": {
            "name": certification.signer_full_name,
            "rank": rank_label(certification.signer_rank),
            "licence": certification.signer_licence or "",
        },
        "ledgerEntry": entry["sequence"],
        "ledgerHead": entry["hash"],
    }


def credential_issue(*, certificate: Certificate) -> str:
    """The signed credential (a compact JWS) of a certificate."""
    return _sign(credential_claims(certificate))


def revoked_indexes() -> list[int]:
    """The status list places of certificates withdrawn or superseded."""
    return list(
        Certificate.objects.filter(certification__corrections__isnull=False)
        .values_list("status_index", flat=True)
        .distinct()
    )


def encoded_list(indexes: list[int]) -> str:
    """The Bitstring Status List's `encodedList`: the bits (the first index the first
    byte's highest bit) gzipped, in base64url without padding, multibase prefix "u"."""
    bits = bytearray(STATUS_LIST_SIZE // 8)
    for index in indexes:
        bits[index // 8] |= 0x80 >> (index % 8)
    packed = base64.urlsafe_b64encode(gzip.compress(bytes(bits), mtime=0)).rstrip(b"=")
    return "u" + packed.decode()


def bit_of(encoded: str, index: int) -> bool:
    data = encoded[1:] if encoded.startswith("u") else encoded
    bits = gzip.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
    return bool(bits[index // 8] & (0x80 >> (index % 8)))


def status_list_issue() -> str:
    """The house's revocation list as a signed BitstringStatusListCredential."""
    url = public_url("credentials:status")
    return _sign(
        {
            "@context": ["https://www.w3.org/ns/credentials/v2"],
            "id": url,
            "type": ["VerifiableCredential", "BitstringStatusListCredential"],
            "issuer": issuer_id(),
            "validFrom": _when(timezone.now()),
            "credentialSubject": {
                "id": f"{url}#list",
                "type": "BitstringStatusList",
                "statusPurpose": "revocation",
                "encodedList": encoded_list(revoked_indexes()),
            },
        }
    )


@dataclass(frozen=True)
class CredentialCheck:
    """What the verify page says of a pasted credential: `signature` (it holds), `state`
    (a certificate State, when the signature holds and the credential is the house's),
    `message` (one sentence), `claims` (what it says, when the signature holds)."""

    signature: bool
    message: str
    state: State | None = None
    claims: dict[str, Any] | None = None


def credential_check(pasted: str, *, now: dt.datetime | None = None) -> CredentialCheck:
    token = "".join((pasted or "").split())
    if not token or len(token) > MAX_PASTED or token.count(".") != 2:
        return CredentialCheck(False, "This is not a credential: paste the whole of it.")
    claims = _verified(token)
    if claims is None:
        return CredentialCheck(
            False, "The signature does not match: this credential was changed or is not ours."
        )
    status = claims.get("credentialStatus") or {}
    index = str(status.get("statusListIndex", ""))
    certificate = (
        Certificate.objects.filter(status_index=int(index)).first() if index.isdigit() else None
    )
    if certificate is None or claims.get("id") != public_url(
        "verify:code", code_shown(certificate.code)
    ):
        return CredentialCheck(True, "The signature holds, but no certificate of ours has it.")
    state = standing_of(certificate, now=now).state
    until = claims.get("validUntil")
    if state == State.VALID and until and until <= _when(now or timezone.now()):
        state = State.EXPIRED
    return CredentialCheck(True, STATE_WORDS[state], state=state, claims=claims)


STATE_WORDS = {
    State.VALID: "The signature holds and the certificate is valid.",
    State.EXPIRED: "The signature holds, but the certificate has expired.",
    State.WITHDRAWN: "The signature holds, but the certificate was withdrawn (revoked).",
    State.SUPERSEDED: "The signature holds, but the certificate was replaced by a correction.",
    State.UNVERIFIABLE: "The signature holds, but the certificate cannot be verified: ask the "
    "issuer.",
}


def _verified(token: str) -> dict[str, Any] | None:
    """The claims, if a published key's signature holds over them; None otherwise."""
    for key in published_keys():
        try:
            found = jws.deserialize_compact(token, key, algorithms=[ALGORITHM])
        except (JoseError, ValueError):
            continue
        try:
            claims = json.loads(found.payload)
        except ValueError:
            return None
        return claims if isinstance(claims, dict) else None
    return None
