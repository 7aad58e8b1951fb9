"""The presenting and reading facets: a test game (tests/seam_game, "dealer-draws") is dealt
on the trainee's table page in its own table and buttons, answered by the page's form and
by the API's JSON alike (one grammar: the game's), and its results read in its own words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import profile_version
from tests.graded import client_for
from tests.seam_game.marking import DRAW_KIND
from tests.trainer.factories import DrillFactory, ScenarioFactory
from trainer.games import game_named
from trainer.models import Decision, DrillScenario, Mode
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db

# What blackjack's table and form would show, never the test game's. (The house rules the
# page lists are still the borrowed blackjack profile's: the authoring facet's to give it one.)
BLACKJACK_WORDS = ("Dealer's draw", "Take half", "Hit or stand", "dealer_play", "data-rack")


def _attempt(trainee, totals):
    drill = DrillFactory(game="dealer-draws")
    for position, total in enumerate(totals, start=1):
        scenario = ScenarioFactory(
            game="dealer-draws",
            document={"total": total},
            profile_version=profile_version("casino-shoe"),
        )
        DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def test_the_test_game_presents_its_own_kind_table_and_buttons():
    game = game_named("dealer-draws")
    question = game.answer_key({"total": 12})[0]
    assert question["kind"] == DRAW_KIND
    assert game.kind_words(DRAW_KIND) == "Draw or stand"
    public = game.public_question(question, answer_key=[question], document={"total": 12})
    assert "expected" not in public
    assert "rule" not in public
    assert public["answers"] == ["hit", "stand"]
    page = game.table_page(question, {"total": 12}, parameters={}, posted=None)
    assert [b["label"] for b in page["buttons"]] == ["Draw a card", "Stand"]
    assert game.table_template == "games/dealer-draws/_table.html"


def test_a_test_game_round_is_answered_on_the_page_and_by_the_api(trainee, api):
    attempt = _attempt(trainee, [12, 18])
    client = client_for(trainee)
    table = reverse("train:table", args=[attempt.pk])

    html = client.get(table).content.decode()
    assert 'data-game="dealer-draws"' in html
    assert "The dealer's total: <strong>12</strong>" in html
    assert "The dealer holds 12: draw or stand?" in html
    assert 'name="answer" value="hit"' in html
    assert "Draw a card" in html
    for word in BLACKJACK_WORDS:
        assert word not in html, word

    # By the page: the form's button, read by the game.
    response = client.post(
        reverse("train:answer", args=[attempt.pk]),
        {"position": "1", "question": "1", "answer": "hit"},
    )
    assert response.status_code == 302
    # The first round's feedback, in the game's words.
    feedback = client.get(reverse("train:feedback", args=[attempt.pk, 1])).content.decode()
    assert "Draw a card" in feedback

    # By the API: the public question is the game's, and its JSON answer the same grammar.
    body = api.get(f"/api/attempts/{attempt.pk}/question").json()["question"]
    assert (body["kind"], body["answers"], body["view"]) == (
        DRAW_KIND,
        ["hit", "stand"],
        {"total": 18},
    )
    assert "expected" not in body
    refused = api.post(
        f"/api/attempts/{attempt.pk}/answers",
        {"position": 2, "question": 1, "answer": {"answer": "push"}},
        format="json",
    )
    assert refused.status_code == 400
    assert "hit or stand" in refused.content.decode()
    answered = api.post(
        f"/api/attempts/{attempt.pk}/answers",
        {"position": 2, "question": 1, "answer": {"answer": "stand"}},
        format="json",
    )
    assert answered.status_code in (200, 201), answered.content
    assert [d.answer for d in Decision.objects.filter(item__attempt=attempt).order_by("item")] == [
        {"answer": "hit"},
        {"answer": "stand"},
    ]
    shown = Decision.objects.get(item__attempt=attempt, item__position=2).shown
    assert shown == {"total": 18}

    # The results, in the game's words.
    client.post(reverse("train:submit", args=[attempt.pk]), {"confirm": "yes"})
    results = client.get(reverse("train:results", args=[attempt.pk])).content.decode()
    assert "Draw a card" in results
    assert "Stand" in results
    for word in ("Dealer's draw", "Take half", "Pay "):
        assert word not in results, word
