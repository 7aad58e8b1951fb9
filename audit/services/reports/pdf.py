"""The compliance report as a PDF: the CSV's sections laid out as tables, with a chart of the
money moved by mistakes, leaving the per-decision detail to the CSV.

One function per part of the document; `compliance_report_write_pdf` puts them together.
(Imported only where a PDF is written: reportlab is loaded with this module.)

Over 400 lines on purpose: every part draws with the same styles and table helpers; split,
each part would import the others' private layout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.utils import timezone
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import PropertySet, StyleSheet1, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from audit.selectors.chip_figures import report_chip_figures
from audit.selectors.report_attempts import (
    CLASS_COLUMNS,
    MispaySummary,
    Totals,
    class_cells,
    report_classes,
    report_mispays,
    report_totals,
    report_trainees,
)
from audit.selectors.report_practical import report_practical_sheets
from audit.selectors.reports import (
    FLAG_COLUMNS,
    REVIEW_COLUMNS,
    report_flags,
    report_reviews,
    report_signoffs,
)
from audit.services.reports.rows import (
    CHIP_FIGURES_COLUMNS,
    PRACTICAL_PDF_COLUMNS,
    SIGNOFF_PDF_COLUMNS,
    cell,
    chip_figures_cells,
    mispay_table,
    practical_pdf_cells,
    signoff_pdf_cells,
    summary_rows,
    trainee_table,
)
from core.dates import house_minute, house_zone_name, zone_statement
from ledger.services.verify import LedgerVerification, ledger_verify
from trainer import labels

# The page's width between the margins.
USABLE = landscape(A4)[0] - 30 * mm


def compliance_report_write_pdf(
    *, start: dt.date, end: dt.date, out: IO[bytes] | str, produced_by: str = ""
) -> LedgerVerification:
    """Write the report as a PDF; return the ledger verification it states.

    `produced_by` names who asked for it ("Jo Bloggs (jo), Compliance officer"), for the
    attestation at its end.
    """
    verification = ledger_verify()
    _pdf(start=start, end=end, out=out, verification=verification, produced_by=produced_by)
    return verification


@dataclass(frozen=True)
class _Styles:
    sheet: StyleSheet1
    cell: PropertySet
    head: PropertySet
    heading: PropertySet
    mono: PropertySet


def _styles() -> _Styles:
    sheet = getSampleStyleSheet()
    cell_style = sheet["BodyText"].clone("cell", fontSize=7.5, leading=9)
    return _Styles(
        sheet=sheet,
        cell=cell_style,
        head=cell_style.clone("head", fontName="Helvetica-Bold", textColor=colors.white),
        heading=sheet["Heading2"].clone("section", keepWithNext=1),
        mono=sheet["Code"].clone("mono", fontSize=8.5, leading=11),
    )


def _pdf(
    *,
    start: dt.date,
    end: dt.date,
    out: IO[bytes] | str,
    verification: LedgerVerification,
    produced_by: str,
) -> None:
    styles = _styles()
    generated_at = timezone.now()
    period = f"{start.isoformat()} to {end.isoformat()}"
    totals = report_totals(start=start, end=end)
    mispays = report_mispays(start=start, end=end)
    story: list[Any] = [
        *_title(styles, period=period, generated_at=generated_at),
        *_summary(styles, totals),
        *_mispay_chart(mispays),
        *_sections(styles, start=start, end=end, mispays=mispays),
        *_decision_log(styles, totals),
        *_ledger(styles, verification),
        *attestation(
            styles.sheet,
            title="Attestation",
            produced_by=produced_by,
            produced_at=generated_at,
            sequence=verification.entries,
            head_hash=verification.head_hash,
            ledger_state="verified" if verification.ok else "FAILED VERIFICATION",
            statement=(
                f"This report covers {period} ({house_zone_name()}). It was produced from "
                "the training records as they stood at the time above, and its figures were "
                "checked against the ledger head below."
            ),
        ),
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
    footer = _footer(period)
    document.build(story, onFirstPage=footer, onLaterPages=footer)


def _readable(column: str, value: Any) -> str:
    """A cell as a person reads it: times to the minute in the house's zone (the CSV keeps
    seconds)."""
    if isinstance(value, dt.datetime):
        return minute_text(value)
    return cell(value)


def minute_text(instant: dt.datetime) -> str:
    """An instant as the PDFs write it, in the house's zone: "2026-11-23 09:39 EST"."""
    return house_minute(instant)


