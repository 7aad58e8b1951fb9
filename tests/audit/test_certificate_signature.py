"""The certificate states the signature fully (#28): the PDF and the credential name the
signer with full name, rank and licence number and the practical evaluator the
certification rested on; the public verify page names the signer and rank only, never a
licence number or a score (docs/security.md, *Certificates anyone can verify*)."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from audit.authority import signature_text
from audit.models import SignerProfile
from audit.selectors.certificates import practical_sheet_of, signer_words
from audit.services.certificates import code_shown
from audit.services.credentials import credential_claims
from core.dates import house_minute
from tests.audit.certificates_support import certify
from tests.audit.test_practical_sheet import evaluate
from tests.graded import client_for
from tests.pdf import needs_pdftotext
from trainer.models import RuleProfile

pytestmark = pytest.mark.practical


@pytest.fixture
def sheet(pit, trainee, pit_boss):
    shoe = RuleProfile.objects.get(name="casino-shoe")
    return evaluate(trainee, shoe, pit_boss)


@pytest.fixture
def certified(sheet, trainee, pit_boss):
    return certify(trainee, pit_boss)


def licence_of(user) -> str:
    return SignerProfile.objects.filter(person=user).latest("set_at").licence_number


def test_the_certification_rests_on_the_passed_sheet_in_force_when_signed(
    certified, sheet, trainee, pit_boss
):
    assert practical_sheet_of(certified) == sheet
    # A sheet signed after the certification is not the one it rested on.
    later = evaluate(trainee, sheet.profile, pit_boss, corrects=sheet)
    assert later.signed_at >= certified.signed_at
    assert practical_sheet_of(certified) == sheet


def test_no_sheet_when_the_table_needed_none(pit, trainee, pit_boss, monkeypatch):
    from audit.services import practical

    monkeypatch.setattr(practical, "practical_required", lambda profile: False)
    assert practical_sheet_of(certify(trainee, pit_boss)) is None


def test_signer_words_keep_the_role_for_rows_older_than_ranks():
    assert signer_words("Pat Boss", "pit_boss", None, None) == "Pat Boss, Pit boss"
    assert signer_words("Pat Boss", "pit_boss", None, None, licence=True) == "Pat Boss, Pit boss"
    assert signer_words("Pat Boss", "pit_boss", "pit_manager", "PM-1") == "Pat Boss, Pit manager"
    assert (
        signer_words("Pat Boss", "pit_boss", "pit_manager", "PM-1", licence=True)
        == "Pat Boss, Pit manager, licence PM-1"
    )


@needs_pdftotext
def test_the_pdf_states_the_signature_and_the_evaluator(
    certified, sheet, trainee, pit_boss, tmp_path
):
    response = client_for(trainee).get(reverse("credentials:certificate_pdf", args=[certified.pk]))
    path = tmp_path / "certificate.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    licence = licence_of(pit_boss)
    assert signature_text(certified.signer_full_name, "pit_manager", licence) in flat
    assert "Practical test evaluated by" in flat
    assert (
        f"{signature_text(sheet.evaluator_full_name, 'pit_manager', licence)}, "
        f"on {house_minute(sheet.signed_at)}" in flat
    )


def test_the_verify_page_names_signer_and_rank_but_no_licence_or_score(certified, sheet, pit_boss):
    body = " ".join(
        Client()
        .get(reverse("verify:code", args=[code_shown(certified.certificate.code)]))
        .content.decode()
        .split()
    )
    assert f"{certified.signer_full_name}, Pit manager" in body
    assert licence_of(pit_boss) not in body
    assert "licence" not in body.lower()
    assert f"{sheet.score}" not in body
    assert "practical" not in body.lower()


def test_the_credential_names_the_signature_and_the_practical_sheet(certified, sheet, pit_boss):
    claims = credential_claims(certified.certificate)
    sitting, practical = claims["evidence"]
    licence = licence_of(pit_boss)
    assert (
        signature_text(certified.signer_full_name, "pit_manager", licence) in (sitting["narrative"])
    )
    assert sitting["signer"] == {
        "name": certified.signer_full_name,
        "rank": "Pit manager",
        "licence": licence,
    }
    assert practical["id"].endswith("#practical")
    assert practical["practicalSheet"] == sheet.pk
    assert practical["score"] == str(sheet.score)
    assert practical["passed"] is True
    assert practical["evaluator"] == {
        "name": sheet.evaluator_full_name,
        "rank": "Pit manager",
        "licence": licence,
    }
    assert sheet.evaluator_full_name in practical["narrative"]
