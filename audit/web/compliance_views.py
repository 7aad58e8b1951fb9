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
from django.views.decorators.http import require_GET, require_POST

from audit.models import ReportStatus
from audit.selectors_reports import compliance_reports_list
from audit.services.reports.lifecycle import (
    compliance_report_download,
    compliance_report_request,
    stored_report_open,
)
from audit.services.reports.rows import FORMATS
from config import pages
from core.access import role_required
from core.errors import CHOICE_ERRORS, TrainerError
from ledger.services.verify import LedgerVerification, ledger_verify

P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponseBase]

# The service names its fields as the command does; the form calls them start and end.
_FORM_FIELD = {"from": "start", "to": "end", "format": "fmt"}


class ReportRequestForm(forms.Form):
    start = forms.DateField(label="From", widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label="To", widget=forms.DateInput(attrs={"type": "date"}))
    fmt = forms.ChoiceField(
        error_messages=CHOICE_ERRORS,
        label="Format",
        choices=[(fmt, fmt.upper()) for fmt in FORMATS],
        initial="pdf",
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            self.add_error(
                "start",
                f"“From” ({start:%Y-%m-%d}) is after “To” ({end:%Y-%m-%d}): the period must "
                "start on or before the day it ends.",
            )
        return cleaned


# Who may open these pages is written in config.pages, which the top bar follows too.
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


@require_POST
@compliance_view
def report_request(request: HttpRequest) -> HttpResponse:
    form = ReportRequestForm(request.POST)
    if not form.is_valid():
        return _page(request, form=form, status=400)
    data = form.cleaned_data
    try:
        report = compliance_report_request(
            start=data["start"], end=data["end"], fmt=data["fmt"], user=request.user
        )
    except TrainerError as error:
        if error.status != 400:
            raise
        form.add_error(_FORM_FIELD.get(error.field or ""), error.message)
        return _page(request, form=form, status=400)
    if report.status == ReportStatus.READY:
        messages.success(request, f"The {report.format.upper()} report is ready to download.")
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
    except TrainerError as error:
        if error.status != 409:
            raise
        messages.error(request, error.message)
        return _page(request, status=409)
    filename = (
        f"shoe-school-compliance-{report.period_start.isoformat()}"
        f"-{report.period_end.isoformat()}-{report.pk}.{report.format}"
    )
    response = FileResponse(
        stored_report_open(report),
        as_attachment=True,
        filename=filename,
        content_type="text/csv; charset=utf-8" if report.format == "csv" else "application/pdf",
    )
    # A file read from the database cannot seek, so FileResponse cannot tell its length: the
    # size recorded with its sha256, just checked, is the file's.
    if "Content-Length" not in response and report.size_bytes is not None:
        response["Content-Length"] = str(report.size_bytes)
    return response


@require_POST
@compliance_view
def verify(request: HttpRequest) -> HttpResponse:
    # The whole chain, as the page says: the reports verify from the last checkpoint.
    return _page(request, verification=ledger_verify(full=True))
