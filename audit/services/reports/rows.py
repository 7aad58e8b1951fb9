"""The compliance report's rows: its sections, their columns and cells, and the CSV.

The report is one stream of rows whose first cell names its section (report, summary,
trainees, classes, mispays, chipwork, reviews, retraining, signoffs, practical, decisions,
ledger); each section starts with its own header row. The CSV is that stream; the PDF
(audit.services.reports.pdf) lays the same sections out as tables, with the cells written
here.

Over 400 lines on purpose: every section's columns and cells sit side by side, the ones
the CSV and the PDF both write (a section's columns, with the points beside the money
when a game counting points was graded, are decided here once for both).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import IO, Any

from django.conf import settings
from django.utils import timezone

from audit.selectors.chip_figures import ChipFigures, report_chip_figures
from audit.selectors.report_attempts import (
    CLASS_COLUMNS,
    MispaySummary,
    Totals,
    TraineeSummary,
    class_cells,
    report_classes,
    report_mispays,
    report_totals,
    report_trainees,
)
from audit.selectors.report_decisions import (
    decision_columns,
    points_figure,
    points_lost_cell,
    report_decisions,
    report_decisions_csv,
    report_decisions_have_points,
)
from audit.selectors.report_practical import PRACTICAL_COLUMNS, report_practical_sheets
from audit.selectors.reports import (
    FLAG_COLUMNS,
    REVIEW_COLUMNS,
    SIGNOFF_COLUMNS,
    report_flags,
    report_reviews,
    report_signoffs,
)
from core.dates import house_second, house_zone_name, zone_statement
from core.errors import ProductError
from core.postgres import csv_formula_safe, csv_line
from ledger.services.verify import LedgerVerification, ledger_verify
from trainer import labels

# The sectioned CSV, the PDF, and the decisions alone as a flat CSV (one header row).
FORMATS = ("csv", "pdf", "flat")

Row = list[str]


def check_request(*, start: object, end: object, fmt: object) -> None:
    for name, value in (("from", start), ("to", end)):
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            raise ProductError(f"'{name}' must be a date (YYYY-MM-DD)", field=name)
    assert isinstance(start, dt.date)
    assert isinstance(end, dt.date)
    if start > end:
        raise ProductError(
            f"the period starts ({start.isoformat()}) after it ends ({end.isoformat()})",
            field="from",
        )
    if fmt not in FORMATS:
        raise ProductError(f"format must be csv, pdf or flat, not {fmt!r}", field="format")


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, dt.datetime):
        return house_second(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def percent(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


def csv_row(row: Row) -> Row:
    # Every cell of the CSV, so that no path to it forgets one: text that would run as a
    # formula in a spreadsheet gets a leading quote (see csv_formula_safe).
    return [csv_formula_safe(cell) for cell in row]


def section(name: str, columns: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[Row]:
    yield [name, *columns]
    for row in rows:
        yield [name, *(cell(value) for value in row)]


def summary_rows(totals: Totals) -> list[tuple[str, str]]:
    rows = [
        ("trainees", str(totals.trainees)),
        ("attempts", str(totals.attempts)),
        ("graded attempts", str(totals.graded_attempts)),
        ("questions graded", str(totals.questions)),
        ("answered right", str(totals.correct)),
        ("accuracy (%)", percent(totals.accuracy)),
        ("mistakes", str(totals.mistakes)),
        ("not answered", str(totals.unanswered)),
        (f"overpaid ({settings.CURRENCY})", f"{totals.overpaid:.2f}"),
        (f"underpaid ({settings.CURRENCY})", f"{totals.underpaid:.2f}"),
    ]
    if totals.points is not None:
        # Games counting points: beside the money, never added to it.
        rows.append(("points lost to mistakes", points_figure(totals.points)))
    return rows


CHIP_FIGURES_COLUMNS = (
    "question",
    "asked",
    "right",
    "right_money_wrong_chips",
    "wrong_money",
    "late_or_not_answered",
    "mean_seconds",
    "target_seconds",
)


def chip_figures_cells(row: ChipFigures) -> tuple[Any, ...]:
    return (
        row.title,
        row.questions,
        row.correct,
        row.wrong_chips,
        row.wrong_money,
        row.late + row.unanswered,
        # Seconds to the tenth the pages show, not money's two places.
        "" if row.mean_seconds is None else str(row.mean_seconds),
        "" if row.target_seconds is None else str(row.target_seconds),
    )


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


def trainee_table(
    summaries: Iterable[TraineeSummary],
) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    """The trainees section's columns and rows: with the points lost beside the money when
    a game counting points was graded in the period (no empty column otherwise)."""
    rows = list(summaries)
    if all(summary.points is None for summary in rows):
        return TRAINEE_COLUMNS, [trainee_cells(summary) for summary in rows]
    return (
        (*TRAINEE_COLUMNS, "points_lost"),
        [(*trainee_cells(s), "" if s.points is None else points_figure(s.points)) for s in rows],
    )


def trainee_cells(summary: TraineeSummary) -> tuple[Any, ...]:
    return (
        summary.username,
        summary.full_name,
        summary.classes,
        summary.attempts,
        summary.graded_attempts,
        summary.questions,
        summary.correct,
        percent(summary.accuracy),
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


def signoff_pdf_cells(row: tuple[Any, ...]) -> tuple[Any, ...]:
    cell = dict(zip(SIGNOFF_COLUMNS, row, strict=True))
    # The signature (name, rank and licence as signed), and the account (with its name
    # now) that signed; a row older than ranks keeps its role's words.
    if cell["signer_rank"]:
        signed = ", ".join(
            part
            for part in (
                cell["signer_full_name"],
                cell["signer_rank"],
                cell["signer_licence"] and f"licence {cell['signer_licence']}",
            )
            if part
        )
        signer = f"{signed}, as {cell['signed_by']}"
    else:
        signer = f"{cell['signer_full_name']}, as {cell['signed_by']}"
        if cell["signer_role"]:
            signer += f", {cell['signer_role']}"
    written = [f"“{cell['statement']}”"]
    if cell["practical_sheet"]:
        written.append(f"Practical test: {cell['practical_sheet']}.")
    if cell["corrects_certification"]:
        written.append(f"Withdraws {cell['corrects_certification']}.")
    if cell["flags_overridden"]:
        written.append(
            f"Signed over, in force: {cell['flags_overridden']}. Why: “{cell['override_reason']}”"
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


# The PDF's practical tests: the CSV's columns, the signature and the account in one cell,
# the result in one, and what the sheet recorded in the last, so the page keeps its width.
PRACTICAL_PDF_COLUMNS = ("signed_at", "evaluated_by", "trainee", "profile", "result", "sheet")


def practical_pdf_cells(row: tuple[Any, ...]) -> tuple[Any, ...]:
    cell = dict(zip(PRACTICAL_COLUMNS, row, strict=True))
    result = "passed" if cell["passed"] else "not passed"
    result += f", {cell['score_percent']:.2f} % (pass mark {cell['pass_mark_percent']:.2f} %)"
    written = [
        f"{label}: {cell[column]}."
        for label, column in (
            ("Steps", "procedures"),
            ("Timed", "timed_items"),
            ("Rubric", "rubric"),
            ("Short of passing", "shortfalls"),
        )
        if cell[column]
    ]
    if cell["comments"]:
        written.append(f"Comments: “{cell['comments']}”")
    if cell["corrects_sheet"]:
        written.append(f"Corrects {cell['corrects_sheet']}.")
    return (
        cell["signed_at"],
        f"{cell['evaluator_signature']}, as {cell['evaluated_by']}",
        cell["trainee"],
        cell["profile"],
        result,
        " ".join(written),
    )


def mispay_table(
    summaries: Iterable[MispaySummary],
) -> tuple[tuple[str, ...], list[tuple[Any, ...]]]:
    """The mistakes section's columns and rows: with the points lost beside the money when
    a game counting points was graded in the period (no empty column otherwise)."""
    rows = list(summaries)
    if all(summary.points is None for summary in rows):
        return MISPAY_COLUMNS, [mispay_cells(summary) for summary in rows]
    return (
        (*MISPAY_COLUMNS, "points_lost"),
        [(*mispay_cells(s), "" if s.points is None else points_figure(s.points)) for s in rows],
    )


def mispay_cells(summary: MispaySummary) -> tuple[Any, ...]:
    return (
        labels.category_label(summary.category) or summary.category,
        summary.count,
        summary.overpaid,
        summary.underpaid,
        summary.net,
    )


def decision_row(row: tuple[Any, ...]) -> Row:
    # The one section that can run to millions of rows: its types are known, so it skips
    # cell's checks. Words by their labels, as the SQL beside it writes them
    # (audit.selectors.report_decisions.report_decisions_csv): the same bytes. The kind
    # and the answers come in their game's words (report_decisions).
    # (audit.selectors.report_attempts.report_decisions_csv): the same bytes.
    (attempt, trainee, mode, run, position, question, kind, answered_at, response_ms,
     correct, category, money_diff, given, expected, trainee_name, drill, table,
     question_text, *points) = row  # fmt: skip
    given_action, given_amount, given_chips = given
    expected_action, expected_amount, expected_chips = expected
    return [
        "decisions", str(attempt), trainee, labels.MODE_WORDS.get(mode, mode), str(run),
        str(position), str(question), kind,
        house_second(answered_at), "" if response_ms is None else str(response_ms),
        "yes" if correct else "no",
        labels.category_words().get(category, category) if category else "",
        f"{money_diff:.2f}", given_action, given_amount, expected_action, expected_amount,
        given_chips, expected_chips, trainee_name, drill, table, question_text,
        *(points_lost_cell(p) for p in points),
    ]  # fmt: skip


def ledger_cells(verification: LedgerVerification) -> tuple[Any, ...]:
    broken = verification.first_break
    return (
        verification.entries,
        verification.head_hash,
        verification.ok,
        broken.sequence if broken else "",
        broken.reason if broken else "",
        verification.anchors,
        "; ".join(verification.problems),
        verification.scope,
    )


LEDGER_COLUMNS = (
    "entries",
    "head_hash",
    "ok",
    "first_break_sequence",
    "first_break_reason",
    "anchors_checked",
    "problems",
    # Whole chain, or the entries after a trusted checkpoint (docs/security.md).
    "verified",
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
    check_request(start=start, end=end, fmt="csv")
    yield from map(csv_row, leading_rows(start=start, end=end, generated_at=generated_at))
    points = report_decisions_have_points(start=start, end=end)
    yield ["decisions", *decision_columns(points=points)]
    yield from (
        csv_row(decision_row(row)) for row in report_decisions(start=start, end=end, points=points)
    )
    yield from map(
        csv_row,
        section("ledger", LEDGER_COLUMNS, [ledger_cells(verification or ledger_verify())]),
    )


def leading_rows(
    *, start: dt.date, end: dt.date, generated_at: dt.datetime | None
) -> Iterator[Row]:
    """The sections before the decisions: the report, summaries, reviews, flags, sign-offs
    and practical tests."""
    generated_at = generated_at or timezone.now()
    yield from section(
        "report",
        ("field", "value"),
        [
            ("title", "Shoe School compliance report"),
            ("period_start", start),
            ("period_end", end),
            ("time_zone", house_zone_name()),
            ("times", zone_statement(on=start)),
            ("generated_at", generated_at),
            ("currency", settings.CURRENCY),
            ("retention_years", settings.RETENTION_YEARS),
        ],
    )
    yield from section(
        "summary", ("measure", "value"), summary_rows(report_totals(start=start, end=end))
    )
    yield from section("trainees", *trainee_table(report_trainees(start=start, end=end)))
    yield from section(
        "classes", CLASS_COLUMNS, map(class_cells, report_classes(start=start, end=end))
    )
    yield from section("mispays", *mispay_table(report_mispays(start=start, end=end)))
    yield from section(
        "chipwork",
        CHIP_FIGURES_COLUMNS,
        map(chip_figures_cells, report_chip_figures(start=start, end=end)),
    )
    yield from section("reviews", REVIEW_COLUMNS, report_reviews(start=start, end=end))
    yield from section("retraining", FLAG_COLUMNS, report_flags(start=start, end=end))
    yield from section("signoffs", SIGNOFF_COLUMNS, report_signoffs(start=start, end=end))
    yield from section(
        "practical", PRACTICAL_COLUMNS, report_practical_sheets(start=start, end=end)
    )


def compliance_report_write_csv(
    *, start: dt.date, end: dt.date, out: IO[str]
) -> LedgerVerification:
    """Write the report as CSV to a text stream; return the ledger verification it states."""
    check_request(start=start, end=end, fmt="csv")
    verification = ledger_verify()
    # The rows of compliance_report_rows, written section by section so that the decisions,
    # the one section that runs to millions of rows, can come already formatted from the
    # database (PostgreSQL) instead of through Python one cell at a time.
    out.writelines(map(csv_line, leading_rows(start=start, end=end, generated_at=None)))
    points = report_decisions_have_points(start=start, end=end)
    out.write(csv_line(["decisions", *decision_columns(points=points)]))
    blocks = report_decisions_csv(start=start, end=end, points=points)
    if blocks is None:
        out.writelines(
            csv_line(decision_row(row))
            for row in report_decisions(start=start, end=end, points=points)
        )
    else:
        out.writelines(blocks)
    out.writelines(map(csv_line, section("ledger", LEDGER_COLUMNS, [ledger_cells(verification)])))
    return verification


def compliance_report_write_flat(
    *, start: dt.date, end: dt.date, out: IO[str]
) -> LedgerVerification:
    """Write the decisions alone as a flat CSV, one header row (DECISION_COLUMNS) and one row
    per graded question, for a spreadsheet's filters; return the ledger verification the
    stored report records (the flat file has no section to state it in)."""
    check_request(start=start, end=end, fmt="flat")
    verification = ledger_verify()
    points = report_decisions_have_points(start=start, end=end)
    out.write(csv_line(list(decision_columns(points=points))))
    blocks = report_decisions_csv(start=start, end=end, sectioned=False, points=points)
    if blocks is None:
        out.writelines(
            csv_line(decision_row(row)[1:])
            for row in report_decisions(start=start, end=end, points=points)
        )
    else:
        out.writelines(blocks)
    return verification
