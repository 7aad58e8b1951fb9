"""The compliance report service: CSV and PDF content, stored reports, the task and the ledger."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
import time
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import OperationalError, connection

from audit.models import Certification, ComplianceReport, ReportStatus, RetrainingFlag, Review
from audit.selectors.report_decisions import report_decisions, report_decisions_csv
from audit.services.reports.lifecycle import (
    compliance_report_download,
    compliance_report_produce,
    compliance_report_request,
    compliance_report_sweep,
)
from audit.services.reports.pdf import compliance_report_write_pdf
from audit.services.reports.rows import compliance_report_write_csv, decision_row
from audit.tasks import produce_compliance_report
from core.errors import ConflictError, ForbiddenError, ProductError
from core.postgres import csv_line
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.append import ledger_append
from ledger.services.verify import ledger_verify
from tests.audit.factories import (
    RIGHT,
    GradeSpec,
    TrainingClassFactory,
    graded_attempt,
    overpay,
    profile_version,
    underpay,
)
from tests.factories import UserFactory, entries_written
from tests.ledger_protection import tamper
from tests.pdf import needs_pdftotext, pdf_text
from tests.vouching import vouch_rows

DAY = dt.date(2026, 3, 10)
NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def period_data(trainee, other_trainee, pit_boss):
    """Tina (class Spring) got 1 of 3 right: overpaid 5.00, underpaid 2.50; Otto got 2 of 2,
    graded twice; an attempt of Tina's a month earlier falls outside the period."""
    trainee.first_name, trainee.last_name = "Tina", "Turner"
    trainee.save()
    TrainingClassFactory(name="Spring", trainees=[trainee], instructors=[pit_boss])
    tina = graded_attempt(
        trainee=trainee, grades=[RIGHT, overpay("5.00"), underpay("2.50")], submitted_at=NOON
    )
    graded_attempt(trainee=other_trainee, grades=[RIGHT, RIGHT], submitted_at=NOON, runs=2)
    graded_attempt(
        trainee=trainee,
        grades=[overpay("100.00")],
        submitted_at=NOON - dt.timedelta(days=30),
    )
    grade = tina.grading_runs.get().grades.get(question=2)
    review = Review.objects.create(grade=grade, reviewer=pit_boss, comment="Counted the 3:2 as 2:1")
    # Reviewed within the period (created_at is stamped on insert).
    Review.objects.filter(pk=review.pk).update(created_at=NOON + dt.timedelta(hours=1))
    Certification.objects.create(
        trainee=other_trainee,
        profile=profile_version().profile,
        signed_by=pit_boss,
        signer_full_name="Bea Boss",
        signer_role="pit_boss",
        signed_at=NOON,
        expires_at=NOON + dt.timedelta(days=365),
        statement="Ready to deal casino-shoe",
        override_reason="The flag is for rounding on 6:5; this table pays 3:2",
        flags_overridden=[7],
        acknowledged=["Answers averaged 1.2 s, faster than 1.5 s"],
    )
    # Written outside the services: vouched for as the backfill vouches for older rows.
    vouch_rows()
    ledger_append(
        event=Event.DECISION_RECORDED, subject_type="decision", subject_id=1, payload={"n": 1}
    )
    return tina


def sections(text: str) -> dict[str, list[list[str]]]:
    """Rows by section, without the section cell; each section's first row is its header."""
    grouped: dict[str, list[list[str]]] = defaultdict(list)
    for row in csv.reader(io.StringIO(text)):
        grouped[row[0]].append(row[1:])
    return dict(grouped)


def as_dicts(rows: list[list[str]]) -> list[dict[str, str]]:
    header, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


def csv_report(start: dt.date = DAY, end: dt.date = DAY) -> dict[str, list[list[str]]]:
    out = io.StringIO()
    compliance_report_write_csv(start=start, end=end, out=out)
    return sections(out.getvalue())


