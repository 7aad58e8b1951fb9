"""manage.py export_compliance_report."""

import datetime as dt
import hashlib
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.factories import RIGHT, graded_attempt, overpay
from tests.factories import entries_written
from tests.pdf import needs_pdftotext, pdf_text

NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


def export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_compliance_report", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def graded(trainee):
    return graded_attempt(trainee=trainee, grades=[RIGHT, overpay("7.50")], submitted_at=NOON)


@pytest.mark.django_db
def test_it_writes_the_csv_and_logs_the_export_with_its_sha256(graded, tmp_path):
    path = tmp_path / "q1.csv"
    out = export(
        "--from", "2026-03-01", "--to", "2026-03-31", "--format", "csv", "--out", str(path)
    )
    content = path.read_bytes()
    digest = hashlib.sha256(content).hexdigest()
    assert f"sha256: {digest}" in out
    assert "summary,overpaid (USD),7.50" in content.decode()
    assert content.decode().count("\ndecisions,") == 3  # the header and two questions
    entry = LedgerEntry.objects.get(event=Event.REPORT_EXPORTED)
    assert entry.actor is None
    assert entry.payload["sha256"] == digest
    assert entry.payload["via"] == "file"
    assert entry.payload["period_start"] == "2026-03-01"
    assert ledger_verify().ok


@needs_pdftotext
@pytest.mark.django_db
def test_it_writes_a_pdf_that_reads_back(graded, trainee, tmp_path):
    path = tmp_path / "q1.pdf"
    export("--from", "2026-03-01", "--to", "2026-03-31", "--format", "pdf", "--out", str(path))
    text = pdf_text(path, layout=False)
    assert "2026-03-01 to 2026-03-31" in text
    assert trainee.get_full_name() in text


@pytest.mark.django_db
def test_it_records_the_user_named(graded, compliance_officer, tmp_path):
    path = tmp_path / "r.csv"
    export("--from", "2026-03-10", "--to", "2026-03-10", "--format", "csv", "--out", str(path))
    export(
        "--from", "2026-03-10", "--to", "2026-03-10", "--format", "csv", "--out", str(path),
        "--user", "carla",
    )  # fmt: skip
    actors = LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).order_by("sequence")
    assert [entry.actor_id for entry in actors] == [None, compliance_officer.pk]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "2026-03-31", "--to", "2026-03-01"], "is after --to"),
        (["--from", "31/03/2026", "--to", "2026-04-01"], "--from must be a date as YYYY-MM-DD"),
        (["--from", "2026-03-01", "--to", "soon"], "--to must be a date"),
        (["--from", "2026-02-30", "--to", "2026-03-01"], "--from must be a date"),
        (["--from", "2026-03-01", "--to", "2026-03-02", "--user", "nobody"], "no user named"),
    ],
)
def test_it_refuses_bad_arguments_with_a_clear_message_and_writes_nothing(tmp_path, args, message):
    path = tmp_path / "r.csv"
    with pytest.raises(CommandError, match=message):
        export(*args, "--format", "csv", "--out", str(path))
    assert not path.exists()
    assert not entries_written().exists()


@pytest.mark.django_db
def test_it_refuses_an_output_folder_that_does_not_exist(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        export(
            "--from", "2026-03-01", "--to", "2026-03-02", "--format", "csv",
            "--out", str(tmp_path / "missing" / "r.csv"),
        )  # fmt: skip
