"""The game seam: attempts and grading deal and mark a round only through its game. A test
game, never shipped (tests/seam_game), runs an attempt from the deal to the grade."""

from __future__ import annotations

import pytest

from core.errors import ProductError
from tests.factories import profile_version
from tests.trainer.factories import DrillFactory, ScenarioFactory
from trainer.games import DocumentError, game_named
from trainer.models import DrillScenario, ErrorCategory, Grade, Mode
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.services.grading.execute import grading_run_execute

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer_draws():
    """The test settings load the game (tests/seam_game)."""
    return game_named("dealer-draws")


def _drill_of(totals):
    drill = DrillFactory(game="dealer-draws")
    for position, total in enumerate(totals, start=1):
        scenario = ScenarioFactory(
            game="dealer-draws",
            document={"total": total},
            # A round is dealt under a rule profile version; this game reads none of it.
            profile_version=profile_version("casino-shoe"),
        )
        DrillScenario.objects.create(drill=drill, scenario=scenario, position=position)
    return drill


def test_an_attempt_of_another_game_is_dealt_answered_and_graded_through_it(dealer_draws, trainee):
    attempt = attempt_start(trainee=trainee, drill=_drill_of([12, 18, 16]), mode=Mode.PRACTICE)
    assert [item.answer_key[0]["expected"] for item in attempt.items.order_by("position")] == [
        {"answer": "hit"},
        {"answer": "stand"},
        {"answer": "hit"},
    ]
    for position, word in ((1, "hit"), (2, "hit")):
        question = attempt_question_show(attempt=attempt, user=trainee)
        assert question is not None
        assert question["prompt"].startswith("Dealer has")
        decision_record(
            attempt=attempt, user=trainee, position=position, question=1, answer={"answer": word}
        )
    attempt_submit(attempt=attempt, user=trainee)
    run = grading_run_execute(run_id=attempt.grading_runs.get().pk)

    assert (run.status, run.questions, run.correct) == ("graded", 3, 1)
    grades = Grade.objects.filter(run=run).order_by("item__position")
    assert [(g.correct, g.category) for g in grades] == [
        (True, ""),
        # Its own category: 18 is a pat hand, and the trainee drew.
        (False, "drew_on_pat"),
        (False, ErrorCategory.UNANSWERED),
    ]


def test_its_own_answer_rules_apply(dealer_draws, trainee):
    attempt = attempt_start(trainee=trainee, drill=_drill_of([12]), mode=Mode.PRACTICE)
    attempt_question_show(attempt=attempt, user=trainee)
    with pytest.raises(ProductError, match="answer must be hit or stand"):
        decision_record(
            attempt=attempt, user=trainee, position=1, question=1, answer={"answer": "push"}
        )


def test_a_round_its_game_cannot_play_is_refused_when_dealt(dealer_draws, trainee):
    with pytest.raises(ProductError, match="round 2 cannot be played: total must be"):
        attempt_start(trainee=trainee, drill=_drill_of([12, 40]), mode=Mode.PRACTICE)


def test_a_drill_of_an_unknown_game_is_refused(trainee):
    with pytest.raises(DocumentError, match="no game called 'poker'"):
        attempt_start(trainee=trainee, drill=DrillFactory(game="poker"), mode=Mode.PRACTICE)


def test_a_new_drill_is_blackjack_unless_it_names_its_game():
    # The row's default; reading a record never assumes a game (test_game_seam_shell).
    assert DrillFactory.build().game == "blackjack"


def test_the_page_answers_a_drill_of_an_unknown_game_with_a_400_naming_it(trainee):
    from django.urls import reverse

    from tests.graded import client_for

    drill = DrillFactory(game="poker")
    response = client_for(trainee).post(reverse("train:start"), {"drill": drill.pk})
    assert response.status_code == 400
    assert "no game called" in response.content.decode()


def test_play_scenario_settles_another_games_rounds_through_it(tmp_path, capsys):
    from django.core.management import call_command

    rounds = tmp_path / "rounds.jsonl"
    rounds.write_text('{"id": "a", "total": 12}\n')
    call_command("play_scenario", str(rounds), "--game", "dealer-draws")
    line = capsys.readouterr().out.strip()
    assert '"id":"a"' in line
    assert '"expected":{"answer":"hit"}' in line


def test_play_scenario_names_a_game_the_product_does_not_know(tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="no game called 'poker'"):
        call_command("play_scenario", "-", "--game", "poker")
