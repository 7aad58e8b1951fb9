"""A game whose mistakes cost points (the test game, "dealer-draws") has them totalled where
money is totalled, beside it and never added to it: the trainee's results, the pit's
dashboard and trainee page, and the compliance report's summary (CSV and PDF). A house whose
grades are all money shows no points at all."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from audit.selectors.report_attempts import report_mispays, report_totals, report_trainees
from audit.services.reports.rows import mispay_table, summary_rows, trainee_table
from tests.audit.factories import TrainingClassFactory
from tests.factories import profile_version
from tests.graded import client_for
from tests.pdf import needs_pdftotext, pdf_text
from tests.trainer.factories import DrillFactory, ScenarioFactory
from trainer.models import DrillScenario, Grade, GradingRunSummary, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_run_execute
from trainer.tallies import GradeFacts, Tally

pytestmark = pytest.mark.django_db


def _facts(*, money: str = "0", points: str | None = None) -> GradeFacts:
    return GradeFacts(
        False,
        3000,
        Decimal(money),
        "x",
        "table",
        (),
        points_diff=None if points is None else Decimal(points),
    )


def test_a_tally_counts_points_apart_from_money_and_none_where_there_are_none():
    money = Tally()
    money.add_grade(_facts(money="5"))
    assert (money.overpaid, money.points) == (Decimal("5"), None)
    points = Tally()
    for cost in ("1", "-2", "0"):
        points.add_grade(_facts(points=cost))
    assert (points.overpaid, points.underpaid, points.points) == (0, 0, Decimal("3"))
    both = Tally()
    both.add(money)
    both.add(points)
    assert (both.overpaid, both.points) == (Decimal("5"), Decimal("3"))
    assert Tally.from_json(points.as_json()).points == Decimal("3")
    assert "pt" not in money.as_json()
    assert Tally.from_json(money.as_json()).points is None


def _drill_of(totals):
    drill = DrillFactory(game="dealer-draws", title="Stiffs and pat hands")
    for position, total in enumerate(totals, start=1):
        scenario = ScenarioFactory(
            game="dealer-draws",
            document={"total": total},
            profile_version=profile_version("casino-shoe"),
        )
        DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    return drill


@pytest.fixture
def pointed(trainee, pit_boss):
    """A graded attempt of the test game: two wrong calls (a point each), one right, one
    left unanswered (no point)."""
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    attempt = attempt_start(trainee=trainee, drill=_drill_of([12, 18, 16, 19]), mode=Mode.PRACTICE)
    for position, word in ((1, "stand"), (2, "hit"), (3, "hit")):
        attempt_question_show(attempt=attempt, user=trainee)
        decision_record(
            attempt=attempt, user=trainee, position=position, question=1, answer={"answer": word}
        )
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=attempt.grading_runs.get().pk)
    assert [g.points_diff for g in Grade.objects.filter(run=run).order_by("item__position")] == [
        Decimal("1.00"),
        Decimal("1.00"),
        Decimal("0.00"),
        Decimal("0.00"),
    ]
    attempt.refresh_from_db()
    return attempt


def test_the_runs_summary_totals_its_points(pointed):
    summary = GradingRunSummary.objects.get(attempt=pointed)
    assert (summary.points, summary.overpaid, summary.underpaid) == (Decimal("2.00"), 0, 0)


def test_the_trainees_results_say_the_points_lost_not_money(pointed, trainee):
    html = client_for(trainee).get(reverse("train:results", args=[pointed.pk])).content.decode()
    assert "Points lost to mistakes: <strong>2 points</strong>" in html
    assert "winnings paid beside the bet" not in html
    api = APIClient()
    api.force_login(trainee)
    body = api.get(f"/api/attempts/{pointed.pk}/results").json()
    assert body["points"] == "2.00"


def test_the_pit_sees_the_points_beside_the_money(pointed, trainee, pit_boss):
    client = client_for(pit_boss)
    dashboard = client.get(reverse("pit:dashboard")).content.decode()
    assert "<dt>Points lost</dt><dd>2 points</dd>" in dashboard
    assert '<th class="num">Points lost</th>' in dashboard
    assert '<td class="num">2 points</td>' in dashboard
    page = client.get(reverse("pit:trainee", args=[trainee.pk])).content.decode()
    assert "<dt>Points lost</dt><dd>2 points</dd>" in page


def test_the_compliance_summary_has_the_points_beside_the_money(pointed):
    day = pointed.submitted_at.date()
    totals = report_totals(start=day, end=day)
    assert (totals.points, totals.overpaid, totals.underpaid) == (Decimal("2.00"), 0, 0)
    rows = dict(summary_rows(totals))
    assert rows["points lost to mistakes"] == "2"
    money = {name: value for name, value in rows.items() if name.startswith(("over", "under"))}
    assert sorted(money.values()) == ["0.00", "0.00"]
    columns, cells = trainee_table(report_trainees(start=day, end=day))
    assert columns[-3:] == ("overpaid", "underpaid", "points_lost")
    assert [row[-1] for row in cells] == ["2"]
    columns, cells = mispay_table(report_mispays(start=day, end=day))
    assert columns[-1] == "points_lost"
    assert sorted((row[0], row[1], row[-1]) for row in cells) == [
        ("Drew on a pat hand", 1, "1"),
        ("Stood on a stiff", 1, "1"),
    ]


def test_the_review_queue_lists_a_points_mistake_in_points(pointed, pit_boss):
    html = client_for(pit_boss).get(reverse("pit:queue")).content.decode()
    assert '<th class="num">Money or points</th>' in html
    assert html.count('<td class="num">1 point</td>') == 2
    assert '<td class="num">0.00</td>' not in html


def test_a_money_only_house_shows_no_points(trainee, pit_boss):
    from tests.graded import make_attempt, wrong

    TrainingClassFactory(name="Evening", trainees=[trainee], instructors=[pit_boss])
    attempt = make_attempt(trainee=trainee, answers=[wrong("5.00")], mode=Mode.PRACTICE)
    summary = GradingRunSummary.objects.get(attempt=attempt)
    assert summary.points is None
    client = client_for(pit_boss)
    for url in (reverse("pit:dashboard"), reverse("pit:trainee", args=[trainee.pk])):
        assert "Points lost" not in client.get(url).content.decode()
    queue = client.get(reverse("pit:queue")).content.decode()
    assert '<th class="num">Money</th>' in queue
    assert '<td class="num">5.00</td>' in queue
    day = attempt.submitted_at.date()
    totals = report_totals(start=day, end=day)
    assert totals.points is None
    assert not [name for name, _ in summary_rows(totals) if "points" in name]
    columns, cells = trainee_table(report_trainees(start=day, end=day))
    assert "points_lost" not in columns
    assert len(cells[0]) == len(columns)
    columns, cells = mispay_table(report_mispays(start=day, end=day))
    assert "points_lost" not in columns
    results = client_for(trainee).get(reverse("train:results", args=[attempt.pk]))
    assert "Points lost" not in results.content.decode()
    api = APIClient()
    api.force_login(trainee)
    assert api.get(f"/api/attempts/{attempt.pk}/results").json()["points"] is None


def test_a_game_the_house_no_longer_runs_is_reported_in_its_stored_words(pointed):
    from audit.selectors.report_decisions import report_decisions
    from trainer.models import Drill

    Drill.objects.filter(pk=pointed.drill_id).update(game="retired-game")
    day = pointed.submitted_at.date()
    rows = list(report_decisions(start=day, end=day))
    assert len(rows) == 4
    first = rows[0]
    # The kind as stored, the question's stored prompt, the answer's stored word: never
    # blackjack's words for them.
    assert first[6] == "Draw or stand"
    assert first[-1].startswith("Dealer has 12")
    assert first[12][0] == "stand"
    for row in rows:
        text = " ".join(str(cell) for cell in row)
        for word in ("Settle", "Pay", "Blackjack"):
            assert word not in text


@pytest.mark.django_db(transaction=True)
def test_the_migrations_give_runs_graded_before_their_points(pointed):
    """A database graded before the summaries held points (grades with points, 0023): the
    migration (0025) runs on it, and each run's summary is written again with its points."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    GradingRunSummary.objects.filter(attempt=pointed).update(points=None)
    executor = MigrationExecutor(connection)
    executor.migrate([("trainer", "0024_rule_profile_of_a_game")])
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert GradingRunSummary.objects.get(attempt=pointed).points == Decimal("2.00")


