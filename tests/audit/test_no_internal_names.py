"""No page, CSV or PDF shows an internal name (issue #16): for a demo-like history, the
words people read carry no question kind, error category, profile or skill slug, player id
or ISO timestamp, and the two ways of writing the CSV agree byte for byte."""

from __future__ import annotations

import datetime as dt
import html
import io
import re
from pathlib import Path

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
from trainer.games.blackjack.marking import BlackjackCategory as ErrorCategory
from trainer.games.blackjack.skills import Skill
from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.rulings import RULINGS
from trainer.games.casino.engine.scenario import QUESTION_KINDS
from trainer.games.casino.marking import CasinoCategory
from trainer.games.casino.marking import Skill as CasinoSkill
from trainer.models import Attempt, AttemptItem, Grade, RuleProfile
from trainer.rules import Kind

START = dt.date(2000, 1, 1)


# Words of the program a person once read (issue #24): a drill kind's and purpose's
# internal labels, run and record numbers standing for things, an engine message, and a
# rule change named by its parameters ("casino-shoe with blackjack_pays=6:5").
PHRASES = (
    "Generated fresh from a seed",
    "(sealed)",
    "grading run",
    "more decimals than cents",
    "this scenario places none",
    # The shipped tables' first versions' note names our source file.
    "rule-profiles.md",
)


def internal_names() -> re.Pattern[str]:
    """Every name of ours a person must not read, as whole words: question kinds and
    categories with an underscore, profile and skill slugs, the players' ids in the dealt
    rounds, ISO timestamps (the "T" form, with or without microseconds), a record's bare
    number ("flag #1", "attempt #7"), a rule parameter with its value and PHRASES."""
    words = {kind.value for kind in Kind if "_" in kind.value}
    words |= {c.value for c in ErrorCategory if "_" in c.value}
    words |= set(RuleProfile.objects.values_list("name", flat=True))
    words |= {skill.value for skill in Skill if "-" in skill.value or "_" in skill.value}
    casino = casino_names() | {*QUESTION_KINDS, *CasinoCategory.values, *REASONS, *RULINGS}
    words |= {name for name in casino | {"non_dealer"} if "_" in name or "-" in name}
    words |= {skill.value for skill in CasinoSkill if "-" in skill.value}
    for document in AttemptItem.objects.values_list("document", flat=True):
        for box in document.get("boxes", []):  # a blackjack round's players
            words |= {s["player"] for s in box["stakes"]}
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    phrases = "|".join(map(re.escape, PHRASES))
    return re.compile(
        rf"(?<![\w-])(?:{alternatives})(?![\w-])|\d{{4}}-\d\d-\d\dT\d\d:\d\d"
        rf"|(?<![\w&])#\d+|\b[a-z]+_[a-z_0-9]+=|{phrases}"
    )


def casino_names() -> set[str]:
    """Scarne's Casino's own names: its question kinds, categories, reasons, rulings,
    situations, score lines, players and skills."""
    from trainer.games.casino.engine.legality import REASONS
    from trainer.games.casino.engine.rulings import RULINGS, SITUATIONS
    from trainer.games.casino.engine.scoring import LINES
    from trainer.games.casino.marking import CasinoCategory
    from trainer.games.casino.marking import Skill as CasinoSkill
    from trainer.games.casino.reading import KIND_FIELDS, SCORE_FIELDS, WINNERS

    names = {c.value for c in CasinoCategory} | {s.value for s in CasinoSkill}
    names |= set(KIND_FIELDS) | set(SCORE_FIELDS) | set(WINNERS) | set(LINES)
    return names | set(REASONS) | set(RULINGS) | set(SITUATIONS)


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


# Issue #24: durations as "38977 ms" and "Exam time left: 5999 s". A number of milliseconds,
# or of a hundred seconds and more, is read by no person.
RAW_DURATION = re.compile(r"\b\d+ ms\b|\b\d{3,} s\b|\b(?:Mean|p90) ms\b")


@pytest.mark.django_db
def test_durations_read_in_seconds_and_minutes_on_every_page(history):
    trainee, boss, _officer = history
    me, pit = client_for(trainee), client_for(boss)
    pages = {
        f"results {attempt.pk}": me.get(reverse("train:results", args=[attempt.pk]))
        for attempt in Attempt.objects.filter(trainee=trainee)
    }
    pages["my record"] = me.get("/train/record/")
    pages["pit dashboard"] = pit.get(reverse("pit:dashboard"))
    pages["pit trainee"] = pit.get(reverse("pit:trainee", args=[trainee.pk]))
    for grade in Grade.objects.filter(run__attempt__trainee=trainee)[:5]:
        pages[f"grade {grade.pk}"] = pit.get(reverse("pit:grade", args=[grade.pk]))
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert found(RAW_DURATION, visible_text(response.content.decode())) == [], name
    assert any(
        re.search(r"\b\d+(\.\d)? s\b", visible_text(r.content.decode())) for r in pages.values()
    )


