"""The compliance report: produced as CSV or PDF, stored, and logged to the ledger.

The report is one stream of rows whose first cell names its section (report, summary,
trainees, classes, mispays, reviews, retraining, signoffs, decisions, ledger); each section
starts with its own header row. The CSV is that stream; the PDF lays the same sections out
as tables with a chart, leaving the per-decision detail to the CSV.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, cast
from xml.sax.saxutils import escape

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import DatabaseError, transaction
from django.utils import timezone

from audit.models import ComplianceReport, ReportStatus
from audit.selectors_reports import (
    FLAG_COLUMNS,
    REVIEW_COLUMNS,
    SIGNOFF_COLUMNS,
    report_flags,
    report_reviews,
    report_signoffs,
)
from core.errors import ConflictError, ForbiddenError, NotFoundError, TrainerError
from core.postgres import csv_formula_safe, csv_line
from core.queue import enqueue
from core.roles import Role, has_role
from ledger.events import Event
from ledger.services.append import ledger_append
from ledger.services.verify import LedgerVerification, ledger_verify
from trainer.selectors.reports import (
    DECISION_COLUMNS,
    MispaySummary,
    Totals,
    TraineeSummary,
    report_classes,
    report_decisions,
    report_decisions_csv,
    report_mispays,
    report_question_count,
    report_totals,
    report_trainees,
)

logger = logging.getLogger(__name__)

FORMATS = ("csv", "pdf")
# Above this many graded questions a requested report is produced by a Celery task.
SYNC_MAX_QUESTIONS_DEFAULT = 20_000
# A report still pending or running after this long lost its task and is queued again.
STUCK_AFTER = dt.timedelta(minutes=30)

Row = list[str]


@dataclass(frozen=True)
class ExportedFile:
    path: Path
    sha256: str
    size_bytes: int
    verification: LedgerVerification


# Checks.


def _require_compliance(user: AbstractBaseUser | AnonymousUser) -> None:
    if not has_role(user, Role.COMPLIANCE, Role.ADMIN):
        raise ForbiddenError("only compliance officers and administrators handle reports")


def _check_request(*, start: object, end: object, fmt: object) -> None:
    for name, value in (("from", start), ("to", end)):
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            raise TrainerError(f"'{name}' must be a date (YYYY-MM-DD)", field=name)
    assert isinstance(start, dt.date)
    assert isinstance(end, dt.date)
    if start > end:
        raise TrainerError(
            f"the period starts ({start.isoformat()}) after it ends ({end.isoformat()})",
            field="from",
        )
    if fmt not in FORMATS:
        raise TrainerError(f"format must be csv or pdf, not {fmt!r}", field="format")


# The rows.


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def _percent(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _csv_row(row: Row) -> Row:
    # Every cell of the CSV, so that no path to it forgets one: text that would run as a
    # formula in a spreadsheet gets a leading quote (see csv_formula_safe).
    return [csv_formula_safe(cell) for cell in row]


def _section(name: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[Row]:
    yield [name, *columns]
    for row in rows:
        yield [name, *(_cell(value) for value in row)]


def _summary_rows(totals: Totals) -> list[tuple[str, str]]:
    return [
        ("trainees", str(totals.trainees)),
        ("attempts", str(totals.attempts)),
        ("graded attempts", str(totals.graded_attempts)),
        ("questions graded", str(totals.questions)),
        ("answered right", str(totals.correct)),
        ("accuracy (%)", _percent(totals.accuracy)),
        ("mistakes", str(totals.mistakes)),
        ("not answered", str(totals.unanswered)),
        (f"overpaid ({settings.CURRENCY})", f"{totals.overpaid:.2f}"),
        (f"underpaid ({settings.CURRENCY})", f"{totals.underpaid:.2f}"),
    ]


TRAINEE_COLUMNS = (
    "trainee",
    "name",
    "classes",
    "attempts",
    "graded_attempts",
    "questions",
    "correct",
    "accuracy_percent",
    "not_answered",
    "overpaid",
    "underpaid",
)


def _trainee_cells(summary: TraineeSummary) -> tuple[Any, ...]:
    return (
        summary.username,
        summary.full_name,
        summary.classes,
        summary.attempts,
        summary.graded_attempts,
        summary.questions,
        summary.correct,
        _percent(summary.accuracy),
        summary.unanswered,
        summary.overpaid,
        summary.underpaid,
    )


MISPAY_COLUMNS = ("category", "count", "overpaid", "underpaid", "net")


# The PDF's sign-off table: the CSV's columns, the signer's name and role in one cell and
# everything the signer wrote or acknowledged in the last, so the page keeps its width.
SIGNOFF_PDF_COLUMNS = (
    "signed_at",
    "signed_by",
    "trainee",
    "profile",
    "attempt",
    "expires_at",
    "withdrawn",
    "statement",
)


def _signoff_pdf_cells(row: tuple[Any, ...]) -> tuple[Any, ...]:
    cell = dict(zip(SIGNOFF_COLUMNS, row, strict=True))
    signer = f"{cell['signer_full_name']} ({cell['signed_by']})"
    if cell["signer_role"]:
        signer += f", {cell['signer_role']}"
    written = [f"“{cell['statement']}”"]
    if cell["corrects_certification"]:
        written.append(f"Withdraws certification #{cell['corrects_certification']}.")
    if cell["flags_overridden"]:
        written.append(
            f"Signed over {cell['flags_overridden']} in force: “{cell['override_reason']}”"
        )
    if cell["acknowledged"]:
        written.append(f"Acknowledged: {cell['acknowledged']}")
    return (
        cell["signed_at"],
        signer,
        cell["trainee"],
        cell["profile"],
        cell["attempt"],
        cell["expires_at"],
        cell["withdrawn"],
        " ".join(written),
    )


def _mispay_cells(summary: MispaySummary) -> tuple[Any, ...]:
    return (summary.category, summary.count, summary.overpaid, summary.underpaid, summary.net)


def _decision_row(row: tuple[Any, ...]) -> Row:
    # The one section that can run to millions of rows: its types are known, so it skips
    # _cell's checks. Datetimes come from the database in UTC.
    (attempt, trainee, mode, run, position, question, kind, answered_at, response_ms,
     correct, category, money_diff, given, expected) = row  # fmt: skip
    return [
        "decisions", str(attempt), trainee, mode, str(run), str(position), str(question), kind,
        answered_at.isoformat() if answered_at is not None else "",
        "" if response_ms is None else str(response_ms), "yes" if correct else "no", category,
        f"{money_diff:.2f}", given or "", expected,
    ]  # fmt: skip


def _ledger_cells(verification: LedgerVerification) -> tuple[Any, ...]:
    broken = verification.first_break
    return (
        verification.entries,
        verification.head_hash,
        verification.ok,
        broken.sequence if broken else "",
        broken.reason if broken else "",
        verification.anchors,
        "; ".join(verification.problems),
    )


LEDGER_COLUMNS = (
    "entries",
    "head_hash",
    "ok",
    "first_break_sequence",
    "first_break_reason",
    "anchors_checked",
    "problems",
)


def compliance_report_rows(
    *,
    start: dt.date,
    end: dt.date,
    verification: LedgerVerification | None = None,
    generated_at: dt.datetime | None = None,
) -> Iterator[Row]:
    """The whole report as the CSV's rows, streamed section by section in constant memory.

    The ledger is verified at the end unless `verification` is given (the writers verify
    first, to store the result they report).
    """
    _check_request(start=start, end=end, fmt="csv")
    yield from map(_csv_row, _leading_rows(start=start, end=end, generated_at=generated_at))
    yield ["decisions", *DECISION_COLUMNS]
    yield from (_csv_row(_decision_row(row)) for row in report_decisions(start=start, end=end))
    yield from map(
        _csv_row,
        _section("ledger", LEDGER_COLUMNS, [_ledger_cells(verification or ledger_verify())]),
    )


def _leading_rows(
    *, start: dt.date, end: dt.date, generated_at: dt.datetime | None
) -> Iterator[Row]:
    """The sections before the decisions: the report, summaries, reviews, flags, sign-offs."""
    generated_at = generated_at or timezone.now()
    yield from _section(
        "report",
        ("field", "value"),
        [
            ("title", "Shoe School compliance report"),
            ("period_start", start),
            ("period_end", end),
            ("time_zone", settings.TIME_ZONE),
            ("generated_at", generated_at),
            ("currency", settings.CURRENCY),
            ("retention_years", settings.RETENTION_YEARS),
        ],
    )
    yield from _section(
        "summary", ("measure", "value"), _summary_rows(report_totals(start=start, end=end))
    )
    yield from _section(
        "trainees", TRAINEE_COLUMNS, map(_trainee_cells, report_trainees(start=start, end=end))
    )
    yield from _section(
        "classes",
        ("class", "instructors", "trainees", "attempts"),
        (
            (c.name, c.instructors, c.trainees, c.attempts)
            for c in report_classes(start=start, end=end)
        ),
    )
    yield from _section(
        "mispays", MISPAY_COLUMNS, map(_mispay_cells, report_mispays(start=start, end=end))
    )
    yield from _section("reviews", REVIEW_COLUMNS, report_reviews(start=start, end=end))
    yield from _section("retraining", FLAG_COLUMNS, report_flags(start=start, end=end))
    yield from _section("signoffs", SIGNOFF_COLUMNS, report_signoffs(start=start, end=end))


def compliance_report_write_csv(
    *, start: dt.date, end: dt.date, out: IO[str]
) -> LedgerVerification:
    """Write the report as CSV to a text stream; return the ledger verification it states."""
    _check_request(start=start, end=end, fmt="csv")
    verification = ledger_verify()
    # The rows of compliance_report_rows, written section by section so that the decisions,
    # the one section that runs to millions of rows, can come already formatted from the
    # database (PostgreSQL) instead of through Python one cell at a time.
    out.writelines(map(csv_line, _leading_rows(start=start, end=end, generated_at=None)))
    out.write(csv_line(["decisions", *DECISION_COLUMNS]))
    blocks = report_decisions_csv(start=start, end=end)
    if blocks is None:
        out.writelines(
            csv_line(_decision_row(row)) for row in report_decisions(start=start, end=end)
        )
    else:
        out.writelines(blocks)
    out.writelines(map(csv_line, _section("ledger", LEDGER_COLUMNS, [_ledger_cells(verification)])))
    return verification


def compliance_report_write_pdf(
    *, start: dt.date, end: dt.date, out: IO[bytes] | str
) -> LedgerVerification:
    """Write the report as a PDF; return the ledger verification it states."""
    verification = ledger_verify()
    _pdf(start=start, end=end, out=out, verification=verification)
    return verification


def _write(fmt: str, start: dt.date, end: dt.date, path: Path) -> LedgerVerification:
    if fmt == "csv":
        with path.open("w", encoding="utf-8", newline="") as handle:
            return compliance_report_write_csv(start=start, end=end, out=handle)
    with path.open("wb") as handle:
        return compliance_report_write_pdf(start=start, end=end, out=handle)


def _sha256(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def _write_beside(
    fmt: str, start: dt.date, end: dt.date, target: Path
) -> tuple[Path, str, int, LedgerVerification]:
    """Write into a temporary file next to `target`, so the final rename is atomic."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        verification = _write(fmt, start, end, temporary)
        digest, size = _sha256(temporary)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary, digest, size, verification


