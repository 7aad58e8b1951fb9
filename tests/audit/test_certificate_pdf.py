"""The certificate PDF: who may download it, and what it says (read back with pdftotext,
its QR code decoded with zbarimg from pdftoppm's picture)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import segno
from django.test import Client
from django.urls import reverse

from audit.services.certificate_pdf import verify_address
from audit.services.certificates import code_shown
from tests.audit.certificates_support import certify, withdraw
from tests.graded import client_for
from tests.pdf import needs_pdftotext

pytestmark = needs_pdftotext


@pytest.fixture
def certified(pit, trainee, pit_boss):
    return certify(trainee, pit_boss)


def download(user, certification):
    return client_for(user).get(reverse("credentials:certificate_pdf", args=[certification.pk]))


def test_the_pdf_names_the_trainee_table_signer_dates_and_code(
    certified, trainee, tmp_path, settings
):
    settings.SHOESCHOOL_PUBLIC_URL = "https://dealers.example.com"
    response = download(trainee, certified)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    code = code_shown(certified.certificate.code)
    assert code in response["Content-Disposition"]
    path = tmp_path / "certificate.pdf"
    path.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    assert trainee.get_full_name() in flat
    assert "Blackjack" in flat
    assert "Six-deck shoe" in flat
    assert f"{certified.signer_full_name}, Pit manager, licence " in flat  # the rank, not the role
    assert f"{certified.signed_at:%Y-%m-%d}" in flat
    assert f"{certified.expires_at:%Y-%m-%d}" in flat
    assert code in flat
    assert f"https://dealers.example.com/verify/{code}/" in flat
    assert "withdrawn" not in flat


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="needs zbarimg (apt zbar-tools)")
@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs pdftoppm (poppler-utils)")
def test_its_qr_code_opens_the_verify_page(certified, trainee, tmp_path, settings):
    settings.SHOESCHOOL_PUBLIC_URL = "https://dealers.example.com"
    path = tmp_path / "certificate.pdf"
    path.write_bytes(download(trainee, certified).content)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(path), str(tmp_path / "page")], check=True)
    picture = next(Path(tmp_path).glob("page*.png"))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True, check=True
    ).stdout.strip()
    code = code_shown(certified.certificate.code)
    assert decoded == f"https://dealers.example.com/verify/{code}/"


def test_the_qr_code_drawn_is_the_verify_address(certified, settings):
    # Without zbarimg: the matrix the PDF draws is segno's for the address.
    settings.SHOESCHOOL_PUBLIC_URL = "https://dealers.example.com"
    address = verify_address(certified.certificate)
    assert address.startswith("https://dealers.example.com/verify/")
    assert segno.make(address, error="m", micro=False).designator.endswith("-M")


def test_a_withdrawn_certificate_says_so_on_its_pdf(certified, trainee, pit_boss, tmp_path):
    withdraw(certified, pit_boss)
    path = tmp_path / "certificate.pdf"
    path.write_bytes(download(trainee, certified).content)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "This certificate was withdrawn." in text


def test_who_may_download_it(
    certified, trainee, other_trainee, pit_boss, pit, compliance_officer, admin_user
):
    assert download(trainee, certified).status_code == 200
    assert download(pit_boss, certified).status_code == 200
    assert download(compliance_officer, certified).status_code == 200
    assert download(admin_user, certified).status_code == 200
    assert download(other_trainee, certified).status_code == 404
    assert download(pit["other_boss"], certified).status_code == 404
    response = Client().get(reverse("credentials:certificate_pdf", args=[certified.pk]))
    assert response.status_code == 302


def test_the_trainee_and_the_pit_find_the_certificate_links(certified, trainee, pit_boss):
    pdf = reverse("credentials:certificate_pdf", args=[certified.pk])
    verify = reverse("verify:code", args=[code_shown(certified.certificate.code)])
    for user, url in (
        (trainee, reverse("record:mine")),
        (pit_boss, reverse("pit:trainee_certification", args=[trainee.pk])),
    ):
        body = client_for(user).get(url).content.decode()
        assert f'href="{pdf}"' in body
        assert "Certificate (PDF)" in body
        assert f'href="{verify}"' in body
        assert "Share / verify" in body
