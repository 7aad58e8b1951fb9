"""A Casino round read where a person reads it: the round's feedback, the results and the
pit's drill-down say points in the game's words, never blackjack's money sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from tests.audit.factories import TrainingClassFactory
from tests.graded import client_for
from trainer.games.casino.marking import POINT_WORDS
from trainer.models import Grade, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.drills import drill_create
from trainer.services.grading.execute import grading_run_execute
from trainer.services.scenarios import scenario_import

pytestmark = pytest.mark.django_db

CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
MONEY_WORDS = "winnings paid beside the bet"


def _document(name: str) -> dict:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    return next(row for row in rows if row["id"] == name)


@pytest.fixture
def building(trainee, pit_boss):
    """A Casino round answered: the play legal (right), every legal play of the ace as a
    trail only (a play missed), then a wrong reason."""
    TrainingClassFactory(name="Casino class", trainees=[trainee], instructors=[pit_boss])
    imported = scenario_import(documents=[_document("seed-building-nine")])
    drill = drill_create(title="Building nine", kind="fixed", user=pit_boss, scenarios=imported)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    answers = [
        {"legal": True},
        {"plays": ["trail"]},
        {"legal": False, "reason": "wrong_sum"},
    ]
    for n, answer in enumerate(answers, start=1):
        attempt_question_show(attempt=attempt, user=trainee)
        decision_record(attempt=attempt, user=trainee, position=1, question=n, answer=answer)
    return attempt


def test_the_round_feedback_says_what_a_point_is_never_money(building, trainee):
    html = client_for(trainee).get(reverse("train:feedback", args=[building.pk, 1]))
    text = html.content.decode()
    assert html.status_code == 200
    assert MONEY_WORDS not in text
    assert POINT_WORDS in text
    assert "Missed a legal play" in text


def test_the_results_and_the_pits_drill_down_say_points_never_money(building, trainee, pit_boss):
    page = client_for(trainee)
    attempt_submit(attempt=building, user=trainee)
    grading_run_execute(run_id=building.grading_runs.get().pk)
    results = page.get(reverse("train:results", args=[building.pk])).content.decode()
    assert "Points lost to mistakes: <strong>2 points</strong>" in results
    assert MONEY_WORDS not in results
    assert POINT_WORDS in results
    mistake = Grade.objects.get(item__attempt=building, correct=False, question=2)
    drill_down = client_for(pit_boss).get(reverse("pit:grade", args=[mistake.pk]))
    text = drill_down.content.decode()
    assert MONEY_WORDS not in text
    assert POINT_WORDS in text


def test_every_written_play_is_said_in_the_felts_one_voice():
    from trainer.games.casino import CASINO

    plays = {
        "plays": [
            "take 7h 3h+6s",
            "build 9 with 2d 6s",
            "build 6 on 2c+3h with Ah",
            "build 9 on 3h+6s",
            "trail",
        ]
    }
    assert CASINO.answer_words(plays).split("; ") == [
        "Raise the 5 build (2♣ 3♥) to 6, with A♥",
        "Add to the build of 9 (3♥ 6♠)",
        "Build 9 with 2♦ and 6♠",
        "Take 7♥ and the build (3♥ 6♠)",
        "Trail",
    ]
    assert CASINO.answer_words({"takes": ["7h", "3h+6s"]}) == "Takes 7♥ and the build (3♥ 6♠)"
    assert CASINO.answer_words({"plays": []}) == "No legal play"
    either = {"takes": [["Kd"], ["Ks"]]}
    assert CASINO.answer_words(either) == "Takes K♦, or takes K♠"


def test_the_feedback_writes_the_expected_plays_with_and(building, trainee):
    html = client_for(trainee).get(reverse("train:feedback", args=[building.pk, 1]))
    assert "Build 9 with 2♦ and 6♠; Trail" in html.content.decode()


def test_the_reports_decisions_carry_casinos_points_in_its_words(building, trainee):
    import csv
    import io

    from audit.services.reports.rows import compliance_report_write_flat

    attempt_submit(attempt=building, user=trainee)
    grading_run_execute(run_id=building.grading_runs.get().pk)
    building.refresh_from_db()
    day = building.submitted_at.date()
    out = io.StringIO()
    compliance_report_write_flat(start=day, end=day, out=out)
    header, *rows = list(csv.reader(io.StringIO(out.getvalue())))
    cell = {name: n for n, name in enumerate(header)}
    assert header[-1] == "points_lost"
    assert [(r[cell["money_diff"]], r[cell["points_lost"]]) for r in rows] == [
        ("0.00", "0"),
        ("0.00", "1"),
        ("0.00", "1"),
    ]
    assert rows[1][cell["expected_action"]] == "Build 9 with 2♦ and 6♠; Trail"
