"""The compliance pages under /compliance/: request, list, download, verify; roles; CSRF."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import ComplianceReport, ReportStatus
from audit.services.reports.lifecycle import compliance_report_request
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.append import PendingEntry, ledger_append, ledger_append_many
from ledger.services.verify import ledger_verify
from tests.audit.factories import RIGHT, graded_attempt, overpay
from tests.factories import PASSWORD, entries_written
from tests.ledger_protection import tamper

NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
INDEX = "/compliance/"
REQUEST = "/compliance/reports/"
VERIFY = "/compliance/verify/"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def officer(compliance_officer) -> Client:
    return client_for(compliance_officer)


@pytest.fixture
def ready_report(compliance_officer, trainee):
    graded_attempt(trainee=trainee, grades=[RIGHT, overpay("5.00")], submitted_at=NOON)
    return compliance_report_request(
        start=NOON.date(), end=NOON.date(), fmt="csv", user=compliance_officer
    )


def download_url(report: ComplianceReport) -> str:
    return reverse("compliance:report_download", args=[report.pk])


@pytest.mark.django_db
def test_the_urls_are_where_the_nav_links():
    assert reverse("compliance:index") == INDEX
    assert reverse("compliance:report_request") == REQUEST
    assert reverse("compliance:verify") == VERIFY


@pytest.mark.django_db
def test_it_sends_an_anonymous_visitor_to_log_in():
    response = Client().get(INDEX)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["trainee", "pit_boss"])
def test_it_refuses_every_page_to_other_roles(request, role, ready_report):
    client = client_for(request.getfixturevalue(role))
    assert client.get(INDEX).status_code == 403
    assert (
        client.post(REQUEST, {"start": "2026-03-10", "end": "2026-03-10", "fmt": "csv"}).status_code
        == 403
    )
    assert client.get(download_url(ready_report)).status_code == 403
    assert client.post(VERIFY).status_code == 403
    assert ComplianceReport.objects.count() == 1
    assert LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["compliance_officer", "admin_user"])
def test_it_shows_the_form_the_reports_and_the_verify_panel(request, role, ready_report):
    response = client_for(request.getfixturevalue(role)).get(INDEX)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="start"' in page
    assert 'name="fmt"' in page
    assert "Verify the log now" in page
    assert ready_report.sha256 in page
    assert ready_report.ledger_head_hash in page
    assert "2026-03-10 – 2026-03-10" in page
    assert "carla" in page


@pytest.mark.django_db
def test_a_request_produces_the_report_and_lists_it_as_ready(officer, trainee):
    graded_attempt(trainee=trainee, submitted_at=NOON)
    response = officer.post(
        REQUEST, {"start": "2026-03-01", "end": "2026-03-31", "fmt": "pdf"}, follow=True
    )
    assert response.redirect_chain == [(INDEX, 302)]
    report = ComplianceReport.objects.get()
    assert (report.status, report.format) == (ReportStatus.READY, "pdf")
    assert report.period_start == dt.date(2026, 3, 1)
    assert "ready to download" in response.content.decode()
    assert download_url(report) in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"start": "2026-03-31", "end": "2026-03-01", "fmt": "csv"}, "start", "on or before"),
        ({"start": "abc", "end": "2026-03-01", "fmt": "csv"}, "start", "valid date"),
        ({"start": "2026-03-01", "fmt": "csv"}, "end", "required"),
        ({"start": "2026-03-01", "end": "2026-03-02", "fmt": "xlsx"}, "fmt", "valid choice"),
    ],
)
def test_a_bad_request_is_refused_with_the_field_named_and_nothing_recorded(
    officer, data, field, message
):
    response = officer.post(REQUEST, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'data-error="{field}"' in page
    assert message in page
    assert not ComplianceReport.objects.exists()
    assert not entries_written().exists()


@pytest.mark.django_db
def test_a_download_streams_the_stored_file_as_an_attachment_and_is_logged(
    officer, ready_report, media
):
    response = officer.get(download_url(ready_report))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="shoe-school-compliance-2026-03-10-2026-03-10-{ready_report.pk}.csv"'
    )
    body = b"".join(response.streaming_content)
    assert hashlib.sha256(body).hexdigest() == ready_report.sha256
    assert body == (Path(media) / ready_report.file.name).read_bytes()
    entry = LedgerEntry.objects.filter(event=Event.REPORT_EXPORTED).latest("sequence")
    assert entry.payload["via"] == "download"
    assert entry.actor_name == "carla"


@pytest.mark.django_db
def test_a_changed_stored_file_is_not_handed_out(officer, ready_report, media):
    (Path(media) / ready_report.file.name).write_text("summary,overpaid (USD),0.00\n")
    response = officer.get(download_url(ready_report))
    assert response.status_code == 409
    assert "no longer matches" in response.content.decode()


@pytest.mark.django_db
def test_a_report_not_yet_ready_cannot_be_downloaded(officer, compliance_officer):
    pending = ComplianceReport.objects.create(
        period_start=NOON.date(),
        period_end=NOON.date(),
        format="csv",
        requested_by=compliance_officer,
    )
    response = officer.get(download_url(pending))
    assert response.status_code == 409
    assert "pending" in response.content.decode()


@pytest.mark.django_db
def test_downloading_a_report_that_does_not_exist_is_a_404(officer):
    assert officer.get("/compliance/reports/999/download/").status_code == 404


@pytest.mark.django_db
def test_verifying_shows_the_entry_count_and_head_hash(officer):
    for n in range(3):
        ledger_append(event="x", subject_type="t", subject_id=n, payload={"n": n})
    response = officer.post(VERIFY)
    page = response.content.decode()
    assert response.status_code == 200
    assert "The chain holds: 3 entries checked." in page
    assert "It matches every head recorded for it (1)." in page
    assert ledger_verify().head_hash in page


@pytest.mark.django_db
def test_verifying_says_when_entries_were_cut_from_the_end(officer):
    ledger_append_many(entries=[PendingEntry("x", "t", str(n), {"n": n}) for n in range(1000)])
    tamper("DELETE FROM audit_ledgerentry WHERE sequence > %s", [950])
    page = officer.post(VERIFY).content.decode()
    assert (
        "The log fails verification at entry 951: the ledger ends at entry 950 but its head "
        "says 1,000 entries: entries were removed."
    ) in page
    assert "Last intact hash (950 entries hold)" in page
    assert LedgerEntry.objects.get(sequence=950).hash in page


@pytest.mark.django_db
def test_verifying_lists_a_checkpoint_line_that_cannot_be_trusted(officer, settings):
    ledger_append(event="x", subject_type="t", subject_id=1, payload={})
    Path(settings.SHOESCHOOL_LEDGER_ANCHOR_FILE).write_text(
        '{"at":"2026-03-10T12:00:00+00:00","entries":1,"head_hash":"'
        + "a" * 64
        + '","hmac":"'
        + "b" * 64
        + '"}\n'
    )
    page = officer.post(VERIFY).content.decode()
    assert "The log cannot be vouched for." in page
    assert "Line 1 of the checkpoint file: its HMAC does not match" in page


@pytest.mark.django_db
def test_the_forms_require_the_csrf_token(compliance_officer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(compliance_officer)
    assert client.post(VERIFY).status_code == 403
    data = {"start": "2026-03-01", "end": "2026-03-02", "fmt": "csv"}
    assert client.post(REQUEST, data).status_code == 403
    assert not ComplianceReport.objects.exists()


@pytest.mark.django_db
def test_the_pages_answer_only_the_methods_they_serve(officer):
    # Revisiting a form's address (a bookmark, a restored tab) finds the page, not a 405.
    assert officer.get(REQUEST).status_code == 302
    assert officer.get(VERIFY).status_code == 200
    assert officer.post(INDEX).status_code == 405
    assert officer.put(VERIFY).status_code == 405


@pytest.mark.django_db
def test_a_page_with_a_report_in_progress_updates_its_list_by_itself(officer, compliance_officer):
    ComplianceReport.objects.create(
        period_start=NOON.date(),
        period_end=NOON.date(),
        format="pdf",
        requested_by=compliance_officer,
    )
    page = officer.get(INDEX).content.decode()
    # Its list, not the whole page (no timed reload): see static/js/live-section.js.
    assert 'http-equiv="refresh"' not in page
    assert "data-live-section" in page
    assert "js/live-section.js" in page


@pytest.mark.django_db
def test_a_page_with_every_report_finished_does_not_refresh(officer, ready_report):
    page = officer.get(INDEX).content.decode()
    assert "data-live-section" not in page
    assert "js/live-section.js" not in page


# In Chromium.


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_officer_requests_a_pdf_downloads_it_and_verifies_the_log(
    live_server, compliance_officer, trainee, media
):
    from playwright.sync_api import expect

    from tests.browser import artifacts_dir, chromium_page

    graded_attempt(trainee=trainee, grades=[RIGHT, overpay("5.00")], submitted_at=NOON)
    artifacts = artifacts_dir("compliance")
    with chromium_page(viewport={"width": 1200, "height": 900}, accept_downloads=True) as page:
        page.goto(f"{live_server.url}/accounts/login/?next=/compliance/")
        page.fill("#id_username", "carla")
        page.fill("#id_password", PASSWORD)
        page.keyboard.press("Enter")
        expect(page.locator("h1")).to_have_text("Compliance")
        page.fill("#id_start", "2026-03-01")
        page.fill("#id_end", "2026-03-31")
        page.get_by_label("PDF").check()
        page.get_by_role("button", name="Produce the report").click()
        expect(page.locator(".messages")).to_contain_text("ready to download")
        row = page.locator("tr[data-report]")
        expect(row).to_contain_text("2026-03-01 – 2026-03-31")
        expect(row).to_contain_text("Ready")
        with page.expect_download() as info:
            row.get_by_role("link", name="Download").click()
        download = info.value
        assert download.suggested_filename.endswith(".pdf")
        report = ComplianceReport.objects.get()
        assert hashlib.sha256(Path(download.path()).read_bytes()).hexdigest() == report.sha256
        page.get_by_role("button", name="Verify the log now").click()
        expect(page.locator("[data-verdict=ok]")).to_contain_text("The chain holds")
        expect(page.locator("[data-hash]")).to_have_text(ledger_verify().head_hash)
        page.screenshot(path=str(artifacts / "compliance.png"), full_page=True)