@pytest.mark.django_db
def test_the_csv_states_the_period_and_the_totals(period_data):
    report = csv_report()
    header = dict(row for row in report["report"][1:])
    assert header["period_start"] == "2026-03-10"
    assert header["period_end"] == "2026-03-10"
    assert header["retention_years"] == "5"
    summary = dict(row for row in report["summary"][1:])
    assert summary["trainees"] == "2"
    assert summary["attempts"] == "2"
    assert summary["questions graded"] == "5"
    assert summary["answered right"] == "3"
    assert summary["accuracy (%)"] == "60.00"
    assert summary["overpaid (USD)"] == "5.00"
    assert summary["underpaid (USD)"] == "2.50"


@pytest.mark.django_db
def test_the_csv_summarises_each_trainee_with_their_classes(period_data, pit_boss):
    trainees = {row["trainee"]: row for row in as_dicts(csv_report()["trainees"])}
    assert trainees["tina"] == {
        "trainee": "tina",
        "name": "Tina Turner",
        "classes": "Spring",
        "attempts": "1",
        "graded_attempts": "1",
        "questions": "3",
        "correct": "1",
        "accuracy_percent": "33.33",
        "not_answered": "0",
        "overpaid": "5.00",
        "underpaid": "2.50",
    }
    # Graded twice, counted once: only the current run counts.
    assert trainees["otto"]["questions"] == "2"
    assert trainees["otto"]["accuracy_percent"] == "100.00"
    assert as_dicts(csv_report()["classes"]) == [
        {
            "class": "Spring",
            "instructors": f"{pit_boss.get_full_name()} (boss)",
            "trainees_on_roster": "1",
            "trainees_who_submitted": "1",
            "attempts": "1",
        }
    ]


@pytest.mark.django_db
def test_the_csv_totals_mispays_by_category_with_money(period_data):
    mispays = as_dicts(csv_report()["mispays"])
    assert mispays == [
        {
            "category": "Overpay",
            "count": "1",
            "overpaid": "5.00",
            "underpaid": "0.00",
            "net": "5.00",
        },
        {
            "category": "Underpay",
            "count": "1",
            "overpaid": "0.00",
            "underpaid": "2.50",
            "net": "-2.50",
        },
    ]


@pytest.mark.django_db
def test_the_csv_lists_every_graded_question_of_the_period(period_data):
    decisions = as_dicts(csv_report()["decisions"])
    assert len(decisions) == 5
    overpaid = next(row for row in decisions if row["category"] == "Overpay")
    assert overpaid["trainee"] == "tina"
    assert overpaid["money_diff"] == "5.00"
    assert overpaid["correct"] == "no"
    # Answers as a dealer says them, the action and the amount in columns of their own.
    assert (overpaid["given_action"], overpaid["given_amount"]) == ("Pay", "15.00")
    assert (overpaid["expected_action"], overpaid["expected_amount"]) == ("Pay", "10.00")
    assert overpaid["answered_at"] == "2026-03-10 12:00:00 UTC"
    assert overpaid["response_ms"] == "3000"


@pytest.mark.django_db
def test_a_missed_question_is_listed_without_an_answer(trainee):
    graded_attempt(
        trainee=trainee,
        grades=[GradeSpec(False, "procedure_error", Decimal("0.00"), answered=False)],
        submitted_at=NOON,
    )
    (row,) = as_dicts(csv_report()["decisions"])
    assert (row["answered_at"], row["given_action"], row["given_amount"], row["category"]) == (
        "",
        "",
        "",
        "Procedure error",
    )


@pytest.mark.django_db
def test_the_csv_lists_reviews_and_sign_offs_with_who_and_when(
    period_data, pit_boss, other_trainee
):
    report = csv_report()
    (review,) = as_dicts(report["reviews"])
    assert review["reviewer"] == f"{pit_boss.get_full_name()} (boss)"
    assert review["trainee"] == "Tina Turner (tina)"
    assert review["category"] == "Overpay"
    assert review["comment"] == "Counted the 3:2 as 2:1"
    assert review["reviewed_at"] == "2026-03-10 13:00:00 UTC"
    (signoff,) = as_dicts(report["signoffs"])
    assert signoff["signed_at"] == "2026-03-10 12:00:00 UTC"
    assert (signoff["signed_by"], signoff["signer_full_name"]) == (
        f"{pit_boss.get_full_name()} (boss)",
        "Bea Boss",
    )
    assert signoff["trainee"] == f"{other_trainee.get_full_name()} (otto)"
    assert signoff["signer_role"] == "Pit boss"
    assert signoff["expires_at"] == "2027-03-10 12:00:00 UTC"
    # The flag's id names no flag on record here: said so, never "flag #7".
    assert signoff["flags_overridden"] == "a retraining flag no longer on record"
    assert signoff["override_reason"] == "The flag is for rounding on 6:5; this table pays 3:2"
    assert signoff["acknowledged"] == "Answers averaged 1.2 s, faster than 1.5 s"
    assert signoff["statement"] == "Ready to deal casino-shoe"