# Issue #24: every page, CSV and PDF a person reads, walked role by role, on the demo's
# history with a round dealt under a rule change (this table pays 6 to 5 on blackjack).

RULE_CHANGE = {
    "format": "blackjack-scenario/1",
    "id": "six-to-five-natural",
    "title": "A natural at a 6 to 5 table",
    "skills": ["natural-6to5"],
    "rules": {"profile": "casino-shoe", "overrides": {"blackjack_pays": "6:5"}},
    "boxes": [
        {"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": []},
        {"box": 2, "stakes": [{"player": "p2", "amount": "25"}], "actions": ["stand"]},
    ],
    "shoe": ["As", "Th", "6d", "Kc", "9h", "5s", "Td"],
}


def _rule_change_round(trainee, boss) -> Attempt:
    """A practice attempt of one round dealt under a rule change, every answer wrong."""
    from random import Random

    from audit.management.commands.setup_demo_history import Command
    from trainer.models import Drill, DrillScenario, Mode
    from trainer.services.scenario_authoring import scenario_create

    scenario = scenario_create(document=RULE_CHANGE, user=boss)
    drill = Drill.objects.create(title="Six to five", kind="fixed", count=1, owner=boss)
    DrillScenario.objects.create(drill=drill, scenario=scenario, position=1)
    return Command()._sit(trainee, boss, drill, Mode.PRACTICE, Random(7), 0.0)


CASINO = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"


def _casino_round(trainee, boss) -> Attempt:
    """A practice attempt of Scarne's Casino (a play, every legal play, a score and
    rulings), every answer wrong, graded."""
    import json
    from random import Random

    from audit.management.commands.setup_demo_history import Command
    from trainer.models import Mode
    from trainer.services.drills import drill_create
    from trainer.services.scenarios import scenario_import

    rows = [json.loads(line)["scenario"] for line in CASINO.read_text().splitlines()]
    wanted = ("seed-building-nine", "score-last-take", "rulings")
    imported = scenario_import(documents=[row for row in rows if row["id"] in wanted])
    drill = drill_create(title="Casino rulings", kind="fixed", user=boss, scenarios=imported)
    return Command()._sit(trainee, boss, drill, Mode.PRACTICE, Random(7), 0.0)


def _class_session(trainee, boss) -> None:
    """A finished class session of the trainee's class, as setup_demo leaves one."""
    from teaching.management.live_demo import live_demo
    from tests.audit.factories import TrainingClassFactory
    from trainer.models import Drill

    group = TrainingClassFactory(name="Live room", trainees=[trainee], instructors=[boss])
    drill = Drill.objects.filter(purpose="practice", kind="fixed", is_active=True).first()
    assert drill is not None
    live_demo(boss=boss, trainee=trainee, training_class=group, drill=drill)


def _patterns(resolver=None, prefix=""):
    from django.urls import URLResolver, get_resolver

    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            # The admin reads records; the API and its schema are for programs.
            if pattern.namespace in ("admin", "api") or str(pattern.pattern).startswith("api"):
                continue
            name = f"{pattern.namespace}:" if pattern.namespace else ""
            for inner, route in _patterns(pattern, prefix + str(pattern.pattern)):
                yield name + inner, route
        elif pattern.name and not pattern.name.startswith("api"):
            yield pattern.name, prefix + str(pattern.pattern)


def _urls(ids: dict[str, list[object]]) -> list[str]:
    """Every routed page with each value of its arguments (none: the page alone)."""
    urls = []
    for name, route in _patterns():
        kwargs = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if any(not ids.get(k) for k in kwargs):
            continue
        if not kwargs:
            urls.append(reverse(name))
            continue
        combos: list[dict[str, object]] = [{}]
        for key in kwargs:
            combos = [{**c, key: value} for c in combos for value in ids[key]]
        urls += [reverse(name, kwargs=c) for c in combos]
    return urls


def _read(response) -> str:
    kind = response.get("Content-Type", "")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if kind.startswith("application/pdf"):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "page.pdf"
            path.write_bytes(body)
            return pdf_text(path)
    text = body.decode()
    return visible_text(text) if kind.startswith("text/html") else text


