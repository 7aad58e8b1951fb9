"""Presenting Scarne's Casino: the trainee's table page draws its table and its own answer
form for every kind of question (the form posts what the game reads), a refused answer
refills the form, the author's preview and the pit's pages show its table, and no page
shows an internal name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.graded import client_for
from trainer.games import game_named
from trainer.models import Decision, Mode
from trainer.services.attempts import attempt_start
from trainer.services.drills import drill_create
from trainer.services.scenarios import scenario_import

pytestmark = pytest.mark.django_db

CASINO = game_named("casino")
CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
INTERNAL = re.compile(
    r"non_dealer|is_legal|may_take|legal_plays|score_hand|rule_on|big_casino|loss_of_game"
)


def _documents(*ids: str) -> list[dict]:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    by_id = {row["id"]: row for row in rows}
    return [by_id[name] for name in ids]


def _words_only(html: str) -> str:
    """The page without its markup's attribute values (the form's field names are not read)."""
    return re.sub(r'(name|value|for|id|href|class|data-[a-z-]+)="[^"]*"', "", html)


@pytest.fixture
def drill(pit_boss):
    scenarios = scenario_import(
        documents=_documents(
            "seed-court-two-kings",
            "raise-with-a-loose-six",
            "score-last-take",
            "rulings",
        )
    )
    return drill_create(
        title="Casino at the table", kind="fixed", user=pit_boss, scenarios=scenarios
    )


def _table(client, attempt):
    return client.get(reverse("train:table", args=[attempt.pk])).content.decode()


def _answer(client, attempt, position, question, post):
    return client.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": str(position), "question": str(question), **post},
    )


def test_each_kind_has_its_answer_form_on_the_table_page(trainee, drill):
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    client = client_for(trainee)

    html = _table(client, attempt)
    assert 'data-game="casino"' in html
    assert 'name="casino" value="verdict"' in html
    assert "A court card takes one card of its rank" in html  # a reason, in words
    assert INTERNAL.search(_words_only(html)) is None
    assert (
        _answer(
            client,
            attempt,
            1,
            1,
            {"casino": "verdict", "legal": "illegal", "reason": "court_takes_one"},
        ).status_code
        == 302
    )

    html = _table(client, attempt)
    assert 'name="casino" value="takes"' in html
    assert 'name="takes" value="Ks"' in html
    assert "K♠" in html
    assert _answer(client, attempt, 1, 2, {"casino": "takes", "takes": ["Kd"]}).status_code == 302
    _table(client, attempt)
    assert (
        _answer(
            client,
            attempt,
            1,
            3,
            {"casino": "verdict", "legal": "illegal", "reason": "court_in_build"},
        ).status_code
        == 302
    )

    html = _table(client, attempt)
    assert 'name="casino" value="plays"' in html
    assert "One play a line" in html
    refused = _answer(
        client, attempt, 2, 1, {"casino": "plays", "plays": "build 6 on 2c+3h\nsteal 6c"}
    )
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "a play starts with take, build or trail, not &#x27;steal&#x27;" in text
    assert "steal 6c" in text  # the form refilled
    answered = _answer(
        client,
        attempt,
        2,
        1,
        {"casino": "plays", "plays": "build 6 on 2c+3h\nbuild 6 on 3h+2c with 6c\ntrail"},
    )
    assert answered.status_code == 302

    html = _table(client, attempt)
    assert 'name="casino" value="score"' in html
    assert 'name="dealer_sweeps"' not in html  # Scarne's table scores no sweeps
    assert "Little casino" in html
    assert INTERNAL.search(_words_only(html)) is None
    score = {
        "non_dealer_cards": "0",
        "non_dealer_spades": "1",
        "non_dealer_big_casino": "0",
        "non_dealer_little_casino": "1",
        "non_dealer_aces": "2",
        "dealer_cards": "3",
        "dealer_spades": "0",
        "dealer_big_casino": "2",
        "dealer_little_casino": "0",
        "dealer_aces": "2",
        "winner": "dealer",
    }
    assert _answer(client, attempt, 3, 1, {"casino": "score", **score}).status_code == 302

    html = _table(client, attempt)
    assert 'name="casino" value="ruling"' in html
    assert "Loss of game" in html
    assert "The dealer made a build without a card in hand to take it. Rule on this." in html
    assert (
        _answer(client, attempt, 4, 1, {"casino": "ruling", "ruling": "loss_of_game"}).status_code
        == 302
    )

    given = [
        d.answer
        for d in Decision.objects.filter(item__attempt=attempt).order_by(
            "item__position", "question"
        )
    ]
    assert given[:5] == [
        {"legal": False, "reason": "court_takes_one"},
        {"takes": ["Kd"]},
        {"legal": False, "reason": "court_in_build"},
        {"plays": ["build 6 on 2c+3h", "build 6 on 2c+3h with 6c", "trail"]},
        {
            "non_dealer": {"cards": 0, "spades": 1, "big_casino": 0, "little_casino": 1, "aces": 2},
            "dealer": {"cards": 3, "spades": 0, "big_casino": 2, "little_casino": 0, "aces": 2},
            "winner": "dealer",
        },
    ]
    feedback = client.get(reverse("train:feedback", args=[attempt.pk, 3])).content.decode()
    assert "Non-dealer: cards 0, spades 1" in feedback
    assert INTERNAL.search(_words_only(feedback)) is None


def test_the_authors_preview_and_the_api_question_show_casinos_table(pit_boss, trainee, drill, api):
    page = client_for(pit_boss).get(reverse("teach:drill", args=[drill.pk])).content.decode()
    assert 'data-game="casino"' in page
    assert "Is this play legal?" in page
    assert INTERNAL.search(_words_only(page)) is None
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    question = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    assert question["kind"] == "is_legal"
    assert [item["key"] for item in question["view"]["table"]] == ["Ks", "Kd", "5c"]
    assert question["view"]["play"]["take"] == ["Ks", "Kd"]
    assert "expected" not in json.dumps(question)


def test_casino_is_sat_in_speed_mode_without_feedback(pit_boss, trainee, drill, api):
    from teaching.services.assignments import assignment_create
    from tests.audit.factories import TrainingClassFactory
    from trainer.models import Grade
    from trainer.services.attempts import attempt_submit
    from trainer.services.grading.execute import grading_run_execute

    mode = Mode.SPEED
    TrainingClassFactory(name="Casino speed", trainees=[trainee], instructors=[pit_boss])
    assignment = assignment_create(drill=drill, mode=mode, assigned_by=pit_boss, trainee=trainee)
    attempt = attempt_start(trainee=trainee, drill=drill, mode=mode, assignment=assignment)
    url = f"/api/attempts/{attempt.pk}"
    question = api.get(f"{url}/question").json()["question"]
    answer = {"legal": False, "reason": "court_takes_one"}
    body = {"position": question["position"], "question": question["n"], "answer": answer}
    response = api.post(f"{url}/answers", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["feedback"] is None
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=attempt.grading_runs.get().pk)
    assert run.status == "graded"
    grades = Grade.objects.filter(run=run).order_by("item__position", "question")
    assert (grades[0].correct, grades[1].category) == (True, "unanswered")