@pytest.mark.django_db
def test_the_csv_ends_with_the_ledger_verification_and_head_hash(period_data):
    (ledger,) = as_dicts(csv_report()["ledger"])
    assert ledger["ok"] == "yes"
    assert ledger["head_hash"] == ledger_verify().head_hash
    assert ledger["entries"] == str(LedgerEntry.objects.count())
    assert (ledger["anchors_checked"], ledger["problems"]) == ("1", "")
    # No checkpoint file here: the whole chain was recomputed, and the report says so.
    assert ledger["verified"] == "every entry recomputed, from the first"


@pytest.mark.django_db
def test_a_broken_ledger_is_reported_as_broken(period_data):
    ledger_append(event="x", subject_type="t", subject_id=2, payload={"n": 2})
    tamper("UPDATE audit_ledgerentry SET subject_id = 'forged' WHERE sequence = 1")
    (ledger,) = as_dicts(csv_report()["ledger"])
    assert (ledger["ok"], ledger["first_break_sequence"]) == ("no", "1")


@pytest.mark.django_db
def test_a_ledger_cut_short_is_reported_as_broken_with_the_reason(period_data):
    last = ledger_append(event="x", subject_type="t", subject_id=2, payload={"n": 2}).sequence
    tamper(f"DELETE FROM audit_ledgerentry WHERE sequence = {last}")  # noqa: S608 - an int
    (ledger,) = as_dicts(csv_report()["ledger"])
    assert (ledger["ok"], ledger["entries"], ledger["first_break_sequence"]) == (
        "no",
        str(last - 1),
        str(last),
    )
    assert ledger["first_break_reason"] == (
        f"the ledger ends at entry {last - 1} but its head says {last} entries: entries were "
        "removed"
    )


@pytest.mark.django_db
def test_an_empty_period_gives_headers_and_zero_totals():
    report = csv_report(dt.date(2020, 1, 1), dt.date(2020, 1, 31))
    assert as_dicts(report["trainees"]) == []
    assert dict(row for row in report["summary"][1:])["accuracy (%)"] == ""
    assert as_dicts(report["ledger"])[0]["entries"] == "0"


def finished(report: ComplianceReport) -> bool:
    try:
        report.refresh_from_db()
    except OperationalError:
        # SQLite's shared in-memory test database refuses a read while the worker writes.
        return False
    return report.status in (ReportStatus.READY, ReportStatus.FAILED)