def test_the_round_feedback_of_a_points_game_says_no_money(pointed, trainee):
    html = client_for(trainee).get(reverse("train:feedback", args=[pointed.pk, 1]))
    assert html.status_code == 200
    assert "Round 1 of 4" in html.content.decode()
    assert "winnings paid beside the bet" not in html.content.decode()


def _decision_lines(day, *, flat: bool = False) -> list[list[str]]:
    import csv
    import io

    from audit.services.reports.rows import (
        compliance_report_write_csv,
        compliance_report_write_flat,
    )

    out = io.StringIO()
    (compliance_report_write_flat if flat else compliance_report_write_csv)(
        start=day, end=day, out=out
    )
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    return rows if flat else [row for row in rows if row[:1] == ["decisions"]]


def test_each_decision_carries_the_points_it_lost_beside_the_money(pointed):
    day = pointed.submitted_at.date()
    for flat in (False, True):
        header, *rows = _decision_lines(day, flat=flat)
        assert header[-1] == "points_lost", flat
        money = header.index("money_diff")
        assert [(row[money], row[-1]) for row in rows] == [
            ("0.00", "1"),
            ("0.00", "1"),
            ("0.00", "0"),
            ("0.00", "0"),
        ], flat


def test_a_money_only_report_has_no_points_column(trainee, pit_boss):
    from audit.selectors.report_decisions import DECISION_COLUMNS
    from tests.graded import make_attempt, wrong

    attempt = make_attempt(trainee=trainee, answers=[wrong("5.00")], mode=Mode.PRACTICE)
    day = attempt.submitted_at.date()
    for flat in (False, True):
        header, *rows = _decision_lines(day, flat=flat)
        assert header[-len(DECISION_COLUMNS) :] == list(DECISION_COLUMNS)
        assert "points_lost" not in header
        assert all(len(row) == len(header) for row in rows)


