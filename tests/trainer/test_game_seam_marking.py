"""The marking facet of the game seam: a game marks its answers with its own categories and
a cost in its own unit, declares its skills, and the shell labels all of them through it.

The test game (tests/seam_game, "dealer-draws") marks a wrong call "Drew on a pat hand" or
"Stood on a stiff", costs a point, and teaches "Drawing to a stiff" and "Standing on a pat
hand": graded, counted and labelled through it, with no word of blackjack's.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from audit.selectors.report_decisions import report_decisions, report_decisions_csv
from audit.services.reports.rows import compliance_report_write_csv, decision_row
from core.postgres import csv_line
from ledger.services.verify import ledger_verify
from ledger.services.vouch import digests
from tests.audit.factories import GradeSpec, TrainingClassFactory, graded_attempt
from tests.factories import profile_version
from tests.graded import client_for
from tests.seam_game.marking import DRAW_KIND, DREW_ON_PAT, STOOD_ON_STIFF
from tests.trainer.factories import DrillFactory, ScenarioFactory
from trainer import labels
from trainer.games import game_named
from trainer.games.marking import MONEY, POINTS, UNANSWERED, money_figure
from trainer.models import Attempt, DrillScenario, ErrorCategory, Grade, GradingRunSummary, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_run_execute
from trainer.tallies import skill_tallies

# Blackjack's categories in words and codes: none may label the test game's marks.
BLACKJACK_WORDS = (
    "Procedure error",
    "procedure_error",
    "Wrong outcome",
    "Overpay",
    "Underpay",
    "wrong chips",
)


@pytest.fixture
def dealer_draws():
    return game_named("dealer-draws")


def _drill_of(totals, skills=("stiff-hands", "pat-hands")):
    drill = DrillFactory(game="dealer-draws", title="Draw or stand")
    for position, total in enumerate(totals, start=1):
        scenario = ScenarioFactory(
            game="dealer-draws",
            document={"total": total, "skills": list(skills)},
            profile_version=profile_version("casino-shoe"),
        )
        DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    return drill


def _graded(trainee, answers, totals=(18, 12, 16)):
    """An attempt at the test game: ``answers`` for the first rounds, the rest left."""
    attempt = attempt_start(trainee=trainee, drill=_drill_of(totals), mode=Mode.PRACTICE)
    for position, word in enumerate(answers, start=1):
        attempt_question_show(attempt=attempt, user=trainee)
        decision_record(
            attempt=attempt, user=trainee, position=position, question=1, answer={"answer": word}
        )
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=attempt.grading_runs.get().pk)
    return Attempt.objects.get(pk=attempt.pk), run


# The facet itself: plain Python.


def test_each_game_declares_its_categories_cost_unit_and_skills(dealer_draws):
    blackjack = game_named("blackjack")
    assert (blackjack.cost_unit, dealer_draws.cost_unit) == (MONEY, POINTS)
    assert set(dealer_draws.categories) == {DREW_ON_PAT, STOOD_ON_STIFF}
    assert "procedure_error" in blackjack.categories
    assert not set(blackjack.categories) & set(dealer_draws.categories)
    # The shell's categories are no game's own.
    for game in (blackjack, dealer_draws):
        assert not set(game.categories) & {ErrorCategory.LATE, ErrorCategory.UNANSWERED}
    assert dealer_draws.skills == {
        "stiff-hands": "Drawing to a stiff",
        "pat-hands": "Standing on a pat hand",
    }
    # Blackjack's chip work is marked apart; the test game has none.
    assert blackjack.apart_kinds == ("pay_in_chips", "colour_up", "change")
    assert dealer_draws.apart_kinds == ()


def test_a_verdict_costs_in_the_games_unit_and_only_money_is_money(dealer_draws):
    wrong = dealer_draws.compare({"expected": {"answer": "stand"}}, {"answer": "hit"})
    assert (wrong.right, wrong.cost, wrong.category) == (False, Decimal(1), DREW_ON_PAT)
    assert money_figure(dealer_draws, wrong.cost) == Decimal("0.00")
    missed = dealer_draws.unanswered()
    assert (missed.right, missed.cost, missed.category) == (False, Decimal(0), UNANSWERED)
    blackjack = game_named("blackjack")
    key = {"kind": "settle_hand", "expected": {"action": "pay", "amount": "10.00"}}
    overpaid = blackjack.compare(key, {"action": "pay", "amount": "15.00"})
    assert (overpaid.cost, overpaid.category) == (Decimal("5.00"), "overpay")
    assert money_figure(blackjack, overpaid.cost) == Decimal("5.00")


def test_the_labels_come_from_the_game_that_declares_them(dealer_draws):
    assert labels.category_label(DREW_ON_PAT) == "Drew on a pat hand"
    assert labels.category_label(STOOD_ON_STIFF, game="dealer-draws") == "Stood on a stiff"
    assert labels.category_label("overpay") == "Overpay"
    assert labels.category_label("late") == "Answered after the time limit"
    assert labels.category_label("unanswered") == "Not answered"
    assert labels.category_label("") == ""
    assert labels.skills_label(["pat-hands", "stiff-hands"]) == (
        "Standing on a pat hand, Drawing to a stiff"
    )
    assert ("pat-hands", "Standing on a pat hand") in labels.skill_choices()
    assert labels.skill_choices("dealer-draws") == list(dealer_draws.skills.items())
    assert "pat-hands" not in labels.skill_codes("blackjack")


def test_a_game_adds_a_category_without_a_migration(dealer_draws, monkeypatch):
    """Grade.category is a string its game declares: a new one is stored and labelled."""
    from trainer.games.marking import Category

    monkeypatch.setitem(
        dealer_draws.categories, "peeked_at_hole", Category("Looked at the hole card")
    )
    assert Grade._meta.get_field("category").choices is None
    assert labels.category_label("peeked_at_hole") == "Looked at the hole card"


def test_question_skills_are_the_games(dealer_draws):
    stiff = {"n": 1, "kind": DRAW_KIND, "view": {"total": 12}}
    pat = {"n": 1, "kind": DRAW_KIND, "view": {"total": 19}}
    both = ("stiff-hands", "pat-hands")
    assert dealer_draws.question_skills(both, stiff) == ("stiff-hands",)
    assert dealer_draws.question_skills(both, pat) == ("pat-hands",)
    assert dealer_draws.question_skills(("stiff-hands",), pat) == ()
    assert labels.skill_kinds("pat-hands") == {DRAW_KIND}


# Graded, counted and read: the shell through the game.


@pytest.mark.django_db
def test_an_attempt_is_graded_with_the_games_categories_and_costs_no_money(trainee):
    # 18: drew on a pat hand; 12: stood on a stiff; 16 left unanswered.
    _, run = _graded(trainee, ["hit", "stand"])
    grades = list(Grade.objects.filter(run=run).order_by("item__position"))
    assert [(g.correct, g.category, g.money_diff) for g in grades] == [
        (False, DREW_ON_PAT, Decimal("0.00")),
        (False, STOOD_ON_STIFF, Decimal("0.00")),
        (False, ErrorCategory.UNANSWERED, Decimal("0.00")),
    ]
    assert (run.overpaid, run.underpaid) == (Decimal("0.00"), Decimal("0.00"))
    # The cost in the game's unit, points; vouched for by the ledger like every grade.
    assert [g.points_diff for g in grades] == [Decimal("1.00"), Decimal("1.00"), Decimal("0.00")]
    assert ledger_verify().ok
    summary = GradingRunSummary.objects.get(run=run)
    assert summary.categories == {DREW_ON_PAT: 1, STOOD_ON_STIFF: 1, "unanswered": 1}
    # Each question counts under the skill its game says it exercises, when shown.
    skills = skill_tallies(summary.facets)
    assert (skills["pat-hands"].questions, skills["pat-hands"].correct) == (1, 0)
    assert (skills["stiff-hands"].questions, skills["stiff-hands"].correct) == (1, 0)
    assert summary.not_reached == 1
    assert summary.chips == {}


@pytest.mark.django_db
def test_the_trainees_results_name_the_games_mistakes(trainee):
    attempt, _ = _graded(trainee, ["hit", "stand"])
    html = client_for(trainee).get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Drew on a pat hand" in html
    assert "Stood on a stiff" in html
    assert "Standing on a pat hand" in html
    for word in BLACKJACK_WORDS:
        assert word not in html


@pytest.mark.django_db
def test_the_pits_pages_name_the_games_mistakes(trainee, pit_boss):
    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    _, run = _graded(trainee, ["hit", "stand"])
    client = client_for(pit_boss)
    drew = Grade.objects.get(run=run, category=DREW_ON_PAT)
    pages = [
        reverse("pit:trainee", args=[trainee.pk]),
        reverse("pit:grade", args=[drew.pk]),
        reverse("pit:trainee_mistakes", args=[trainee.pk]),
        reverse("pit:queue"),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert "Drew on a pat hand" in html, url
        for word in BLACKJACK_WORDS:
            assert word not in html, (url, word)
    assert "Stood on a stiff" in client.get(pages[2]).content.decode()
    # The drill-down says what the mistake cost, in points, and no money.
    drill_down = client.get(pages[1]).content.decode()
    assert "<dt>Points</dt><dd>1</dd>" in drill_down
    assert "Overpaid" not in drill_down
    assert "Underpaid" not in drill_down


@pytest.mark.django_db
def test_a_points_grade_is_vouched_for_and_a_blackjack_grades_digest_is_as_before(trainee):
    """The points column is hashed only where a grade has points: blackjack's grades hash
    as they always did, and a changed points figure is a change the ledger sees."""
    from ledger.services.vouch import group_digest
    from trainer.services.vouched import GRADE_FIELDS, GRADES

    blackjack = graded_attempt(trainee=trainee, grades=[GradeSpec(), GradeSpec(kind="peek")])
    run = blackjack.grading_runs.get()
    rows = Grade.objects.filter(run=run).values_list(*GRADE_FIELDS)
    before = group_digest([list(row) for row in rows])
    assert dict(digests_of(GRADES, [run.pk])) == {str(run.pk): before}
    _, points_run = _graded(trainee, ["hit", "stand"])
    assert ledger_verify().ok
    Grade.objects.filter(run=points_run, category=DREW_ON_PAT).update(points_diff=Decimal(3))
    assert not ledger_verify().ok


@pytest.mark.django_db
def test_the_compliance_csv_names_the_games_mistakes(trainee):
    attempt, _ = _graded(trainee, ["hit", "stand"])
    day = timezone.localdate(attempt.submitted_at)
    out = io.StringIO()
    compliance_report_write_csv(start=day, end=day, out=out)
    rows = [row for row in csv.reader(io.StringIO(out.getvalue())) if row[0] == "decisions"]
    header, *decisions = rows
    category = header.index("category")
    money = header.index("money_diff")
    assert [row[category] for row in decisions] == [
        "Drew on a pat hand",
        "Stood on a stiff",
        "Not answered",
    ]
    assert {row[money] for row in decisions} == {"0.00"}
    # The kind and the answers in the game's words too.
    assert {row[header.index("kind")] for row in decisions} == {"Draw or stand"}
    given, expected = header.index("given_action"), header.index("expected_action")
    assert [(row[given], row[expected]) for row in decisions] == [
        ("Draw a card", "Stand"),
        ("Stand", "Draw a card"),
        ("", "Draw a card"),
    ]
    text = out.getvalue()
    for word in BLACKJACK_WORDS:
        assert word not in text


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the decisions are written by SQL on PostgreSQL only"
)
@pytest.mark.django_db
def test_postgresql_writes_the_games_decisions_as_python_would(trainee):
    attempt, _ = _graded(trainee, ["hit", "stand"])
    # A blackjack attempt beside it: each row in its own game's words.
    graded_attempt(trainee=trainee, grades=[GradeSpec(), GradeSpec(kind="peek")])
    day = timezone.localdate(attempt.submitted_at)
    in_python = "".join(csv_line(decision_row(row)) for row in report_decisions(start=day, end=day))
    in_sql = report_decisions_csv(start=day, end=day)
    assert in_sql is not None
    assert "".join(in_sql) == in_python
    assert "Drew on a pat hand" in in_python
    assert "Draw a card" in in_python


@pytest.mark.django_db
def test_a_category_the_game_does_not_review_waits_in_no_queue(trainee, pit_boss, monkeypatch):
    from trainer.games.marking import Category

    TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])
    _graded(trainee, ["hit", "stand"])
    dealer_draws = game_named("dealer-draws")
    queue = reverse("pit:queue")
    html = client_for(pit_boss).get(queue).content.decode()
    assert "Drew on a pat hand" in html
    assert "Stood on a stiff" in html
    monkeypatch.setitem(
        dealer_draws.categories, STOOD_ON_STIFF, Category("Stood on a stiff", review=False)
    )
    html = client_for(pit_boss).get(queue).content.decode()
    assert "Drew on a pat hand" in html
    assert "Stood on a stiff" not in html


def digests_of(spec, keys):
    return [(key, digest) for key, digest, _ in digests(spec, keys=[str(k) for k in keys])]