def wait_for(condition: Callable[[], bool], *, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return condition()


@needs_pdftotext
@pytest.mark.django_db
def test_the_pdf_reads_back_with_period_trainees_totals_and_head_hash(period_data, tmp_path):
    path = tmp_path / "report.pdf"
    verification = compliance_report_write_pdf(start=DAY, end=DAY, out=str(path))
    text = pdf_text(path)
    assert "Shoe School compliance report" in text
    assert "2026-03-10 to 2026-03-10" in text
    assert "Tina Turner" in text
    assert "33.33" in text
    assert "5.00" in text
    assert "2.50" in text
    assert "Counted the 3:2 as 2:1" in text
    assert "Bea Boss" in text
    assert "Pit boss" in text
    # Times to the minute in UTC, categories by their labels.
    assert "12:00 UTC" in text or "12:00\nUTC" in text or "2026-03-10 12:00" in text
    assert "+00:00" not in text
    assert "Overpay" in text
    assert "overpay" not in text
    assert "2027-03-10" in text
    # The override and the acknowledged warning are part of the signed record.
    flat = " ".join(text.split())
    assert "Signed over, in force: a retraining flag no longer on record" in flat
    assert "this table pays 3:2" in flat
    # The signer's cell ("name, as name (username), role") wraps beside it.
    assert "Acknowledged: Answers" in flat
    assert "averaged 1.2 s, faster than 1.5 s" in flat
    assert verification.head_hash in text
    assert "The hash chain holds" in text
    assert "Page 2" in text


@pytest.mark.django_db
def test_a_small_request_is_stored_at_once_and_logged_with_its_sha256(
    period_data, compliance_officer, media
):
    report = compliance_report_request(start=DAY, end=DAY, fmt="csv", user=compliance_officer)
    assert report.status == ReportStatus.READY
    stored = Path(media) / report.file.name
    assert stored.parent.name == "reports"
    content = stored.read_bytes()
    assert report.sha256 == hashlib.sha256(content).hexdigest()
    assert report.size_bytes == len(content)
    assert report.ledger_ok is True
    assert report.ledger_entries == LedgerEntry.objects.count() - 1
    assert f"ledger,{LedgerEntry.objects.count() - 1},{report.ledger_head_hash}" in content.decode()
    entry = LedgerEntry.objects.get(event=Event.REPORT_EXPORTED)
    assert entry.actor_id == compliance_officer.pk
    assert entry.subject_id == str(report.pk)
    assert entry.payload["sha256"] == report.sha256
    assert entry.payload["ledger_head_hash"] == report.ledger_head_hash
    assert entry.payload["period_start"] == "2026-03-10"
    assert entry.payload["format"] == "csv"
    assert ledger_verify().ok


@pytest.mark.django_db
def test_producing_a_ready_report_again_changes_nothing(period_data, compliance_officer, media):
    report = compliance_report_request(start=DAY, end=DAY, fmt="pdf", user=compliance_officer)
    again = compliance_report_produce(report_id=report.pk)
    assert (again.sha256, again.file.name) == (report.sha256, report.file.name)
    assert LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start", "end", "fmt", "field"),
    [
        (dt.date(2026, 3, 11), DAY, "csv", "from"),
        (DAY, DAY, "xlsx", "format"),
        ("2026-03-10", DAY, "csv", "from"),
    ],
)
def test_a_bad_request_names_the_fault_and_records_nothing(
    compliance_officer, media, start, end, fmt, field
):
    with pytest.raises(ProductError) as caught:
        compliance_report_request(start=start, end=end, fmt=fmt, user=compliance_officer)
    assert caught.value.field == field
    assert caught.value.status == 400
    assert not ComplianceReport.objects.exists()
    assert not entries_written().exists()


@pytest.mark.django_db
def test_only_compliance_officers_and_admins_may_request(trainee, pit_boss, admin_user, media):
    for outsider in (trainee, pit_boss):
        with pytest.raises(ForbiddenError):
            compliance_report_request(start=DAY, end=DAY, fmt="csv", user=outsider)
    assert not ComplianceReport.objects.exists()
    report = compliance_report_request(start=DAY, end=DAY, fmt="csv", user=admin_user)
    assert report.status == ReportStatus.READY


@pytest.mark.django_db
def test_a_download_is_logged_and_a_changed_file_is_refused(period_data, compliance_officer, media):
    report = compliance_report_request(start=DAY, end=DAY, fmt="csv", user=compliance_officer)
    compliance_report_download(report_id=report.pk, user=compliance_officer)
    entries = LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).order_by("sequence")
    assert [entry.payload["via"] for entry in entries] == ["stored", "download"]
    (Path(media) / report.file.name).write_text("report,forged\n")
    with pytest.raises(ConflictError, match="sha256"):
        compliance_report_download(report_id=report.pk, user=compliance_officer)
    assert entries.count() == 2


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_large_request_is_produced_by_the_celery_task_and_logged(
    settings, compliance_officer, media, celery_worker
):
    # The worker starts after the users exist: SQLite's shared in-memory test database
    # refuses a write while another thread holds a table ("table is locked").
    settings.COMPLIANCE_REPORT_SYNC_MAX_QUESTIONS = 1
    graded_attempt(trainee=compliance_officer, grades=[RIGHT, overpay("1.00")], submitted_at=NOON)
    report = compliance_report_request(start=DAY, end=DAY, fmt="pdf", user=compliance_officer)
    assert report.status == ReportStatus.PENDING
    assert wait_for(lambda: finished(report)), (report.status, report.error)
    report.refresh_from_db()
    assert report.status == ReportStatus.READY, report.error
    stored = Path(media) / report.file.name
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == report.sha256
    entry = LedgerEntry.objects.get(event=Event.REPORT_EXPORTED)
    assert entry.payload["sha256"] == report.sha256
    assert entry.payload["via"] == "stored"


