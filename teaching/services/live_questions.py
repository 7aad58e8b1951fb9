"""A live session's questions, driven by its instructor: open, close, reveal, next, pause,
resume, show names, end (teaching.services.live_sessions opens and joins sessions).

Each question goes waiting → open → closed → revealed, one at a time; `next` moves to the
following question (from any state but open: an unopened question may be skipped). A
pause is taken between questions (with none open); answers wait for the resume. Every
service checks the driver (`may_drive`), locks the session, writes its moment, raises the
session's version and appends its ledger entry in one transaction.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.errors import ConflictError
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.services.live_sessions import may_drive, rounds_add
from trainer.games import game_named
from trainer.models import (
    AttemptItem,
    AttemptStatus,
    Decision,
    LiveQuestion,
    LiveQuestionState,
    LiveSession,
    LiveSessionState,
)
from trainer.services.attempts import attempt_submit


def _locked(session: LiveSession, user: AbstractBaseUser) -> tuple[LiveSession, LiveQuestion]:
    """The session locked for the change (its driver checked), with its current question."""
    may_drive(user, session.training_class)
    locked = LiveSession.objects.select_for_update().get(pk=session.pk)
    if locked.state == LiveSessionState.ENDED:
        raise ConflictError("this class session has ended", code="session_ended")
    # The question's row too: an answer holds it while it is recorded (trainer.selectors
    # .live), so the close counts every answer recorded before it and none comes after.
    return locked, locked.questions.select_for_update().get(number=locked.current)


def _record(
    session: LiveSession, question: LiveQuestion, user: AbstractBaseUser, event: Event, **more: Any
) -> None:
    session.version += 1
    session.save(update_fields=["version", "current", "state", "paused_at", "show_names"])
    ledger_append(
        event=event,
        subject_type=Subject.LIVE_SESSION,
        subject_id=session.pk,
        payload={"question": question.number, "round": question.position, "n": question.n, **more},
        actor=user,
    )


def live_session_question_open(*, session: LiveSession, user: AbstractBaseUser) -> LiveQuestion:
    """The current question open to answers; its clock (every answer's time) starts now."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if locked.state == LiveSessionState.PAUSED:
            raise ConflictError("the session is paused: carry on first", code="paused")
        if question.state != LiveQuestionState.WAITING:
            raise ConflictError(
                f"question {question.number} has already been opened", code="already_opened"
            )
        now = timezone.now()
        question.opened_at = now
        question.save(update_fields=["opened_at"])
        attempts = list(locked.attempts.filter(status=AttemptStatus.IN_PROGRESS))
        rounds_add(session=locked, attempts=attempts, position=question.position)
        _mark_shown(locked, question)
        _record(locked, question, user, Event.LIVE_QUESTION_OPENED, opened_at=now)
    return question


def _mark_shown(session: LiveSession, question: LiveQuestion) -> None:
    """Every attempt's round records the question shown at the moment it opened, as the
    answer path times an answer from (and the grading counts it asked)."""
    items = list(
        AttemptItem.objects.filter(
            attempt__live_session=session,
            attempt__status=AttemptStatus.IN_PROGRESS,
            position=question.position,
        )
    )
    assert question.opened_at is not None
    for item in items:
        item.questions_shown = {
            **item.questions_shown,
            str(question.n): question.opened_at.isoformat(),
        }
        item.shown_at = item.shown_at or question.opened_at
    AttemptItem.objects.bulk_update(items, ["questions_shown", "shown_at"])


def live_session_close(*, session: LiveSession, user: AbstractBaseUser) -> LiveQuestion:
    """No more answers to the open question; the room's answers are counted."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if question.state != LiveQuestionState.OPEN:
            raise ConflictError(
                f"question {question.number} is not open for answers", code="not_open"
            )
        question_close_now(session=locked, question=question)
        _record(locked, question, user, Event.LIVE_QUESTION_CLOSED, tally=question.tally)
    return question


def question_close_now(*, session: LiveSession, question: LiveQuestion | None = None) -> None:
    """Close the current question if it is open, counting the room's answers to it."""
    question = question or session.questions.select_for_update().get(number=session.current)
    if question.state != LiveQuestionState.OPEN:
        return
    question.closed_at = timezone.now()
    question.tally = _tally(session, question)
    question.save(update_fields=["closed_at", "tally"])


def _tally(session: LiveSession, question: LiveQuestion) -> dict[str, Any]:
    """How the room answered: right, each kind of mistake, each answer given; no names."""
    game = game_named(session.drill.game)
    key = next(
        k for k in session.rounds[question.position - 1]["answer_key"] if k["n"] == question.n
    )
    answers = Decision.objects.filter(
        item__attempt__live_session=session, item__position=question.position, question=question.n
    ).values_list("answer", flat=True)
    right = 0
    mistakes: Counter[str] = Counter()
    spread: Counter[tuple[str, bool]] = Counter()
    for answer in answers:
        verdict = game.compare(key, answer)
        if verdict.right:
            right += 1
        elif verdict.category:
            mistakes[verdict.category] += 1
        spread[(game.answer_words(answer), verdict.right)] += 1
    return {
        "answered": sum(spread.values()),
        "right": right,
        "mistakes": dict(mistakes.most_common()),
        "answers": [[words, count, ok] for (words, ok), count in spread.most_common()],
    }


def live_session_reveal(*, session: LiveSession, user: AbstractBaseUser) -> LiveQuestion:
    """The right answer and its rule shown to the room (and each trainee's beside it)."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if question.state != LiveQuestionState.CLOSED:
            raise ConflictError("close the question before its answer is shown", code="not_closed")
        question.revealed_at = timezone.now()
        question.save(update_fields=["revealed_at"])
        _record(locked, question, user, Event.LIVE_QUESTION_REVEALED)
    return question


def live_session_next(*, session: LiveSession, user: AbstractBaseUser) -> LiveQuestion:
    """The following question on the table, waiting to be opened."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if question.state == LiveQuestionState.OPEN:
            raise ConflictError("close the open question first", code="question_open")
        following = locked.questions.filter(number=locked.current + 1).first()
        if following is None:
            raise ConflictError("that was the last question: end the session", code="last")
        locked.current = following.number
        _record(
            locked, following, user, Event.LIVE_SESSION_NEXT, skipped=question.opened_at is None
        )
    return following


def live_session_pause(*, session: LiveSession, user: AbstractBaseUser) -> LiveSession:
    """A break: the trainees' screens say so; taken with no question open."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if locked.state == LiveSessionState.PAUSED:
            return locked
        if question.state == LiveQuestionState.OPEN:
            raise ConflictError("close the open question before a pause", code="question_open")
        locked.state = LiveSessionState.PAUSED
        locked.paused_at = timezone.now()
        _record(locked, question, user, Event.LIVE_SESSION_PAUSED)
    return locked


def live_session_resume(*, session: LiveSession, user: AbstractBaseUser) -> LiveSession:
    """The session carries on after a pause."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        if locked.state != LiveSessionState.PAUSED:
            return locked
        locked.state = LiveSessionState.RUNNING
        locked.paused_at = None
        _record(locked, question, user, Event.LIVE_SESSION_RESUMED)
    return locked


def live_session_names(*, session: LiveSession, user: AbstractBaseUser, shown: bool) -> LiveSession:
    """Who answered what shown on the instructor's screen, or hidden again."""
    with transaction.atomic():
        locked, question = _locked(session, user)
        locked.show_names = shown
        _record(locked, question, user, Event.LIVE_SESSION_NAMES_SHOWN, shown=shown)
    return locked


def live_session_end(*, session: LiveSession, user: AbstractBaseUser) -> LiveSession:
    """The session ended: an open question closed, every attempt submitted for grading."""
    may_drive(user, session.training_class)
    with transaction.atomic():
        locked = LiveSession.objects.select_for_update().get(pk=session.pk)
        if locked.state == LiveSessionState.ENDED:
            return locked
        question_close_now(session=locked)
        locked.state = LiveSessionState.ENDED
        locked.ended_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["state", "ended_at", "version"])
        attempts = list(
            locked.attempts.filter(status=AttemptStatus.IN_PROGRESS).select_related("trainee")
        )
        for attempt in attempts:
            attempt_submit(attempt=attempt, user=attempt.trainee)
        ledger_append(
            event=Event.LIVE_SESSION_ENDED,
            subject_type=Subject.LIVE_SESSION,
            subject_id=locked.pk,
            payload={"attempts": [a.pk for a in attempts], "question": locked.current},
            actor=user,
        )
    return locked