def _export_payload(
    *,
    start: dt.date,
    end: dt.date,
    fmt: str,
    digest: str,
    size: int,
    verification: LedgerVerification,
    via: str,
) -> dict[str, Any]:
    return {
        "period_start": start,
        "period_end": end,
        "format": fmt,
        "sha256": digest,
        "size_bytes": size,
        "ledger_entries": verification.entries,
        "ledger_head_hash": verification.head_hash,
        "ledger_ok": verification.ok,
        "via": via,
    }


# Exporting to a file (the command).


def compliance_report_export(
    *,
    start: dt.date,
    end: dt.date,
    fmt: str,
    out: Path,
    actor: AbstractBaseUser | None = None,
) -> ExportedFile:
    """Write the report to `out` and log the export (its sha256 and the head hash)."""
    _check_request(start=start, end=end, fmt=fmt)
    temporary, digest, size, verification = _write_beside(fmt, start, end, out)
    with transaction.atomic():
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type="report_file",
            subject_id=out.name[:64],
            payload=_export_payload(
                start=start,
                end=end,
                fmt=fmt,
                digest=digest,
                size=size,
                verification=verification,
                via="file",
            ),
            actor=actor,
        )
        os.replace(temporary, out)
    return ExportedFile(out, digest, size, verification)


# Stored reports (the pages and the task).


