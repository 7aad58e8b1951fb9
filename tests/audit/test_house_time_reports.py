"""Issue #24, deliver point 2: every PDF and CSV that shows times states the house's zone,
and its times are in it (they were UTC whatever the house's zone)."""

from __future__ import annotations

import datetime as dt
import io
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import override_settings

from audit.selectors.report_decisions import report_decisions, report_decisions_csv
from audit.services.reports.pdf import compliance_report_write_pdf
from audit.services.reports.rows import compliance_report_write_csv, decision_row
from audit.services.training_record import training_record_pdf
from core.dates import house_second, zone_abbreviations, zone_statement
from core.postgres import csv_line
from tests.audit.test_reports import DAY, NOON, as_dicts, period_data, sections  # noqa: F401
from tests.audit.test_training_record import pdf_text as record_text
from tests.audit.test_training_record import record  # noqa: F401
from tests.pdf import needs_pdftotext, pdf_text

pytestmark = pytest.mark.django_db

NEW_YORK = "America/New_York"
house = override_settings(TIME_ZONE=NEW_YORK)
STATEMENT = (
    "Times are in America/New_York (EST, UTC-05:00; EDT, UTC-04:00 in daylight saving time)."
)


@house
def test_the_zone_statement_names_the_zone_and_its_two_names():
    assert zone_statement(on=dt.date(2026, 3, 10)) == STATEMENT
    with override_settings(TIME_ZONE="Asia/Kolkata"):
        assert zone_statement() == "Times are in Asia/Kolkata (IST, UTC+05:30)."
    with override_settings(TIME_ZONE="UTC"):
        assert zone_statement() == "Times are in UTC."


@house
def test_house_second_says_which_side_of_the_change_a_time_is():
    # 10 March 2026 is after the clocks went forward (8 March): EDT.
    assert house_second(NOON) == "2026-03-10 08:00:00 EDT"
    assert house_second(dt.datetime(2026, 1, 10, 12, tzinfo=dt.UTC)) == "2026-01-10 07:00:00 EST"
    # The night the clocks go back, 01:30 happens twice.
    first = dt.datetime(2026, 11, 1, 5, 30, tzinfo=dt.UTC)
    assert house_second(first) == "2026-11-01 01:30:00 EDT"
    assert house_second(first + dt.timedelta(hours=1)) == "2026-11-01 01:30:00 EST"
    assert house_second(None) == ""
    assert zone_abbreviations(start=dt.date(2026, 3, 1), end=dt.date(2026, 3, 31)) == {
        -18000: "EST",
        -14400: "EDT",
    }


@house
def test_the_csv_states_the_zone_and_writes_every_time_in_it(period_data):  # noqa: F811
    out = io.StringIO()
    compliance_report_write_csv(start=DAY, end=DAY, out=out)
    report = sections(out.getvalue())
    facts = dict(tuple(row) for row in report["report"][1:])
    assert facts["time_zone"] == NEW_YORK
    assert facts["times"] == STATEMENT
    assert facts["generated_at"].endswith(("EST", "EDT"))
    decisions = as_dicts(report["decisions"])
    assert {row["answered_at"] for row in decisions} == {"2026-03-10 08:00:00 EDT"}
    (review,) = as_dicts(report["reviews"])
    assert review["reviewed_at"] == "2026-03-10 09:00:00 EDT"
    (signoff,) = as_dicts(report["signoffs"])
    assert signoff["signed_at"] == "2026-03-10 08:00:00 EDT"
    assert signoff["expires_at"] == "2027-03-10 07:00:00 EST"  # before 2027's change
    assert "UTC" not in out.getvalue().replace(STATEMENT, "")


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the decisions are written by SQL on PostgreSQL only"
)
@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        (NEW_YORK, "2026-03-10 08:00:00 EDT"),
        ("Asia/Kolkata", "2026-03-10 17:30:00 IST"),
        ("America/Sao_Paulo", "2026-03-10 09:00:00 -03"),
        ("UTC", "2026-03-10 12:00:00 UTC"),
    ],
)
def test_postgresql_writes_house_times_as_python_does(period_data, zone, shown):  # noqa: F811
    with override_settings(TIME_ZONE=zone):
        rows = report_decisions(start=DAY, end=DAY)
        in_python = "".join(csv_line(decision_row(row)) for row in rows)
        in_sql = report_decisions_csv(start=DAY, end=DAY)
        assert in_sql is not None
        assert "".join(in_sql) == in_python
    assert shown in in_python


@needs_pdftotext
@house
def test_the_compliance_pdf_states_the_zone_and_writes_times_in_it(period_data, tmp_path):  # noqa: F811
    path = tmp_path / "report.pdf"
    compliance_report_write_pdf(start=DAY, end=DAY, out=str(path))
    flat = " ".join(pdf_text(path).split())
    assert STATEMENT in flat
    # A table's cell breaks between the day and the time.
    assert "08:00 EDT" in flat  # the sign-off
    assert "09:00 EDT" in flat  # the review
    assert "12:00 UTC" not in flat


@needs_pdftotext
@house
def test_the_training_record_states_the_zone_and_writes_times_in_it(
    record,  # noqa: F811
    trainee,
    pit_boss,
    tmp_path,
):
    data = training_record_pdf(trainee=trainee, user=pit_boss)
    flat = " ".join(record_text(data, tmp_path).split())
    assert "Times are in America/New_York (EST, UTC-05:00; EDT, UTC-04:00" in flat
    local = record["signed"].signed_at.astimezone(ZoneInfo(NEW_YORK))
    assert f"{local:%Y-%m-%d %H:%M} {local.tzname()}" in flat
    assert " UTC" not in flat.replace("UTC-0", "")
