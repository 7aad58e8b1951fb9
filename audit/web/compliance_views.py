"""The compliance pages: request a report, list and download reports, verify the ledger.

Compliance officers and administrators only; everyone else gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django import forms
from django.contrib import messages
from django.http import FileResponse, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from audit.models import ReportStatus
from audit.selectors.reports import compliance_reports_list
from audit.selectors.self_check import self_check as self_check_run
from audit.services.reports.lifecycle import (
    compliance_report_download,
    compliance_report_request,
    file_extension,
    stored_report_open,
)
from audit.services.reports.periods import preset_choices, preset_period
from audit.services.reports.rows import FORMATS
from core import pages
from core.access import role_required
from core.errors import CHOICE_ERRORS, ProductError
from ledger.services.verify import LedgerVerification, ledger_verify

P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponseBase]

# The service names its fields as the command does; the form calls them start and end.
_FORM_FIELD = {"from": "start", "to": "end", "format": "fmt"}


# The formats in the words of the form; the flat CSV is the decisions alone.
FORMAT_WORDS = {
    "pdf": "PDF",
    "csv": "CSV (every section)",
    "flat": "Decisions only (CSV, one header row, for a spreadsheet's filters)",
}


class ReportRequestForm(forms.Form):
    preset = forms.ChoiceField(
        error_messages=CHOICE_ERRORS,
        label="Period",
        required=False,
        choices=[],
        initial="",
        widget=forms.RadioSelect,
    )
    start = forms.DateField(
        label="From", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        label="To", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    fmt = forms.ChoiceField(
        error_messages=CHOICE_ERRORS,
        label="Format",
        choices=[(fmt, FORMAT_WORDS[fmt]) for fmt in ("pdf", "csv", "flat") if fmt in FORMATS],
        initial="pdf",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Today in the house's time zone, so the days are those of the house's calendar.
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)
        preset.choices = [("", "The days below"), *preset_choices()]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("preset"):
            cleaned["start"], cleaned["end"] = preset_period(cleaned["preset"])
            return cleaned
        for name in ("start", "end"):
            if not cleaned.get(name) and name not in self.errors:
                self.add_error(
                    name,
                    f"The day the period {'starts' if name == 'start' else 'ends'} on is "
                    "required, unless a period is picked above.",
                )
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            self.add_error(
                "start",
                f"“From” ({start:%Y-%m-%d}) is after “To” ({end:%Y-%m-%d}): the period must "
                "start on or before the day it ends.",
            )
        return cleaned


# Who may open these pages is written in core.pages, which the top bar follows too.
compliance_view = role_required(*pages.COMPLIANCE.roles, refusal=pages.COMPLIANCE.refusal)


def _page(
    request: HttpRequest,
    *,
    form: ReportRequestForm | None = None,
    verification: LedgerVerification | None = None,
    status: int = 200,
) -> HttpResponse:
    reports = list(compliance_reports_list())
    context = {
        "form": form or ReportRequestForm(),
        "reports": reports,
        "busy": any(r.status in (ReportStatus.PENDING, ReportStatus.RUNNING) for r in reports),
        "verification": verification,
    }
    return render(request, "audit/compliance/index.html", context, status=status)


@require_GET
@compliance_view
def index(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_http_methods(["GET", "POST"])
@compliance_view
def report_request(request: HttpRequest) -> HttpResponse:
    # A bookmark or a restored tab of the form's address: the page with the form.
    if request.method == "GET":
        return redirect("compliance:index")
    form = ReportRequestForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, status=400)
    data = form.cleaned_data
    try:
        report = compliance_report_request(
            start=data["start"], end=data["end"], fmt=data["fmt"], user=request.user
        )
    except ProductError as error:
        if error.status != 400:
            raise
        form.add_error(_FORM_FIELD.get(error.field or ""), error.message)
        return _page(request, form=form, status=400)
    if report.status == ReportStatus.READY:
        messages.success(
            request, f"The report ({report.get_format_display()}) is ready to download."
        )
    elif report.status == ReportStatus.FAILED:
        messages.error(request, f"The report failed: {report.error}")
    else:
        messages.info(request, "The period is large: the report is being produced.")
    return redirect("compliance:index")


@require_GET
@compliance_view
def report_download(request: HttpRequest, report_id: int) -> HttpResponseBase:
    try:
        report = compliance_report_download(report_id=report_id, user=request.user)
    except ProductError as error:
        if error.status != 409:
            raise
        messages.error(request, error.message)
        return _page(request, status=409)
    what = "decisions" if report.format == "flat" else "compliance"
    filename = (
        f"shoe-school-{what}-{report.period_start.isoformat()}"
        f"-{report.period_end.isoformat()}-{report.pk}.{file_extension(report.format)}"
    )
    response = FileResponse(
        stored_report_open(report),
        as_attachment=True,
        filename=filename,
        content_type=("application/pdf" if report.format == "pdf" else "text/csv; charset=utf-8"),
    )
    # A file read from the database cannot seek, so FileResponse cannot tell its length: the
    # size recorded with its sha256, just checked, is the file's.
    if "Content-Length" not in response and report.size_bytes is not None:
        response["Content-Length"] = str(report.size_bytes)
    return response


@require_http_methods(["GET", "POST"])
@compliance_view
def verify(request: HttpRequest) -> HttpResponse:
    # Revisited (a bookmark, a restored tab, a reload after the result): the page with the
    # button that verifies, never a blank refusal. Verifying is a POST: it reads the whole
    # chain, which a link followed by a crawler or a prefetch must not start.
    if request.method == "GET":
        return _page(request)
    # The whole chain, as the page says: the reports verify from the last checkpoint.
    return _page(request, verification=ledger_verify(full=True))


@require_GET
@compliance_view
def self_check(request: HttpRequest) -> HttpResponse:
    """What the installation keeps against the jurisdiction it follows, printable."""
    return render(request, "audit/compliance/self_check.html", {"check": self_check_run()})