def _stored_name(report: ComplianceReport) -> str:
    return (
        f"reports/compliance-{report.pk}-{report.period_start.isoformat()}"
        f"-{report.period_end.isoformat()}.{report.format}"
    )


def _media_path(name: str) -> Path:
    return Path(settings.MEDIA_ROOT) / name


def stored_report_path(report: ComplianceReport) -> Path:
    """Where a ready report's file is kept."""
    return _media_path(report.file.name or "")


def _sync_max_questions() -> int:
    return int(
        getattr(settings, "COMPLIANCE_REPORT_SYNC_MAX_QUESTIONS", SYNC_MAX_QUESTIONS_DEFAULT)
    )


def compliance_report_request(
    *, start: dt.date, end: dt.date, fmt: str, user: AbstractBaseUser | AnonymousUser
) -> ComplianceReport:
    """Record a report request; produce it now if small, else queue the Celery task."""
    _require_compliance(user)
    _check_request(start=start, end=end, fmt=fmt)
    report = ComplianceReport.objects.create(
        period_start=start,
        period_end=end,
        format=fmt,
        requested_by=cast("User", user) if isinstance(user, AbstractBaseUser) else None,
        status=ReportStatus.PENDING,
    )
    if report_question_count(start=start, end=end) <= _sync_max_questions():
        return compliance_report_produce(report_id=report.pk)
    _enqueue(report.pk)
    return report