def attestation(
    sheet: StyleSheet1,
    *,
    title: str,
    produced_by: str,
    produced_at: dt.datetime,
    sequence: int,
    head_hash: str,
    ledger_state: str,
    statement: str,
) -> list[Any]:
    """The block a compliance officer signs at the end of a PDF (the compliance report's
    and the training record's): who produced it and when, the ledger head it was checked
    against, and lines for the signature and the date. Kept on one page."""
    normal = sheet["Normal"]
    small = sheet["Code"].clone("attest-hash", fontSize=8, leading=10, leftIndent=0)
    rows: list[list[Any]] = [
        ["Produced by", Paragraph(escape(produced_by or "Shoe School"), normal)],
        ["Produced at", minute_text(produced_at)],
        ["Ledger head", f"entry no. {sequence:,} ({ledger_state}), SHA-256 hash:"],
        ["", Paragraph(head_hash, small)],
    ]
    facts = Table(rows, colWidths=[30 * mm, 145 * mm], hAlign="LEFT")
    facts.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (0, -1), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    line = "_" * 48
    signature = Table(
        [[line, "", "_" * 22], ["Compliance officer's signature", "", "Date"]],
        colWidths=[90 * mm, 15 * mm, 50 * mm],
        hAlign="LEFT",
    )
    signature.setStyle(
        TableStyle(
            [
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("TOPPADDING", (0, 0), (-1, 0), 14 * mm),
                ("TEXTCOLOR", (0, 1), (-1, 1), colors.grey),
            ]
        )
    )
    return [
        KeepTogether(
            [
                Paragraph(title, sheet["Heading2"]),
                Paragraph(escape(statement), normal),
                Spacer(1, 3 * mm),
                facts,
                Spacer(1, 2 * mm),
                Paragraph(
                    "I have reviewed this document and attest that it is a true record.",
                    normal,
                ),
                signature,
                Spacer(1, 6 * mm),
                Paragraph("Name in capitals: " + "_" * 40, normal),
            ]
        )
    ]


def _text_last(columns: Sequence[str]) -> list[float]:
    # The last column holds free text (a comment, a reason, a statement): give it room.
    narrow = USABLE * 0.6 / (len(columns) - 1)
    return [narrow] * (len(columns) - 1) + [USABLE * 0.4]


def _table(
    styles: _Styles,
    columns: Iterable[str],
    rows: Iterable[Iterable[Any]],
    widths: list[float] | None = None,
) -> Table:
    columns = tuple(columns)
    data = [[Paragraph(escape(c.replace("_", " ")), styles.head) for c in columns]]
    data += [
        [Paragraph(escape(_readable(c, v)), styles.cell) for c, v in zip(columns, row, strict=True)]
        for row in rows
    ]
    if len(data) == 1:
        blank = [Paragraph("", styles.cell) for _ in data[0][1:]]
        data.append([Paragraph("none in this period", styles.cell), *blank])
    result = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    result.setStyle(table_style())
    return result


