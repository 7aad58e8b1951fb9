"""The question a class session's attempt may answer: the one its instructor has open.

A live session's attempt (mode class_session) is not asked its questions in order: the
instructor opens one at a time for the whole room (teaching.services.live_sessions), so
the question being asked is the session's open question, if this attempt has not answered
it yet. The answer path (trainer.services.attempts.decision_record) asks this instead of
the first unanswered question; everything after (the 409 for any other question, the
repeated answer returned, the ledger entry) is the same path as any attempt's.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F

from trainer.models import Attempt, LiveQuestion, LiveSession, LiveSessionState
from trainer.selectors.attempts import CurrentQuestion


def live_current_question(*, attempt: Attempt, lock: bool = False) -> CurrentQuestion | None:
    """The session's open question for this attempt's round; None when no question is open
    (waiting, closed, revealed, paused, ended) or this attempt has answered it.

    ``lock`` (inside the answer's transaction) holds the question's row until the answer
    commits: the close takes the same lock before it counts the room, so an answer is
    either in the count or refused, never recorded after the count was taken."""
    questions = (
        LiveQuestion.objects.select_for_update(of=("self",)) if lock else LiveQuestion.objects
    )
    live = (
        questions.filter(
            session_id=attempt.live_session_id,
            session__state=LiveSessionState.RUNNING,
            session__current=F("number"),
            opened_at__isnull=False,
            closed_at__isnull=True,
        )
        .only("position", "n")
        .first()
    )
    if live is None:
        return None
    item = attempt.items.filter(position=live.position).first()
    if item is None or item.decisions.filter(question=live.n).exists():
        return None
    key = next((k for k in item.answer_key if k["n"] == live.n), None)
    if key is None:
        return None
    return CurrentQuestion(item=item, key=dict(key), rounds=0)


def live_sessions_joinable(*, user: AbstractBaseUser) -> list[LiveSession]:
    """The sessions of the trainee's classes not yet ended (My training's "Join")."""
    return list(
        LiveSession.objects.filter(training_class__trainees=user.pk)
        .exclude(state=LiveSessionState.ENDED)
        .select_related("training_class", "drill")
        .defer("rounds")
    )