@pytest.mark.django_db
def test_a_report_that_cannot_be_stored_is_marked_failed_with_the_reason(
    settings, tmp_path, compliance_officer
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    settings.MEDIA_ROOT = blocker
    report = compliance_report_request(start=DAY, end=DAY, fmt="csv", user=compliance_officer)
    assert report.status == ReportStatus.FAILED
    assert "not-a-folder" in report.error
    assert not LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).exists()


@pytest.mark.django_db
def test_the_task_produces_a_queued_report(compliance_officer, media):
    report = ComplianceReport.objects.create(
        period_start=DAY, period_end=DAY, format="csv", requested_by=compliance_officer
    )
    assert produce_compliance_report(report.pk) == ReportStatus.READY
    report.refresh_from_db()
    assert report.sha256
    assert LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).count() == 1


@pytest.mark.django_db
def test_the_sweep_queues_again_only_reports_stuck_past_the_timeout(
    compliance_officer, django_capture_on_commit_callbacks
):
    stuck, recent = (
        ComplianceReport.objects.create(
            period_start=DAY, period_end=DAY, format="pdf", requested_by=compliance_officer
        )
        for _ in range(2)
    )
    # Only `stuck` was requested over 30 minutes ago.
    ComplianceReport.objects.filter(pk=stuck.pk).update(
        requested_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
    )
    with django_capture_on_commit_callbacks() as queued:
        assert compliance_report_sweep() == [stuck.pk]
    assert len(queued) == 1
    assert recent.status == ReportStatus.PENDING


# Formula injection: text people typed must not run as a formula when the CSV is opened.

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def typed_formulas(pit_boss):
    """Every free-text cell of the report starting as a spreadsheet formula would."""
    trainee = UserFactory(
        username="-2+3", first_name='=HYPERLINK("http://evil.example")', last_name="",
        roles=["trainee"],
    )  # fmt: skip
    numeric = UserFactory(username="-7", first_name="Minus", last_name="Seven", roles=["trainee"])
    TrainingClassFactory(name="+cmd|' /C calc'!A0", trainees=[trainee], instructors=[pit_boss])
    attempt = graded_attempt(
        trainee=trainee, grades=[RIGHT, overpay("5.00"), underpay("2.50")], submitted_at=NOON
    )
    graded_attempt(trainee=numeric, grades=[RIGHT], submitted_at=NOON)
    grade = attempt.grading_runs.get().grades.get(question=2)
    review = Review.objects.create(grade=grade, reviewer=pit_boss, comment="=1+1")
    flag = RetrainingFlag.objects.create(trainee=trainee, flagged_by=pit_boss, reason="\t=cmd")
    Review.objects.filter(pk=review.pk).update(created_at=NOON)
    RetrainingFlag.objects.filter(pk=flag.pk).update(created_at=NOON)
    Certification.objects.create(
        trainee=trainee,
        profile=profile_version().profile,
        signed_by=pit_boss,
        signer_full_name="-Bea Boss",
        signed_at=NOON,
        statement="\r@SUM(1+1)",
    )
    return trainee


def is_plain_number(cell: str) -> bool:
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cell) is not None