def table_style() -> TableStyle:
    """The house style of a table in the product's PDFs: a dark green header row, banded
    rows, a light grid (the compliance report and the training record alike)."""
    return TableStyle(
        [
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f4d3a")),
            ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#eef3f0")]),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#9bb0a5")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )


def _footer(period: str) -> Callable[[Canvas, SimpleDocTemplate], None]:
    def footer(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(doc.leftMargin, 10 * mm, f"Shoe School compliance report · {period}")
        canvas.drawRightString(
            doc.pagesize[0] - doc.rightMargin, 10 * mm, f"Page {canvas.getPageNumber()}"
        )
        canvas.restoreState()

    return footer


def _title(styles: _Styles, *, period: str, generated_at: dt.datetime) -> list[Any]:
    return [
        Paragraph("Shoe School compliance report", styles.sheet["Title"]),
        Paragraph(
            f"Period <b>{period}</b> ({escape(house_zone_name())}) · generated "
            f"{minute_text(generated_at)} · retention "
            f"{settings.RETENTION_YEARS} years",
            styles.sheet["Normal"],
        ),
        Paragraph(escape(zone_statement(on=generated_at.date())), styles.sheet["Normal"]),
        Spacer(1, 4 * mm),
    ]


def _summary(styles: _Styles, totals: Totals) -> list[Any]:
    return [
        Paragraph("Summary", styles.heading),
        _table(styles, ("measure", "value"), summary_rows(totals), [60 * mm, 40 * mm]),
        Spacer(1, 4 * mm),
    ]


def _mispay_chart(mispays: list[MispaySummary]) -> list[Any]:
    """The money moved by each category of mistake, as bars, and the points lost by each
    category of a game counting points as bars of their own, never added to the money
    (nothing without mistakes). A points game's category that moved no money has no bar
    in the money's chart."""
    money = [m for m in mispays if m.points is None or m.overpaid or m.underpaid]
    points = [m for m in mispays if m.points]
    out: list[Any] = []
    if money:
        out += _bars(
            f"Mistakes by category: money moved ({settings.CURRENCY})",
            [labels.category_label(m.category) for m in money],
            [
                ("overpaid", "#b23a3a", [float(m.overpaid) for m in money]),
                ("underpaid", "#2f6fa3", [float(m.underpaid) for m in money]),
            ],
        )
    if points:
        out += _bars(
            "Mistakes by category: points lost",
            [labels.category_label(m.category) for m in points],
            [("points lost", "#6b4fa3", [float(m.points or 0) for m in points])],
        )
    return out


def _bars(title: str, names: list[str], series: list[tuple[str, str, list[float]]]) -> list[Any]:
    """A bar chart of one or more series (each its legend's words, colour and values)."""
    chart_width, chart_height = 240 * mm, 60 * mm
    drawing = Drawing(chart_width, chart_height + 12 * mm)
    drawing.add(String(0, chart_height + 6 * mm, title, fontName="Helvetica-Bold", fontSize=9))
    chart = VerticalBarChart()
    chart.x, chart.y = int(15 * mm), int(10 * mm)
    chart.width, chart.height = int(chart_width - 70 * mm), int(chart_height - 12 * mm)
    chart.data = [values for _, _, values in series]
    chart.categoryAxis.categoryNames = names
    chart.categoryAxis.labels.fontSize = 7
    chart.valueAxis.valueMin = 0
    chart.valueAxis.labels.fontSize = 7
    for n, (_, colour, _) in enumerate(series):
        chart.bars[n].fillColor = colors.HexColor(colour)
    drawing.add(chart)
    legend = Legend()
    legend.x, legend.y = int(chart_width - 50 * mm), int(chart_height - 5 * mm)
    legend.fontSize = 8
    legend.colorNamePairs = [
        (chart.bars[n].fillColor, words) for n, (words, _, _) in enumerate(series)
    ]
    drawing.add(legend)
    return [drawing, Spacer(1, 2 * mm)]


def _trainees(styles: _Styles, *, start: dt.date, end: dt.date) -> Table:
    """The trainees' table (with the points lost when a game counting points was graded)."""
    columns, rows = trainee_table(report_trainees(start=start, end=end))
    figures = len(columns) - 3
    # The username, name and classes need room; the figures are short.
    widths = [USABLE * 0.09, USABLE * 0.14, USABLE * 0.13] + [USABLE * 0.64 / figures] * figures
    return _table(styles, columns, rows, widths)


def _sections(
    styles: _Styles, *, start: dt.date, end: dt.date, mispays: list[MispaySummary]
) -> list[Any]:
    """The tables: trainees, classes, mistakes, chip work, reviews, retraining flags and
    sign-offs."""
    heading = styles.heading
    return [
        Paragraph("Trainees", heading),
        _trainees(styles, start=start, end=end),
        Paragraph("Classes", heading),
        _table(
            styles,
            CLASS_COLUMNS,
            map(class_cells, report_classes(start=start, end=end)),
        ),
        Paragraph(f"Mistakes by category ({settings.CURRENCY})", heading),
        _table(styles, *mispay_table(mispays)),
        Paragraph("Chip work (time in seconds)", heading),
        _table(
            styles,
            CHIP_FIGURES_COLUMNS,
            map(chip_figures_cells, report_chip_figures(start=start, end=end)),
            [USABLE * 0.16] + [USABLE * 0.84 / 7] * 7,
        ),
        Paragraph("Reviews", heading),
        _table(
            styles,
            REVIEW_COLUMNS,
            report_reviews(start=start, end=end),
            _text_last(REVIEW_COLUMNS),
        ),
        Paragraph("Retraining flags", heading),
        _table(styles, FLAG_COLUMNS, report_flags(start=start, end=end), _text_last(FLAG_COLUMNS)),
        Paragraph("Sign-offs", heading),
        _table(
            styles,
            SIGNOFF_PDF_COLUMNS,
            map(signoff_pdf_cells, report_signoffs(start=start, end=end)),
            _text_last(SIGNOFF_PDF_COLUMNS),
        ),
        Paragraph("Practical tests", heading),
        _table(
            styles,
            PRACTICAL_PDF_COLUMNS,
            map(practical_pdf_cells, report_practical_sheets(start=start, end=end)),
            _text_last(PRACTICAL_PDF_COLUMNS),
        ),
    ]


def _decision_log(styles: _Styles, totals: Totals) -> list[Any]:
    return [
        Paragraph("Decision log", styles.heading),
        Paragraph(
            f"{totals.questions} graded questions are listed one per row in the CSV edition "
            "of this report; each decision is also an entry of the ledger below.",
            styles.sheet["Normal"],
        ),
    ]


def _ledger(styles: _Styles, verification: LedgerVerification) -> list[Any]:
    normal = styles.sheet["Normal"]
    story: list[Any] = [
        Paragraph("Ledger verification", styles.heading),
        Paragraph(
            (
                "The hash chain holds: "
                if verification.ok
                else "<b>THE LEDGER FAILS VERIFICATION</b>: "
            )
            + f"{verification.entries} entries checked, against {verification.anchors} "
            "recorded heads (its own, the reports' and the checkpoints'): "
            + escape(verification.scope)
            + ".",
            normal,
        ),
    ]
    if verification.first_break is not None:
        story.append(
            Paragraph(
                escape(
                    f"First broken entry: {verification.first_break.sequence} "
                    f"({verification.first_break.reason})"
                ),
                normal,
            )
        )
    story += [Paragraph(escape(f"Problem: {problem}"), normal) for problem in verification.problems]
    story += [
        Paragraph("Head hash (SHA-256):" if verification.ok else "Last intact hash:", normal),
        Paragraph(verification.head_hash, styles.mono),
    ]
    return story
