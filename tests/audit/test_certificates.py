"""Certificates (audit.services.certificates): the verification code issued with each
signed certification, and what the verify page's selector says of it."""

from __future__ import annotations

import math
import re

import pytest

from audit.models import Certificate, Certification
from audit.selectors.certificates import State, certificate_standing, standing_of
from audit.services.certificates import (
    ALPHABET,
    CODE_LENGTH,
    certificate_of,
    code_new,
    code_read,
    code_shown,
)
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.certificates_support import after_expiry, certify, withdraw

# The code.


def test_a_code_is_80_random_bits_in_crockfords_alphabet():
    assert len(ALPHABET) == 32
    assert not set("ILOU") & set(ALPHABET)
    assert CODE_LENGTH * math.log2(len(ALPHABET)) >= 80
    codes = {code_new() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    # Every character is used, in every position (no fixed prefix or counter).
    for position in (0, CODE_LENGTH - 1):
        assert {c[position] for c in codes} == set(ALPHABET)


def test_a_code_is_shown_in_groups_and_read_back_as_typed():
    code = "7KQ2M9XD0AB1ZZ34"
    shown = code_shown(code)
    assert shown == "7KQ2-M9XD-0AB1-ZZ34"
    assert re.fullmatch(r"([0-9A-Z]{4}-){3}[0-9A-Z]{4}", shown)
    assert code_read(shown) == code
    assert code_read(" 7kq2 m9xd oab1 zz34 ") == code  # lower case, spaces, O for 0
    assert code_read("7KQ2-M9XD-0ABI-ZZ34") == code  # I read as 1
    assert code_read("7KQ2-M9XD-0ABL-ZZ34") == code  # L read as 1
    for wrong in ("", "7KQ2-M9XD-0AB1", "7KQ2-M9XD-0AB1-ZZ34-5", "7KQ2-M9XD-0AB1-ZZ3U", "../x"):
        assert code_read(wrong) is None


# Issued at signing.


def test_signing_issues_a_certificate_vouched_for_by_the_ledger(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    certificate = Certificate.objects.get(certification=certification)
    assert len(certificate.code) == CODE_LENGTH
    entry = LedgerEntry.objects.get(event=Event.CERTIFICATE_ISSUED)
    assert entry.subject_id == str(certification.pk)
    assert entry.payload["status_index"] == certificate.status_index
    assert certificate.code not in str(entry.payload)
    assert ledger_verify().ok


def test_a_withdrawal_has_no_certificate_of_its_own(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    withdrawal = withdraw(certification, pit_boss)
    assert Certificate.objects.count() == 1
    assert certificate_of(certification=withdrawal) == certification.certificate


def test_a_certification_signed_before_certificates_gets_one_when_asked(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    # As if signed before this change: no certificate row and no issue entry.
    Certificate.objects.all()._raw_delete(Certificate.objects.db)
    certification = Certification.objects.get(pk=certification.pk)
    issued = certificate_of(certification=certification)
    assert issued.certification_id == certification.pk
    assert certificate_of(certification=certification) == issued


# The standing the verify page shows.


def test_a_fresh_certificate_is_valid_and_says_for_whom(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    standing = certificate_standing(certification.certificate.code)
    assert standing is not None
    assert standing.state == State.VALID
    assert standing.trainee_name == trainee.get_full_name()
    assert standing.table == "Six-deck shoe"
    assert standing.game == "Blackjack"
    assert standing.signer_name == certification.signer_full_name
    assert standing.signer_role == "Pit manager"  # the rank signed in
    assert standing.expires_at == certification.expires_at


def test_no_certificate_has_an_unknown_code(pit, trainee, pit_boss):
    certify(trainee, pit_boss)
    assert certificate_standing(code_new()) is None
    assert certificate_standing("") is None
    assert certificate_standing(None) is None


def test_past_its_date_it_is_expired(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    standing = standing_of(certification.certificate, now=after_expiry(certification))
    assert standing.state == State.EXPIRED


def test_a_withdrawn_certificate_says_withdrawn_and_when(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    withdrawal = withdraw(certification, pit_boss)
    standing = certificate_standing(certification.certificate.code)
    assert standing is not None
    assert standing.state == State.WITHDRAWN
    assert standing.ended_at == withdrawal.signed_at


@pytest.mark.parametrize(
    "change",
    [
        {"signer_full_name": "Someone Else"},
        {"expires_at": None},
        {"withdrawn": False},
    ],
)
def test_a_row_changed_behind_the_application_cannot_be_verified(pit, trainee, pit_boss, change):
    certification = certify(trainee, pit_boss)
    # {"withdrawn": False}: the withdrawal's row turned into something else behind the
    # application.
    target = withdraw(certification, pit_boss) if change == {"withdrawn": False} else certification
    Certification.objects.filter(pk=target.pk).update(**change)
    standing = certificate_standing(certification.certificate.code)
    assert standing is not None
    assert standing.state == State.UNVERIFIABLE
    assert standing.trainee_name == ""


def test_a_certificate_row_changed_behind_the_application_cannot_be_verified(
    pit, trainee, pit_boss
):
    certification = certify(trainee, pit_boss)
    Certificate.objects.filter(pk=certification.certificate.pk).update(code="0" * CODE_LENGTH)
    standing = certificate_standing("0" * CODE_LENGTH)
    assert standing is not None
    assert standing.state == State.UNVERIFIABLE


def test_a_withdrawal_inserted_behind_the_application_cannot_be_verified(pit, trainee, pit_boss):
    certification = certify(trainee, pit_boss)
    Certification.objects.bulk_create(
        [
            Certification(
                trainee=trainee,
                profile=certification.profile,
                signed_by=pit_boss,
                signer_full_name="Forger",
                signed_at=certification.signed_at,
                statement="x",
                withdrawn=True,
                corrects=certification,
            )
        ]
    )
    standing = certificate_standing(certification.certificate.code)
    assert standing is not None
    assert standing.state == State.UNVERIFIABLE
