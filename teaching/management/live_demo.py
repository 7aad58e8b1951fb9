"""setup_demo's finished class session (issue #27)."""

from __future__ import annotations

import random
from typing import Any

from teaching.services.live_questions import (
    live_session_close,
    live_session_end,
    live_session_next,
    live_session_question_open,
    live_session_reveal,
)
from teaching.services.live_sessions import live_session_join, live_session_open
from trainer.games import game_named
from trainer.models import Drill, LiveSession
from trainer.services.attempts import decision_record

# The finished class session: this many questions of the practice drill, one answered wrong.
LIVE_DEMO_QUESTIONS = 4
LIVE_DEMO_WRONG = 3


def live_demo(*, boss: Any, trainee: Any, training_class: Any, drill: Drill) -> None:
    """One finished class session of the demo class (issue #27): its first questions opened,
    answered by the demo trainee (the third one wrong), closed and shown, then ended, so
    its summary and the trainee's Class session attempt are there to read. Once only."""
    if LiveSession.objects.filter(training_class=training_class).exists():
        return
    session = live_session_open(user=boss, training_class=training_class, drill=drill)
    attempt = live_session_join(user=trainee, session=session)
    game = game_named(drill.game)
    rng = random.Random(27)  # noqa: S311 - demo data, not a secret
    for number in range(1, LIVE_DEMO_QUESTIONS + 1):
        question = live_session_question_open(session=session, user=boss)
        one = session.rounds[question.position - 1]
        key = next(k for k in one["answer_key"] if k["n"] == question.n)
        answer = game.demo_answer(key, rng=rng, right=number != LIVE_DEMO_WRONG)
        decision_record(
            attempt=attempt,
            user=trainee,
            position=question.position,
            question=question.n,
            answer=answer,
        )
        live_session_close(session=session, user=boss)
        live_session_reveal(session=session, user=boss)
        if number < LIVE_DEMO_QUESTIONS:
            live_session_next(session=session, user=boss)
    live_session_end(session=session, user=boss)
