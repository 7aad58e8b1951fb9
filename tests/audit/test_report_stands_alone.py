"""A compliance report a regulator reads without the live system (issue #24, found 5):
each decision names the drill, the table by its title and the question as the trainee read
it; people by full name and username; flags and sittings in words, never "flag #1" or a
bare attempt id; class figures against the roster, each attempt once; a flat CSV of the
decisions alone; preset periods; every compliance URL safe to revisit."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone

from audit.models import Certification, ComplianceReport, RetrainingFlag, Review
from audit.services.reports.periods import PRESETS, preset_period
from audit.services.reports.rows import compliance_report_write_csv, compliance_report_write_flat
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from tests.graded import QUESTION, RIGHT, make_attempt, wrong
from trainer.games.blackjack.words import key_text
from trainer.models import Drill, RuleProfile

DAY = dt.date(2026, 3, 10)
NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


def sections(text: str) -> dict[str, list[dict[str, str]]]:
    found: dict[str, list[list[str]]] = {}
    for row in csv.reader(io.StringIO(text)):
        found.setdefault(row[0], []).append(row[1:])
    return {
        name: [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
        for name, rows in found.items()
    }


def csv_report() -> dict[str, list[dict[str, str]]]:
    out = io.StringIO()
    compliance_report_write_csv(start=DAY, end=DAY, out=out)
    return sections(out.getvalue())


@pytest.fixture
def people(trainee, pit_boss):
    trainee.first_name, trainee.last_name = "Sam", "Dealer"
    trainee.save()
    pit_boss.first_name, pit_boss.last_name = "Pat", "Boss"
    pit_boss.save()
    # A year before the period: its round takes the first id, so that no round's id is its
    # position (a row read by the wrong one shows).
    make_attempt(trainee=trainee, answers=[RIGHT], submitted_at=NOON - dt.timedelta(days=365))
    return trainee, pit_boss


@pytest.fixture
def drilled(people):
    trainee, _boss = people
    drill = Drill.objects.create(title="Naturals at 3 to 2", kind="fixed")
    return make_attempt(
        trainee=trainee, answers=[RIGHT, wrong("5.00")], submitted_at=NOON, drill=drill
    )


@pytest.mark.django_db
def test_a_decision_row_names_the_drill_the_table_and_the_question(drilled):
    (row, *_) = csv_report()["decisions"]
    table = RuleProfile.objects.get(name="casino-shoe")
    assert row["drill"] == "Naturals at 3 to 2"
    assert row["table"] == (table.title or "")
    assert table.title
    assert row["question_text"] == key_text(QUESTION, drilled.items.first().document, note=False)
    assert row["question_text"].startswith("Settle the bet of Seat 1")
    assert row["trainee"] == "tina"
    assert row["trainee_name"] == "Sam Dealer"


@pytest.mark.django_db
def test_the_flat_csv_has_one_header_and_the_decisions_only(drilled):
    out = io.StringIO()
    compliance_report_write_flat(start=DAY, end=DAY, out=out)
    header, *rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert header[:2] == ["attempt", "trainee"]
    assert {"drill", "table", "question_text", "trainee_name"} <= set(header)
    assert len(rows) == 2
    assert all(len(row) == len(header) for row in rows)
    assert "decisions" not in {row[0] for row in rows}
    assert sections_decisions() == [dict(zip(header, row, strict=True)) for row in rows]


def sections_decisions() -> list[dict[str, str]]:
    return csv_report()["decisions"]


@pytest.mark.django_db
def test_reviews_flags_and_signoffs_name_people_and_things_in_words(drilled, people):
    trainee, boss = people
    grade = drilled.grading_runs.get().grades.get(correct=False)
    first = Review.objects.create(grade=grade, reviewer=boss, comment="Counted 3:2 as 2:1")
    Review.objects.create(grade=grade, reviewer=boss, comment="Paid short", corrects=first)
    flag = RetrainingFlag.objects.create(
        trainee=trainee, flagged_by=boss, reason="Naturals", skills=["natural-3to2"]
    )
    lifted = RetrainingFlag.objects.create(
        trainee=trainee, flagged_by=boss, reason="Retrained", active=False, corrects=flag
    )
    for row in (first, flag, lifted):
        type(row).objects.filter(pk=row.pk).update(created_at=NOON)
    Review.objects.exclude(pk=first.pk).update(created_at=NOON)
    Certification.objects.create(
        trainee=trainee,
        profile=RuleProfile.objects.get(name="casino-shoe"),
        attempt=drilled,
        signed_by=boss,
        signer_full_name="Pat Boss",
        signer_role="pit_boss",
        statement="Ready",
        signed_at=NOON,
        expires_at=NOON + dt.timedelta(days=365),
        flags_overridden=[flag.pk],
        override_reason="Retrained on the floor",
    )
    report = csv_report()
    reviews = report["reviews"]
    assert reviews[0]["reviewer"] == "Pat Boss (boss)"
    assert reviews[0]["trainee"] == "Sam Dealer (tina)"
    assert reviews[0]["drill"] == "Naturals at 3 to 2"
    assert reviews[0]["question"].startswith("Settle the bet of Seat 1")
    assert reviews[1]["corrects_review"].startswith("Corrects the review written 2026-03-10")
    assert "Pat Boss" in reviews[1]["corrects_review"]
    flags = report["retraining"]
    assert flags[0]["flagged_by"] == "Pat Boss (boss)"
    assert flags[0]["trainee"] == "Sam Dealer (tina)"
    assert flags[1]["corrects_flag"].startswith("Lifts the retraining flag raised 2026-03-10")
    (signoff,) = report["signoffs"]
    assert signoff["trainee"] == "Sam Dealer (tina)"
    assert signoff["signed_by"] == "Pat Boss (boss)"
    assert signoff["flags_overridden"] == (
        "Retraining flag raised 2026-03-10 by Pat Boss (boss) for Sam Dealer (tina): Naturals"
    )
    assert signoff["attempt"].startswith("Naturals at 3 to 2, submitted 2026-03-10 12:00")
    text = "\n".join(",".join(r.values()) for rows in report.values() for r in rows)
    assert "flag #" not in text
    assert f"#{drilled.pk}" not in text


@pytest.mark.django_db
def test_class_figures_match_the_roster_and_count_each_attempt_once(people):
    trainee, boss = people
    second_boss = UserFactory(username="kim", first_name="Kim", last_name="Floor")
    roster = [trainee, *(UserFactory(roles=["trainee"]) for _ in range(4))]
    TrainingClassFactory(name="Spring", trainees=roster, instructors=[boss, second_boss])
    TrainingClassFactory(name="Evening", trainees=[roster[1]], instructors=[boss])
    make_attempt(trainee=trainee, answers=[RIGHT], submitted_at=NOON, runs=[[RIGHT]])
    make_attempt(trainee=trainee, answers=[RIGHT, RIGHT], submitted_at=NOON)
    make_attempt(trainee=roster[1], answers=[RIGHT], submitted_at=NOON)
    classes = {row["class"]: row for row in csv_report()["classes"]}
    spring = classes["Spring"]
    assert spring["trainees_on_roster"] == "5"
    assert spring["trainees_who_submitted"] == "2"
    assert spring["attempts"] == "3"
    assert spring["instructors"] == "Kim Floor (kim); Pat Boss (boss)"
    assert classes["Evening"]["trainees_on_roster"] == "1"
    assert classes["Evening"]["attempts"] == "1"


@pytest.mark.parametrize(
    ("today", "preset", "start", "end"),
    [
        (dt.date(2026, 11, 26), "last_month", dt.date(2026, 10, 1), dt.date(2026, 10, 31)),
        (dt.date(2026, 1, 15), "last_month", dt.date(2025, 12, 1), dt.date(2025, 12, 31)),
        (dt.date(2026, 3, 31), "last_month", dt.date(2026, 2, 1), dt.date(2026, 2, 28)),
        (dt.date(2026, 11, 26), "last_quarter", dt.date(2026, 7, 1), dt.date(2026, 9, 30)),
        (dt.date(2026, 2, 3), "last_quarter", dt.date(2025, 10, 1), dt.date(2025, 12, 31)),
        (dt.date(2026, 11, 26), "year_to_date", dt.date(2026, 1, 1), dt.date(2026, 11, 26)),
    ],
)
def test_preset_periods(today, preset, start, end):
    assert preset in PRESETS
    assert preset_period(preset, today=today) == (start, end)


@pytest.mark.django_db
def test_a_preset_is_the_house_s_month(settings, compliance_officer, monkeypatch):
    # 03:00 UTC on 1 December is still 30 November in New York: last month is October.
    settings.TIME_ZONE = "America/New_York"
    moment = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    client = Client()
    client.force_login(compliance_officer)
    response = client.post("/compliance/reports/", {"preset": "last_month", "fmt": "csv"})
    assert response.status_code == 302, response.content.decode()[:2000]
    report = ComplianceReport.objects.get()
    assert (report.period_start, report.period_end) == (dt.date(2026, 10, 1), dt.date(2026, 10, 31))


@pytest.mark.django_db
def test_the_flat_csv_is_requested_and_downloaded_from_the_page(
    drilled, compliance_officer, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    client = Client()
    client.force_login(compliance_officer)
    response = client.post(
        "/compliance/reports/", {"start": "2026-03-10", "end": "2026-03-10", "fmt": "flat"}
    )
    assert response.status_code == 302
    report = ComplianceReport.objects.get()
    page = client.get("/compliance/").content.decode()
    assert "Decisions only" in page
    download = client.get(f"/compliance/reports/{report.pk}/download/")
    assert download.status_code == 200
    assert download["Content-Disposition"].endswith('.csv"')
    assert "decisions" in download["Content-Disposition"]
    body = b"".join(download.streaming_content).decode()
    assert body.startswith("attempt,trainee,")


@pytest.mark.django_db
def test_every_compliance_url_is_safe_to_revisit(compliance_officer):
    client = Client()
    client.force_login(compliance_officer)
    verified = client.post("/compliance/verify/")
    assert verified.status_code == 200
    revisit = client.get("/compliance/verify/")
    assert revisit.status_code == 200
    assert "Verify the log now" in revisit.content.decode()
    again = client.get("/compliance/reports/")
    assert again.status_code in (200, 302)
    if again.status_code == 302:
        assert again["Location"] == "/compliance/"


@pytest.mark.django_db
def test_an_unknown_preset_is_refused_at_its_field_and_a_pit_boss_is_refused(
    compliance_officer, pit_boss
):
    officer = Client()
    officer.force_login(compliance_officer)
    response = officer.post("/compliance/reports/", {"preset": "next_year", "fmt": "csv"})
    assert response.status_code == 400
    assert 'data-error="preset"' in response.content.decode()
    boss = Client()
    boss.force_login(pit_boss)
    assert (
        boss.post("/compliance/reports/", {"preset": "last_month", "fmt": "flat"}).status_code
        == 403
    )
    assert boss.get("/compliance/verify/").status_code == 403
    assert not ComplianceReport.objects.exists()


@pytest.mark.django_db
def test_the_command_writes_the_flat_csv(drilled, tmp_path):
    from django.core.management import call_command

    out = tmp_path / "decisions.csv"
    call_command(
        "export_compliance_report", "--from", "2026-03-10", "--to", "2026-03-10",
        "--format", "flat", "--out", str(out), stdout=io.StringIO(),
    )  # fmt: skip
    header, *rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert header[0] == "attempt"
    assert len(rows) == 2
