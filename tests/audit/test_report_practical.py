"""The practical tests in the compliance report: every sheet signed in the period in words
(what was ticked, timed and scored, the result, the evaluator's signature, a correction),
each certification with its signer's rank and licence and the sheet it rested on, in the
CSV (both ways of writing it, the same bytes) and the PDF."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import timezone

from audit.models import Certification
from audit.services.reports.pdf import compliance_report_write_pdf
from audit.services.reports.rows import compliance_report_rows, compliance_report_write_csv
from core.postgres import csv_line
from tests.audit.factories import table_test
from tests.audit.test_certification import sign, sit
from tests.audit.test_practical_sheet import evaluate, good_marks, shoe  # noqa: F401
from tests.audit.test_reports import as_dicts, sections
from tests.pdf import needs_pdftotext, pdf_text

pytestmark = pytest.mark.practical


def today():
    return timezone.localdate()


def report_csv() -> str:
    out = io.StringIO()
    compliance_report_write_csv(start=today(), end=today(), out=out)
    return out.getvalue()


@pytest.fixture
def evaluated(trainee, pit, pit_boss, shoe):  # noqa: F811
    """A failed sheet, its correction (passed), and a certification resting on it."""
    pit_boss.first_name, pit_boss.last_name = "Paula", "Manning"
    pit_boss.save()
    marks = good_marks(shoe)
    marks["procedures"]["insurance"] = False
    marks["timed"]["count_down"] = "12.5"
    failed = evaluate(trainee, shoe, pit_boss, marks=marks, comments="Missed the insurance.")
    passed = evaluate(trainee, shoe, pit_boss, corrects=failed, comments="Calm, clean hands.")
    certification = sign(trainee, sit(trainee, table_test("casino-shoe")), pit_boss, shoe)
    return failed, passed, certification


def test_every_sheet_of_the_period_is_in_the_csv_in_words(evaluated, trainee, pit_boss):
    failed, _, _ = evaluated
    first, second = as_dicts(sections(report_csv())["practical"])
    profile = pit_boss.signer_profiles.get()
    signature = f"Paula Manning, {profile.get_rank_display()}, licence {profile.licence_number}"
    assert first["evaluator_signature"] == signature
    assert first["evaluated_by"] == f"Paula Manning ({pit_boss.username})"
    assert first["trainee"] == f"{trainee.get_full_name()} ({trainee.username})"
    assert (first["passed"], second["passed"]) == ("no", "yes")
    assert first["score_percent"] == f"{failed.score:.2f}"
    assert first["pass_mark_percent"] == "70.00"
    # Each step, timed item and rubric line in the sheet's words, with what was recorded.
    assert "(critical): not done right" in first["procedures"]
    assert "12.5 s, target under 10 s, not met" in first["timed_items"]
    assert "8 of 10, weight 3" in first["rubric"]
    assert first["shortfalls"] == "; ".join(failed.shortfalls)
    assert first["comments"] == "Missed the insurance."
    assert first["corrects_sheet"] == ""
    assert second["corrects_sheet"].startswith("the sheet signed ")
    assert second["corrects_sheet"].endswith(f" by {signature}")
    assert "not done right" not in second["procedures"]
    assert second["shortfalls"] == ""
    # No code of the program's reaches a person: the sheet's items by their words only.
    for code in ("count_down", "largest_insurance", "right_to_left", "cut_card"):
        assert code not in " ".join(second.values())


def test_a_certification_states_its_signers_rank_licence_and_the_sheet_it_rested_on(
    evaluated, pit_boss
):
    _, passed, _ = evaluated
    (signoff,) = as_dicts(sections(report_csv())["signoffs"])
    profile = pit_boss.signer_profiles.get()
    assert signoff["signer_rank"] == profile.get_rank_display()
    assert signoff["signer_licence"] == profile.licence_number
    # The corrected, passed sheet: not the failed one it replaced.
    assert signoff["practical_sheet"].startswith("the sheet signed ")
    assert signoff["practical_sheet"].endswith(f", passed, {passed.score} %")


def test_a_withdrawal_rests_on_no_sheet(evaluated, pit_boss):
    from tests.audit.certificates_support import withdraw

    withdraw(evaluated[2], pit_boss)
    original, withdrawal = as_dicts(sections(report_csv())["signoffs"])
    assert original["practical_sheet"]
    assert withdrawal["withdrawn"] == "yes"
    assert withdrawal["practical_sheet"] == ""


def test_a_certification_at_a_table_that_needed_no_sheet_names_none(trainee, pit, pit_boss, shoe):  # noqa: F811
    Certification.objects.all().delete()
    shoe.practical_required = False
    shoe.save(update_fields=["practical_required"])
    sign(trainee, sit(trainee, table_test("casino-shoe")), pit_boss, shoe)
    (signoff,) = as_dicts(sections(report_csv())["signoffs"])
    assert signoff["practical_sheet"] == ""
    assert as_dicts(sections(report_csv())["practical"]) == []


def test_both_ways_of_writing_the_csv_write_the_same_bytes(evaluated):
    written = report_csv()
    streamed = "".join(csv_line(row) for row in compliance_report_rows(start=today(), end=today()))

    def without_generated_at(text: str) -> list[list[str]]:
        return [row for row in csv.reader(io.StringIO(text)) if row[1:2] != ["generated_at"]]

    assert without_generated_at(streamed) == without_generated_at(written)
    assert "practical" in sections(written)


@needs_pdftotext
def test_the_pdf_lists_the_practical_tests(evaluated, tmp_path):
    failed, passed, _ = evaluated
    path = tmp_path / "report.pdf"
    compliance_report_write_pdf(start=today(), end=today(), out=str(path))
    # Out of layout: a table cell's lines come together, in reading order.
    text = " ".join(pdf_text(path, layout=False).split())
    assert "Practical tests" in text
    assert f"not passed, {failed.score:.2f} % (pass mark 70.00 %)" in text
    assert f"passed, {passed.score:.2f} % (pass mark 70.00 %)" in text
    assert "Comments: “Missed the insurance.”" in text
    assert "Practical test: the sheet signed" in text


def test_an_evaluators_comment_cannot_run_as_a_formula(trainee, pit, pit_boss, shoe):  # noqa: F811
    evaluate(trainee, shoe, pit_boss, comments='=HYPERLINK("http://example.test","x")')
    (sheet,) = as_dicts(sections(report_csv())["practical"])
    assert sheet["comments"] == '\'=HYPERLINK("http://example.test","x")'
