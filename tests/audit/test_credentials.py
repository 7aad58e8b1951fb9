"""Open Badges 3.0 credentials: signed with the house's Ed25519 key, checked with its
published keys, revoked on the status list when withdrawn, expired after validUntil."""

from __future__ import annotations

import base64
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from joserfc import jws
from joserfc.jwk import KeySet

from audit.selectors.certificates import State
from audit.services.certificates import code_shown
from audit.services.credentials import bit_of, credential_check, credential_claims
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.certificates_support import after_expiry, certify, withdraw
from tests.graded import client_for


@pytest.fixture
def certified(pit, trainee, pit_boss):
    return certify(trainee, pit_boss)


def credential_of(user, certification) -> str:
    response = client_for(user).get(
        reverse("credentials:certificate_credential", args=[certification.pk])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vc+jwt"
    return response.content.decode()


def claims_of(token: str) -> dict:
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def test_the_credential_is_an_open_badge_signed_with_the_published_key(certified, trainee):
    token = credential_of(trainee, certified)
    keys = Client().get(reverse("credentials:jwks")).json()
    found = jws.deserialize_compact(token, KeySet.import_key_set(keys), algorithms=["Ed25519"])
    assert found.headers()["typ"] == "vc+jwt"
    claims = json.loads(found.payload)
    assert claims["type"] == ["VerifiableCredential", "OpenBadgeCredential"]
    assert "https://www.w3.org/ns/credentials/v2" in claims["@context"]
    assert claims["issuer"]["id"].endswith(reverse("credentials:issuer"))
    subject = claims["credentialSubject"]
    assert subject["achievement"]["name"] == "Dealing Six-deck shoe of Blackjack"
    assert any(i["hashed"] for i in subject["identifier"])
    # A whole word: a signer's generated name ("Christina") may contain the username ("tina").
    assert not re.search(rf"\b{re.escape(trainee.username)}\b", json.dumps(claims))
    assert claims["validFrom"].startswith(f"{certified.signed_at:%Y-%m-%d}")
    assert claims["validUntil"].startswith(f"{certified.expires_at:%Y-%m-%d}")
    evidence = claims["evidence"][0]
    signed = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED)
    assert evidence["attempt"] == certified.attempt_id
    assert evidence["score"] == str(certified.evidence["score"])
    assert evidence["ledgerHead"] == signed.hash
    status = claims["credentialStatus"]
    assert status["type"] == "BitstringStatusListEntry"
    assert status["statusPurpose"] == "revocation"
    assert status["statusListIndex"] == str(certified.certificate.status_index)
    assert claims["id"].endswith(f"/verify/{code_shown(certified.certificate.code)}/")


def test_a_credential_checks_as_valid_and_a_tampered_one_does_not(certified, trainee):
    token = credential_of(trainee, certified)
    check = credential_check(token)
    assert check.signature
    assert check.state == State.VALID
    header, _, signature = token.split(".")
    forged = credential_claims(certified.certificate)
    forged["validUntil"] = "2099-01-01T00:00:00Z"
    body = base64.urlsafe_b64encode(json.dumps(forged).encode()).rstrip(b"=").decode()
    tampered = credential_check(f"{header}.{body}.{signature}")
    assert not tampered.signature
    assert "signature does not match" in tampered.message
    assert not credential_check("hello").signature


def test_the_verify_page_checks_a_pasted_credential(certified, trainee):
    token = credential_of(trainee, certified)
    page = Client().post(reverse("verify:credential"), {"credential": f"  {token}\n"})
    assert "Signature holds" in page.content.decode()
    assert "the certificate is valid" in page.content.decode()
    broken = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    page = Client().post(reverse("verify:credential"), {"credential": broken})
    assert "Signature does not match" in page.content.decode()


def status_bit(certified) -> bool:
    token = Client().get(reverse("credentials:status")).content.decode()
    assert credential_check(token).signature  # the list is signed by the same key
    subject = claims_of(token)["credentialSubject"]
    assert subject["type"] == "BitstringStatusList"
    return bit_of(subject["encodedList"], certified.certificate.status_index)


def test_withdrawal_revokes_it_on_the_status_list(certified, trainee, pit_boss):
    token = credential_of(trainee, certified)
    assert status_bit(certified) is False
    withdraw(certified, pit_boss)
    assert status_bit(certified) is True
    check = credential_check(token)
    assert check.signature
    assert check.state == State.WITHDRAWN
    assert "withdrawn (revoked)" in check.message


def test_past_valid_until_it_is_expired(certified, trainee):
    token = credential_of(trainee, certified)
    check = credential_check(token, now=after_expiry(certified))
    assert check.state == State.EXPIRED


def test_the_issuer_profile_and_keys_are_public(certified):
    issuer = Client().get(reverse("credentials:issuer")).json()
    assert issuer["type"] == ["Profile"]
    keys = Client().get(reverse("credentials:jwks")).json()["keys"]
    assert keys[0]["kty"] == "OKP"
    assert keys[0]["crv"] == "Ed25519"
    assert "d" not in keys[0]


def test_a_credential_is_for_those_who_may_read_the_certification(certified, other_trainee, pit):
    url = reverse("credentials:certificate_credential", args=[certified.pk])
    assert client_for(other_trainee).get(url).status_code == 404
    assert client_for(pit["other_boss"]).get(url).status_code == 404


def test_after_a_rotation_old_credentials_still_verify_with_the_retired_key(
    certified, trainee, settings, tmp_path
):
    from audit.services.credential_key import key_make, signing_key

    old = credential_of(trainee, certified)
    retired = tmp_path / "old-public.pem"
    retired.write_bytes(signing_key().as_pem(private=False))
    settings.SHOESCHOOL_CREDENTIAL_KEY_FILE = tmp_path / "new.pem"
    key_make(settings.SHOESCHOOL_CREDENTIAL_KEY_FILE)
    assert not credential_check(old).signature  # the old key is no longer published
    settings.SHOESCHOOL_CREDENTIAL_RETIRED_KEYS = [str(retired)]
    assert credential_check(old).signature
    new = credential_of(trainee, certified)
    assert claims_of(new)["id"] == claims_of(old)["id"]
    assert credential_check(new).state == State.VALID
    kids = [key["kid"] for key in Client().get(reverse("credentials:jwks")).json()["keys"]]
    assert len(kids) == 2