@pytest.mark.django_db
def test_no_csv_cell_starts_as_a_formula_unless_it_is_a_plain_number(typed_formulas):
    out = io.StringIO()
    compliance_report_write_csv(start=DAY, end=DAY, out=out)
    cells = [cell for row in csv.reader(io.StringIO(out.getvalue())) for cell in row]
    risky = [c for c in cells if c.startswith(FORMULA_START) and not is_plain_number(c)]
    assert risky == []
    assert "-2.50" in cells  # a negative amount stays a number


@pytest.mark.django_db
def test_typed_formulas_reach_the_csv_neutralised_with_a_leading_quote(typed_formulas):
    report = csv_report()
    trainees = {row["trainee"]: row for row in as_dicts(report["trainees"])}
    assert trainees["'-2+3"]["name"] == """'=HYPERLINK("http://evil.example")"""
    # A name that is just a number is no formula: a spreadsheet shows it as that number.
    assert trainees["-7"]["name"] == "Minus Seven"
    assert as_dicts(report["classes"])[0]["class"] == "'+cmd|' /C calc'!A0"
    decisions = as_dicts(report["decisions"])
    assert {row["trainee"] for row in decisions} == {"'-2+3", "-7"}
    # Named with the name: the cell starts with the typed name, neutralised the same way.
    evil = """'=HYPERLINK("http://evil.example") (-2+3)"""
    (review,) = as_dicts(report["reviews"])
    assert (review["trainee"], review["comment"]) == (evil, "'=1+1")
    (flag,) = as_dicts(report["retraining"])
    assert (flag["trainee"], flag["reason"]) == (evil, "'\t=cmd")
    (signoff,) = as_dicts(report["signoffs"])
    assert (signoff["signer_full_name"], signoff["statement"]) == ("'-Bea Boss", "'\r@SUM(1+1)")


@pytest.mark.django_db
def test_a_carriage_return_in_typed_text_cannot_end_its_row_and_forge_another(pit_boss, trainee):
    Certification.objects.create(
        trainee=trainee,
        profile=profile_version().profile,
        signed_by=pit_boss,
        signer_full_name="Bea Boss",
        signed_at=NOON,
        statement="Ready\rsignoffs,2026-03-10T12:00:00+00:00,root,Forged Name,otto",
    )
    (signoff,) = as_dicts(csv_report()["signoffs"])
    assert signoff["statement"] == (
        "Ready\rsignoffs,2026-03-10T12:00:00+00:00,root,Forged Name,otto"
    )


@pytest.mark.django_db
def test_negative_amounts_stay_plain_numbers(typed_formulas):
    report = csv_report()
    underpay_row = next(r for r in as_dicts(report["mispays"]) if r["category"] == "Underpay")
    assert underpay_row["net"] == "-2.50"
    decision = next(r for r in as_dicts(report["decisions"]) if r["category"] == "Underpay")
    assert decision["money_diff"] == "-2.50"


@needs_pdftotext
@pytest.mark.django_db
def test_the_pdf_shows_typed_text_as_typed(typed_formulas, tmp_path):
    # Only the CSV is read by spreadsheets: the PDF needs no quote in front.
    path = tmp_path / "report.pdf"
    compliance_report_write_pdf(start=DAY, end=DAY, out=str(path))
    text = pdf_text(path)
    assert "=1+1" in text
    assert "'=1+1" not in text


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the decisions are written by SQL on PostgreSQL only"
)
@pytest.mark.django_db
def test_postgresql_writes_the_decisions_as_python_would(typed_formulas):
    # The SQL that writes the decision rows mirrors the Python that writes them elsewhere.
    for username in ("=x", "+x", "@x", "\tx", "\rx", "-x", "-1", "-1.50", "-1.", "-.5", "-1e5",
                     "'x", 'a"b', "a,b", "a\nb", "a\rb"):  # fmt: skip
        graded_attempt(
            trainee=UserFactory(username=username, roles=["trainee"]),
            grades=[RIGHT],
            submitted_at=NOON,
        )
    in_python = "".join(csv_line(decision_row(row)) for row in report_decisions(start=DAY, end=DAY))
    in_sql = report_decisions_csv(start=DAY, end=DAY)
    assert in_sql is not None
    assert "".join(in_sql) == in_python