@pytest.mark.django_db(transaction=False)
def test_every_page_csv_and_pdf_each_role_reads_shows_no_internal_name(
    history, admin_user, settings, tmp_path
):
    from audit.models import ComplianceReport
    from audit.services.reports.lifecycle import compliance_report_request
    from trainer.models import Assignment, AttemptItem, LiveSession, Scenario, TrainingClass

    settings.MEDIA_ROOT = tmp_path
    trainee, boss, officer = history
    changed = _rule_change_round(trainee, boss)
    casino = _casino_round(trainee, boss)
    _class_session(trainee, boss)
    pattern = internal_names()
    end = timezone.now().date() + dt.timedelta(days=1)
    for fmt in ("csv", "flat", "pdf"):
        compliance_report_request(start=START, end=end, fmt=fmt, user=officer)
    wrong = Grade.objects.filter(correct=False)
    ids: dict[str, list[object]] = {
        "attempt_id": list(Attempt.objects.filter(trainee=trainee).values_list("pk", flat=True)),
        "position": [1],
        "grade_id": [
            *wrong.filter(run__attempt=changed).values_list("pk", flat=True),
            *wrong.filter(run__attempt=casino).values_list("pk", flat=True),
            *wrong.exclude(run__attempt=changed).values_list("pk", flat=True)[:3],
        ],
        "trainee_id": [trainee.pk],
        "class_id": list(TrainingClass.objects.values_list("pk", flat=True)),
        "assignment_id": list(Assignment.objects.values_list("pk", flat=True)),
        # Every game's scenarios, each edited in the form its game names: Casino's in a
        # dealer's words (issue #26), never as its document's names.
        "scenario_id": [
            *Scenario.objects.exclude(game="casino").values_list("pk", flat=True)[:2],
            *Scenario.objects.filter(game="casino", is_active=True).values_list("pk", flat=True),
        ],
        "report_id": list(ComplianceReport.objects.values_list("pk", flat=True)),
        "name": list(RuleProfile.objects.values_list("name", flat=True)),
        # The demo's finished class session: its page, status, summary and CSV.
        "session_id": list(LiveSession.objects.values_list("pk", flat=True)),
    }
    assert ids["session_id"]
    assert AttemptItem.objects.filter(attempt=changed).exists()
    read: dict[str, int] = {}
    leaks: dict[str, list[str]] = {}
    for who in (trainee, boss, officer, admin_user):
        client = client_for(who)
        for url in _urls(ids):
            response = client.get(url)
            if response.status_code != 200:
                continue
            text = _read(response)
            read[f"{who.username} {url}"] = len(text)
            if hits := found(pattern, text):
                leaks[f"{who.username} {url}"] = hits
    # A new Casino situation's form, offered at the library's page with its game named.
    for who in (boss, admin_user):
        response = client_for(who).get(reverse("teach:scenario-new") + "?game=casino")
        assert response.status_code == 200
        read[f"{who.username} new casino"] = len(text := _read(response))
        if hits := found(pattern, text):
            leaks[f"{who.username} new casino"] = hits
    assert leaks == {}, sorted(leaks.items())
    for scenario in Scenario.objects.filter(game="casino", is_active=True):
        edit = reverse("teach:scenario-edit", args=[scenario.pk])
        assert f"{boss.username} {edit}" in read
    # The walk read the pages that matter: the rule change's feedback and the pit's view
    # of it, the reports in their three formats, the personnel file.
    feedback = reverse("train:feedback", args=[changed.pk, 1])
    assert f"{trainee.username} {feedback}" in read
    # And a Casino round answered wrong: its feedback, results and every mistake's page.
    assert wrong.filter(run__attempt=casino).count() >= 5
    for url in (
        reverse("train:feedback", args=[casino.pk, 1]),
        reverse("train:results", args=[casino.pk]),
    ):
        assert f"{trainee.username} {url}" in read
    for grade in wrong.filter(run__attempt=casino):
        assert f"{boss.username} {reverse('pit:grade', args=[grade.pk])}" in read
    grade = wrong.filter(run__attempt=changed, rule__contains="with blackjack_pays=").first()
    assert grade is not None
    page = client_for(boss).get(reverse("pit:grade", args=[grade.pk])).content.decode()
    assert "pays 6 to 5 on blackjack" in visible_text(page)
    for report in ComplianceReport.objects.all():
        url = reverse("compliance:report_download", args=[report.pk])
        assert f"{officer.username} {url}" in read, report.format
    assert f"{boss.username} {reverse('pit:trainee_record', args=[trainee.pk])}" in read
