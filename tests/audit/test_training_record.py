"""The trainee's training record: a PDF for the personnel file, read back with pdftotext."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import Certification
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
)
from audit.services.training_record import training_record_pdf
from core.errors import ProductError
from ledger.events import Event
from ledger.models import LedgerEntry, LedgerHead
from ledger.services.verify import ledger_verify
from tests.audit.factories import table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, client_for, make_attempt, signing_request, wrong
from tests.pdf import needs_pdftotext
from trainer.models import RuleProfile

pytestmark = needs_pdftotext

STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "record.pdf"
    path.write_bytes(data)
    result = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return result.stdout


@pytest.fixture
def record(pit, trainee, pit_boss, admin_user):
    """tina: a failed and a passed shoe table test, the pass signed; a double-deck
    certification signed and withdrawn; one flag lifted, one in force."""
    RuleProfile.objects.filter(name="casino-shoe").update(title="Six-deck shoe")
    RuleProfile.objects.filter(name="casino-double-deck").update(title="Double deck")
    shoe, double = table_test("casino-shoe"), table_test("casino-double-deck")
    earlier = timezone.now() - dt.timedelta(days=2)
    make_attempt(trainee=trainee, answers=[wrong("5.00")] * 50, drill=shoe, submitted_at=earlier)
    passed = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=shoe)
    flag = retraining_flag_create(
        trainee=trainee,
        flagged_by=pit_boss,
        reason="Short on 3:2 naturals",
        skills=["natural-3to2"],
    )
    retraining_flag_create(
        trainee=trainee,
        flagged_by=admin_user,
        reason="Retrained, fine now",
        active=False,
        corrects=flag,
    )
    signed = certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=shoe.certifies,
        attempt=passed,
        signer=pit_boss,
        password=PASSWORD,
        statement="Deals the six-deck shoe to standard.",
    )
    on_double = certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=double.certifies,
        attempt=make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=double),
        signer=admin_user,
        password=PASSWORD,
        statement="Deals double deck.",
    )
    withdrawal = certification_withdraw(
        request=signing_request(),
        certification=on_double,
        signer=pit_boss,
        password=PASSWORD,
        statement="Mispaid a split",
    )
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Slow on insurance")
    return {"signed": signed, "withdrawal": withdrawal, "passed": passed}


def test_the_record_holds_sittings_signatures_and_flags(
    record, trainee, pit_boss, admin_user, tmp_path
):
    head = LedgerHead.objects.get()
    data = training_record_pdf(trainee=trainee, user=pit_boss)
    assert data.startswith(b"%PDF")
    text = pdf_text(data, tmp_path)
    flat = " ".join(text.split())
    assert trainee.get_full_name() in flat
    # Exams sat: date, table, score, result.
    assert flat.count("Table test: Six-deck shoe") >= 2
    assert "0.00 % fail" in flat
    assert "100.00 % pass" in flat
    # The signatures: who (full name, role), when, what, until when; the withdrawal.
    signed = record["signed"]
    assert pit_boss.get_full_name() in flat
    assert "Pit boss" in flat
    assert "Administrator" in flat
    assert "Deals the six-deck shoe to standard." in flat
    assert f"{signed.signed_at:%Y-%m-%d %H:%M} UTC" in flat
    assert f"{signed.expires_at:%Y-%m-%d}" in flat
    assert "Withdrawn" in flat
    assert "Mispaid a split" in flat
    # The flags: why, and how, when and by whom lifted; the one in force says so.
    assert "Short on 3:2 naturals" in flat
    assert "Natural at 3:2" in flat
    assert f"Lifted by {admin_user.get_full_name()}" in flat
    assert "Retrained, fine now" in flat
    assert "Slow on insurance" in flat
    assert "In force" in flat
    # The footer: who produced it, when, and the ledger head it was read at.
    assert f"Produced by {pit_boss.get_full_name()} (Pit boss)" in flat
    assert f"entry {head.sequence}," in flat
    assert head.hash[:16] in flat
    assert STAMP.search(flat)
    # Written for a person: titles, not the system's names for things.
    for internal in ("casino-shoe", "casino-double-deck", "natural-3to2", "pit_boss", "None"):
        assert internal not in text, internal


def test_every_download_is_in_the_ledger(record, trainee, compliance_officer):
    before = LedgerHead.objects.get()
    data = training_record_pdf(trainee=trainee, user=compliance_officer)
    entry = LedgerEntry.objects.get(event=Event.TRAINING_RECORD_EXPORTED)
    assert (entry.actor_id, entry.subject_type, entry.subject_id) == (
        compliance_officer.pk,
        "trainee",
        str(trainee.pk),
    )
    assert entry.payload["sha256"] == hashlib.sha256(data).hexdigest()
    assert entry.payload["size_bytes"] == len(data)
    assert entry.payload["ledger_sequence"] == before.sequence
    assert entry.payload["ledger_head_hash"] == before.hash
    training_record_pdf(trainee=trainee, user=compliance_officer)
    assert LedgerEntry.objects.filter(event=Event.TRAINING_RECORD_EXPORTED).count() == 2
    assert ledger_verify().ok


def test_a_trainee_with_no_record_gets_a_record_saying_so(pit, trainee, pit_boss, tmp_path):
    flat = " ".join(pdf_text(training_record_pdf(trainee=trainee, user=pit_boss), tmp_path).split())
    assert "No exam sat." in flat
    assert "No table test signed." in flat
    assert "Never flagged for retraining." in flat


@pytest.mark.parametrize("who", ["other_boss", "tina", "otto", "outsider"])
def test_only_the_trainees_pit_bosses_compliance_and_admins_get_it(
    pit, trainee, other_trainee, who
):
    users = {
        "other_boss": pit["other_boss"],
        "tina": trainee,
        "otto": other_trainee,
        "outsider": UserFactory(username="outsider"),
    }
    with pytest.raises(ProductError) as caught:
        training_record_pdf(trainee=trainee, user=users[who])
    assert caught.value.status == 404
    assert not LedgerEntry.objects.filter(event=Event.TRAINING_RECORD_EXPORTED).exists()


def test_the_page_downloads_it(record, trainee, pit_boss, compliance_officer, admin_user):
    url = reverse("pit:trainee_record", args=[trainee.pk])
    for user in (pit_boss, compliance_officer, admin_user):
        response = client_for(user).get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"].startswith(
            f'attachment; filename="training-record-{trainee.username}-'
        )
        assert response.content.startswith(b"%PDF")
    assert LedgerEntry.objects.filter(event=Event.TRAINING_RECORD_EXPORTED).count() == 3
    section = reverse("pit:trainee_certification", args=[trainee.pk])
    page = client_for(pit_boss).get(section).content.decode()
    assert f'href="{url}"' in page


@pytest.mark.parametrize(("who", "status"), [("other_boss", 404), ("tina", 403), ("otto", 403)])
def test_the_page_refuses_everyone_else(pit, trainee, other_trainee, who, status):
    user = {"other_boss": pit["other_boss"], "tina": trainee, "otto": other_trainee}[who]
    response = client_for(user).get(reverse("pit:trainee_record", args=[trainee.pk]))
    assert response.status_code == status
    assert not LedgerEntry.objects.filter(event=Event.TRAINING_RECORD_EXPORTED).exists()
    assert not Certification.objects.exists()
