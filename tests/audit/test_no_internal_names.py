"""No page, CSV or PDF shows an internal name (issue #16): for a demo-like history, the
words people read carry no question kind, error category, profile or skill slug, player id
or ISO timestamp, and the two ways of writing the CSV agree byte for byte."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import RetrainingFlag
from audit.services.reports.pdf import compliance_report_write_pdf
from audit.services.reports.rows import compliance_report_rows, compliance_report_write_csv
from audit.services.training_record import training_record_pdf
from core.postgres import csv_line
from tests.audit.test_setup_demo_history import _run, demo  # noqa: F401 - the fixture
from tests.pdf import needs_pdftotext, pdf_text
from trainer.models import Attempt, AttemptItem, ErrorCategory, Grade, RuleProfile, Skill
from trainer.rules import Kind

START = dt.date(2000, 1, 1)


def internal_names() -> re.Pattern[str]:
    """Every name of ours a person must not read, as whole words: question kinds and
    categories with an underscore, profile and skill slugs, the players' ids in the dealt
    rounds, and ISO timestamps (the "T" form, with or without microseconds)."""
    words = {kind.value for kind in Kind if "_" in kind.value}
    words |= {c.value for c in ErrorCategory if "_" in c.value}
    words |= set(RuleProfile.objects.values_list("name", flat=True))
    words |= {skill.value for skill in Skill if "-" in skill.value or "_" in skill.value}
    for document in AttemptItem.objects.values_list("document", flat=True):
        words |= {s["player"] for box in document["boxes"] for s in box["stakes"]}
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])|\d{{4}}-\d\d-\d\dT\d\d:\d\d")


def visible_text(page: str) -> str:
    """A page's words as a person reads them: no tags, scripts' data or attributes."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def history(demo, compliance_officer):  # noqa: F811 - the imported fixture
    trainee, boss = demo
    _run()
    RetrainingFlag.objects.create(
        trainee=trainee, flagged_by=boss, reason="Rounds 3:2 up", skills=["natural-3to2"]
    )
    return trainee, boss, compliance_officer


def found(pattern: re.Pattern[str], text: str) -> list[str]:
    return sorted({match.group(0) for match in pattern.finditer(text)})


@pytest.mark.django_db(transaction=False)
def test_pages_csv_and_pdfs_show_no_internal_name(history, tmp_path):
    trainee, boss, officer = history
    pattern = internal_names()
    assert pattern.search("b7p1 settle_hand casino-shoe natural-3to2 2026-11-23T14:39:05.1")
    end = timezone.now().date() + dt.timedelta(days=1)

    csv_text = io.StringIO()
    compliance_report_write_csv(start=START, end=end, out=csv_text)
    assert csv_text.getvalue().count("\ndecisions,") > 20
    assert found(pattern, csv_text.getvalue()) == []

    pages = {}
    me = client_for(trainee)
    for attempt in Attempt.objects.filter(trainee=trainee):
        pages[f"results {attempt.pk}"] = me.get(reverse("train:results", args=[attempt.pk]))
    pages["my record"] = me.get("/train/record/")
    pit = client_for(boss)
    pages["pit trainee"] = pit.get(reverse("pit:trainee", args=[trainee.pk]))
    for section in ("mistakes", "retraining", "certification", "sign_off"):
        pages[f"pit trainee {section}"] = pit.get(
            reverse(f"pit:trainee_{section}", args=[trainee.pk])
        )
    pages["pit review queue"] = pit.get(reverse("pit:queue"))
    for grade in Grade.objects.filter(correct=False)[:5]:
        pages[f"mistake {grade.pk}"] = pit.get(reverse("pit:grade", args=[grade.pk]))
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert found(pattern, visible_text(response.content.decode())) == [], name

    report = tmp_path / "report.pdf"
    compliance_report_write_pdf(start=START, end=end, out=str(report), produced_by="Cora C.")
    record = tmp_path / "record.pdf"
    record.write_bytes(training_record_pdf(trainee=trainee, user=officer))
    for path in (report, record):
        text = pdf_text(path)
        assert found(pattern, text) == [], path.name
        assert "Compliance officer's signature" in text, path.name
        assert "Ledger head" in text, path.name


pytestmark = needs_pdftotext


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the decisions are written by SQL on PostgreSQL only"
)
@pytest.mark.django_db
def test_postgresql_and_python_write_the_same_decisions_in_words(history):
    end = timezone.now().date() + dt.timedelta(days=1)
    written = io.StringIO()
    compliance_report_write_csv(start=START, end=end, out=written)
    by_sql = [line for line in written.getvalue().splitlines(True) if line.startswith("decisions,")]
    by_python = [
        csv_line(row)
        for row in compliance_report_rows(start=START, end=end)
        if row[0] == "decisions"
    ]
    assert len(by_sql) > 20
    # Peeks, procedure answers, pushes and money all among them.
    assert any("Peek: " in line for line in by_sql) or any("Stand" in line for line in by_sql)
    assert by_sql == by_python