def test_the_database_and_python_write_the_same_points(pointed):
    from django.db import connection

    from audit.selectors.report_decisions import report_decisions, report_decisions_csv
    from audit.services.reports.rows import decision_row
    from core.postgres import csv_line

    if connection.vendor != "postgresql":
        pytest.skip("the decisions are written by SQL on PostgreSQL only")
    day = pointed.submitted_at.date()
    for sectioned in (True, False):
        blocks = report_decisions_csv(start=day, end=day, sectioned=sectioned, points=True)
        by_sql = "".join(blocks or [])
        by_python = "".join(
            csv_line(decision_row(row)[0 if sectioned else 1 :])
            for row in report_decisions(start=day, end=day, points=True)
        )
        assert by_sql == by_python
        assert by_sql.count(",1\n") == 2


@needs_pdftotext
def test_the_pdf_charts_the_points_lost_apart_from_the_money(pointed, tmp_path):
    from audit.services.reports.pdf import compliance_report_write_pdf

    day = pointed.submitted_at.date()
    path = tmp_path / "report.pdf"
    compliance_report_write_pdf(start=day, end=day, out=str(path), produced_by="Cora C.")
    words = " ".join(pdf_text(path).split())
    assert "Mistakes by category: points lost" in words
    # The test game moved no money: no chart of money.
    assert "money moved" not in words