def _enqueue(report_id: int) -> None:
    enqueue("audit.tasks.produce_compliance_report", report_id)


def compliance_report_produce(*, report_id: int) -> ComplianceReport:
    """Produce a requested report's file, store it, and log it; a ready report is left alone.

    Safe to run twice at once: only the first to finish stores its file and logs it.
    """
    with transaction.atomic():
        report = ComplianceReport.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise NotFoundError("no such report")
        if report.status == ReportStatus.READY:
            return report
        report.status = ReportStatus.RUNNING
        report.save(update_fields=["status"])
    name = _stored_name(report)
    target = _media_path(name)
    try:
        temporary, digest, size, verification = _write_beside(
            report.format, report.period_start, report.period_end, target
        )
    except DatabaseError:
        # Likely passing (a lock, a lost connection): the task retries, the report stays queued.
        raise
    except Exception as exc:
        logger.exception("compliance report %s failed", report_id)
        ComplianceReport.objects.filter(pk=report_id).exclude(status=ReportStatus.READY).update(
            status=ReportStatus.FAILED, error=str(exc)[:2000], finished_at=timezone.now()
        )
        report.refresh_from_db()
        return report
    with transaction.atomic():
        report = ComplianceReport.objects.select_for_update().get(pk=report_id)
        if report.status == ReportStatus.READY:
            temporary.unlink(missing_ok=True)
            return report
        os.replace(temporary, target)
        report.file.name = name
        report.status = ReportStatus.READY
        report.error = ""
        report.sha256 = digest
        report.size_bytes = size
        report.ledger_head_hash = verification.head_hash
        report.ledger_entries = verification.entries
        report.ledger_ok = verification.ok
        report.finished_at = timezone.now()
        report.save()
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type="compliance_report",
            subject_id=report.pk,
            payload=_export_payload(
                start=report.period_start,
                end=report.period_end,
                fmt=report.format,
                digest=digest,
                size=size,
                verification=verification,
                via="stored",
            ),
            actor=report.requested_by,
        )
    return report


