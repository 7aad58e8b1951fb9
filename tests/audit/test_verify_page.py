"""The public verify page (/verify/): no sign-in, a code's standing in plain words, the
same answer for every code no certificate has, a limit per address, and the rows checked
against the ledger."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import Certification
from audit.services.certificates import code_new, code_shown
from tests.audit.certificates_support import after_expiry, certify, withdraw


def page(code: str, client: Client | None = None):
    return (client or Client()).get(reverse("verify:code", args=[code]))


def text(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.fixture
def certified(pit, trainee, pit_boss):
    return certify(trainee, pit_boss)


def test_a_valid_certificate_says_valid_for_whom_which_table_and_until_when(certified, trainee):
    code = code_shown(certified.certificate.code)
    response = page(code)
    assert response.status_code == 200
    body = text(response)
    assert "Valid" in body
    assert trainee.get_full_name() in body
    assert "Six-deck shoe" in body
    assert "Blackjack" in body
    assert certified.signer_full_name in body
    assert "Pit manager" in body  # the signer's rank (their role's words only for older rows)
    assert f"{certified.expires_at:%Y-%m-%d}" in body
    assert "Times are in" in body
    # Only what the page is for: no statement, no score, no account name.
    assert certified.statement not in body
    # A whole word: a person's generated name ("Christina") may contain the username ("tina").
    assert not re.search(
        rf"\b{re.escape(trainee.username)}\b", body.replace(trainee.get_full_name(), "")
    )
    assert response["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" in response


def test_the_code_may_be_typed_as_people_type_it(certified):
    code = certified.certificate.code
    loose = code_shown(code).lower().replace("0", "o")
    response = Client().post(reverse("verify:form"), {"code": loose})
    assert response.status_code == 302
    assert response["Location"] == reverse("verify:code", args=[code_shown(code)])
    assert "Valid" in text(Client().get(response["Location"]))


def test_a_guessed_code_learns_nothing(certified):
    real = certified.certificate.code
    near = real[:-1] + ("0" if real[-1] != "0" else "1")
    answers = [page(code) for code in (code_new(), near, "nonsense", "X" * 200)]
    typed = Client().post(reverse("verify:form"), {"code": "nonsense"})
    for response in [*answers, typed]:
        assert response.status_code == 404
        assert "No certificate has this code." in text(response)
        assert "Valid" not in text(response)
    # The same page whatever was typed, but for the code echoed back in the form.
    shapes = {len(text(r).replace(r.wsgi_request.path, "")) for r in answers[:2]}
    assert len(shapes) == 1


# The limit counts in fixed windows (core.throttle): a burst that straddles a window's
# edge is counted in two. A test's window is long enough that its burst never does.
ONE_WINDOW = 10**9


def test_guessing_is_stopped_per_address_with_a_plain_429(certified, settings):
    settings.SHOESCHOOL_VERIFY_LIMIT = 5
    settings.SHOESCHOOL_VERIFY_WINDOW_SECONDS = ONE_WINDOW
    client = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(5):
        assert page(code_new(), client).status_code == 404
    blocked = page(code_shown(certified.certificate.code), client)
    assert blocked.status_code == 429
    assert "Too many checks" in text(blocked)
    assert "wait about" in text(blocked)
    assert int(blocked["Retry-After"]) > 0
    assert "Valid" not in text(blocked)
    # Another address is not held back.
    assert (
        page(code_shown(certified.certificate.code), Client(REMOTE_ADDR="198.51.100.7")).status_code
        == 200
    )


def test_an_expired_certificate_says_expired(certified, monkeypatch):
    monkeypatch.setattr("audit.selectors.certificates._now", lambda: after_expiry(certified))
    body = text(page(code_shown(certified.certificate.code)))
    assert "Expired" in body
    assert "Valid until" in body
    assert "certified to deal this table until" not in body


def test_a_withdrawn_certificate_says_withdrawn_and_when(certified, pit_boss):
    withdrawal = withdraw(certified, pit_boss)
    body = text(page(code_shown(certified.certificate.code)))
    assert "Withdrawn" in body
    assert f"withdrawn on {withdrawal.signed_at:%Y-%m-%d}" in body


def test_a_tampered_row_cannot_be_verified(certified):
    # Someone with the database pushes the expiry back by a year.
    Certification.objects.filter(pk=certified.pk).update(
        expires_at=certified.expires_at.replace(year=certified.expires_at.year + 1)
    )
    response = page(code_shown(certified.certificate.code))
    body = text(response)
    assert "Cannot be verified — ask the issuer" in body
    assert "Valid" not in body.replace("Valid until", "")
    assert certified.trainee.get_full_name() not in body


def test_no_sign_in_and_nothing_listed(certified):
    assert Client().get(reverse("verify:form")).status_code == 200
    assert Client().get("/verify/list/").status_code == 404


def test_pasted_credentials_and_mistyped_codes_count_against_the_same_limit(db, settings):
    settings.SHOESCHOOL_VERIFY_LIMIT = 3
    settings.SHOESCHOOL_VERIFY_WINDOW_SECONDS = ONE_WINDOW
    client = Client(REMOTE_ADDR="203.0.113.20")
    assert client.post(reverse("verify:credential"), {"credential": "a.b.c"}).status_code == 200
    assert client.post(reverse("verify:form"), {"code": "nonsense"}).status_code == 404
    assert page(code_new(), client).status_code == 404
    assert client.post(reverse("verify:credential"), {"credential": "a.b.c"}).status_code == 429
    assert client.post(reverse("verify:form"), {"code": "nonsense"}).status_code == 429
    # The form itself is always there.
    assert client.get(reverse("verify:form")).status_code == 200