def compliance_report_download(
    *, report_id: int, user: AbstractBaseUser | AnonymousUser
) -> ComplianceReport:
    """Hand out a ready report's stored file, checked against its sha256; logs the download."""
    _require_compliance(user)
    from audit.selectors_reports import compliance_report_get

    report = compliance_report_get(report_id=report_id)
    if report.status != ReportStatus.READY:
        raise ConflictError(f"the report is {report.status}, not ready", code="not_ready")
    path = stored_report_path(report)
    if not path.is_file():
        raise ConflictError("the report's stored file is missing", code="file_missing")
    digest, size = _sha256(path)
    if digest != report.sha256:
        raise ConflictError(
            "the stored file no longer matches the sha256 recorded when it was made",
            code="file_changed",
        )
    with transaction.atomic():
        ledger_append(
            event=Event.REPORT_EXPORTED,
            subject_type="compliance_report",
            subject_id=report.pk,
            payload={
                "period_start": report.period_start,
                "period_end": report.period_end,
                "format": report.format,
                "sha256": digest,
                "size_bytes": size,
                "via": "download",
            },
            actor=user if isinstance(user, AbstractBaseUser) else None,
        )
    return report


def compliance_report_sweep(*, now: dt.datetime | None = None) -> list[int]:
    """Queue again the reports whose task was lost; returns their ids."""
    cutoff = (now or timezone.now()) - STUCK_AFTER
    stuck = list(
        ComplianceReport.objects.filter(
            status__in=[ReportStatus.PENDING, ReportStatus.RUNNING], requested_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for report_id in stuck:
        _enqueue(report_id)
    return stuck


# The PDF layout.


def _pdf(
    *, start: dt.date, end: dt.date, out: IO[bytes] | str, verification: LedgerVerification
) -> None:
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.charts.legends import Legend
    from reportlab.graphics.shapes import Drawing, String
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    cell_style = styles["BodyText"].clone("cell", fontSize=7.5, leading=9)
    head_style = cell_style.clone("head", fontName="Helvetica-Bold", textColor=colors.white)
    heading = styles["Heading2"].clone("section", keepWithNext=1)
    mono = styles["Code"].clone("mono", fontSize=8.5, leading=11)
    generated_at = timezone.now()
    period = f"{start.isoformat()} to {end.isoformat()}"
    currency = settings.CURRENCY

    usable = landscape(A4)[0] - 30 * mm

    def text_last(columns: tuple[str, ...]) -> list[float]:
        # The last column holds free text (a comment, a reason, a statement): give it room.
        narrow = usable * 0.6 / (len(columns) - 1)
        return [narrow] * (len(columns) - 1) + [usable * 0.4]

    def table(
        columns: Iterable[str], rows: Iterable[Iterable[Any]], widths: list[float] | None = None
    ) -> Table:
        data = [[Paragraph(escape(c.replace("_", " ")), head_style) for c in columns]]
        data += [[Paragraph(escape(_cell(v)), cell_style) for v in row] for row in rows]
        if len(data) == 1:
            blank = [Paragraph("", cell_style) for _ in data[0][1:]]
            data.append([Paragraph("none in this period", cell_style), *blank])
        result = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        result.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f4d3a")),
                    ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                    (
                        "ROWBACKGROUNDS",
                        (0, 1),
                        (-1, -1),
                        [colors.white, colors.HexColor("#eef3f0")],
                    ),
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#9bb0a5")),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return result

    def footer(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(doc.leftMargin, 10 * mm, f"Shoe School compliance report · {period}")
        canvas.drawRightString(
            doc.pagesize[0] - doc.rightMargin, 10 * mm, f"Page {canvas.getPageNumber()}"
        )
        canvas.restoreState()

    totals = report_totals(start=start, end=end)
    mispays = report_mispays(start=start, end=end)
    story: list[Any] = [
        Paragraph("Shoe School compliance report", styles["Title"]),
        Paragraph(
            f"Period <b>{period}</b> ({escape(settings.TIME_ZONE)}) · generated "
            f"{generated_at.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC · retention "
            f"{settings.RETENTION_YEARS} years",
            styles["Normal"],
        ),
        Spacer(1, 4 * mm),
        Paragraph("Summary", heading),
        table(("measure", "value"), _summary_rows(totals), [60 * mm, 40 * mm]),
        Spacer(1, 4 * mm),
    ]
    if mispays:
        chart_width, chart_height = 240 * mm, 60 * mm
        drawing = Drawing(chart_width, chart_height + 12 * mm)
        drawing.add(
            String(
                0,
                chart_height + 6 * mm,
                f"Mistakes by category: money moved ({currency})",
                fontName="Helvetica-Bold",
                fontSize=9,
            )
        )
        chart = VerticalBarChart()
        chart.x, chart.y = int(15 * mm), int(10 * mm)
        chart.width, chart.height = int(chart_width - 70 * mm), int(chart_height - 12 * mm)
        chart.data = [[float(m.overpaid) for m in mispays], [float(m.underpaid) for m in mispays]]
        chart.categoryAxis.categoryNames = [m.category.replace("_", " ") for m in mispays]
        chart.categoryAxis.labels.fontSize = 7
        chart.valueAxis.valueMin = 0
        chart.valueAxis.labels.fontSize = 7
        chart.bars[0].fillColor = colors.HexColor("#b23a3a")
        chart.bars[1].fillColor = colors.HexColor("#2f6fa3")
        drawing.add(chart)
        legend = Legend()
        legend.x, legend.y = int(chart_width - 50 * mm), int(chart_height - 5 * mm)
        legend.fontSize = 8
        legend.colorNamePairs = [
            (chart.bars[0].fillColor, "overpaid"),
            (chart.bars[1].fillColor, "underpaid"),
        ]
        drawing.add(legend)
        story += [drawing, Spacer(1, 2 * mm)]
    story += [
        Paragraph("Trainees", heading),
        table(
            TRAINEE_COLUMNS,
            map(_trainee_cells, report_trainees(start=start, end=end)),
            # The username, name and classes need room; the figures are short.
            [usable * 0.12, usable * 0.18, usable * 0.16] + [usable * 0.54 / 8] * 8,
        ),
        Paragraph("Classes", heading),
        table(
            ("class", "instructors", "trainees", "attempts"),
            (
                (c.name, c.instructors, c.trainees, c.attempts)
                for c in report_classes(start=start, end=end)
            ),
        ),
        Paragraph(f"Mistakes by category ({currency})", heading),
        table(MISPAY_COLUMNS, map(_mispay_cells, mispays)),
        Paragraph("Reviews", heading),
        table(REVIEW_COLUMNS, report_reviews(start=start, end=end), text_last(REVIEW_COLUMNS)),
        Paragraph("Retraining flags", heading),
        table(FLAG_COLUMNS, report_flags(start=start, end=end), text_last(FLAG_COLUMNS)),
        Paragraph("Sign-offs", heading),
        table(
            SIGNOFF_PDF_COLUMNS,
            map(_signoff_pdf_cells, report_signoffs(start=start, end=end)),
            text_last(SIGNOFF_PDF_COLUMNS),
        ),
        Paragraph("Decision log", heading),
        Paragraph(
            f"{totals.questions} graded questions are listed one per row in the CSV edition "
            "of this report; each decision is also an entry of the ledger below.",
            styles["Normal"],
        ),
        Paragraph("Ledger verification", heading),
        Paragraph(
            (
                "The hash chain holds: "
                if verification.ok
                else "<b>THE LEDGER FAILS VERIFICATION</b>: "
            )
            + f"{verification.entries} entries checked, against {verification.anchors} "
            "recorded heads (its own, the reports' and the checkpoints').",
            styles["Normal"],
        ),
    ]
    if verification.first_break is not None:
        story.append(
            Paragraph(
                escape(
                    f"First broken entry: {verification.first_break.sequence} "
                    f"({verification.first_break.reason})"
                ),
                styles["Normal"],
            )
        )
    story += [
        Paragraph(escape(f"Problem: {problem}"), styles["Normal"])
        for problem in verification.problems
    ]
    story += [
        Paragraph(
            "Head hash (SHA-256):" if verification.ok else "Last intact hash:", styles["Normal"]
        ),
        Paragraph(verification.head_hash, mono),
    ]
    document = SimpleDocTemplate(
        out,
        pagesize=landscape(A4),
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=18 * mm,
        title=f"Shoe School compliance report {period}",
        author="Shoe School",
    )
    document.build(story, onFirstPage=footer, onLaterPages=footer)
