"""Reads of live class sessions: the driver's and the trainee's views, the cheap status
each page polls, and the session's summary.

A session is seen by those who may drive it (its class's instructors, administrators);
anyone else is told it does not exist. A trainee reads only their own seat (their
attempt). The status reads are pinned in query count (tests/teaching/test_live_pages.py):
a room of forty polls them every second.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q

from core.errors import NotFoundError
from core.roles import Role, has_role
from trainer.games import Game, game_named
from trainer.labels import category_label
from trainer.models import (
    Attempt,
    Decision,
    LiveQuestion,
    LiveQuestionState,
    LiveSession,
    Mode,
    RuleProfileVersion,
)


def _drivable(user: AbstractBaseUser) -> Q:
    if has_role(user, Role.ADMIN):
        return Q()
    if has_role(user, Role.PIT_BOSS):
        return Q(training_class__instructors=user.pk)
    return Q(pk__in=[])


def live_session_for_driver(*, session_id: int, user: AbstractBaseUser) -> LiveSession:
    """The session, for one who may drive it; anyone else: 404, as for a missing one."""
    session = (
        LiveSession.objects.filter(_drivable(user), pk=session_id)
        .select_related("training_class", "drill", "instructor")
        .first()
    )
    if session is None:
        raise NotFoundError("no such live session")
    return session


def live_sessions_for_driver(*, user: AbstractBaseUser) -> list[LiveSession]:
    """The sessions this instructor may drive, the running ones first, newest first."""
    return list(
        LiveSession.objects.filter(_drivable(user))
        .select_related("training_class", "drill")
        .defer("rounds")
        .order_by("ended_at", "-opened_at")
        .distinct()[:50]
    )


def seat_for_trainee(*, attempt_id: int, user: AbstractBaseUser) -> Attempt:
    """The trainee's own attempt in a live session; anything else: 404."""
    attempt = (
        Attempt.objects.filter(
            pk=attempt_id, trainee_id=user.pk, mode=Mode.CLASS_SESSION, live_session__isnull=False
        )
        .select_related("live_session", "drill")
        .first()
    )
    if attempt is None:
        raise NotFoundError("no such class session seat")
    return attempt


def seat_status(*, attempt_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """What a trainee's page polls: the session's version and state, in one query."""
    row = (
        Attempt.objects.filter(pk=attempt_id, trainee_id=user.pk, live_session__isnull=False)
        .values("live_session__version", "live_session__state")
        .first()
    )
    if row is None:
        raise NotFoundError("no such class session seat")
    return {"version": row["live_session__version"], "state": row["live_session__state"]}


def driver_status(*, session: LiveSession) -> dict[str, Any]:
    """What the instructor's page polls: who joined and how many answered the question on
    the table (names of who joined, never of who answered what)."""
    question = session.questions.only("position", "n", "number").get(number=session.current)
    joined = list(
        session.attempts.order_by("started_at").values_list(
            "trainee__first_name", "trainee__last_name", "trainee__username"
        )
    )
    answered = Decision.objects.filter(
        item__attempt__live_session=session, item__position=question.position, question=question.n
    ).count()
    return {
        "version": session.version,
        "state": session.state,
        "joined": len(joined),
        "names": [person_name(*names) for names in joined],
        "answered": answered,
    }


def person_name(first: str, last: str, username: str) -> str:
    return " ".join(part for part in (first, last) if part) or username


def question_key(session: LiveSession, question: LiveQuestion) -> dict[str, Any]:
    """The answer key's question (server side only: never sent before the reveal)."""
    one = session.rounds[question.position - 1]
    return dict(next(k for k in one["answer_key"] if k["n"] == question.n))


@dataclass
class TableShown:
    """The game's table page at a question, as the trainees see it (its public question)."""

    context: dict[str, Any]
    question: dict[str, Any]
    key: dict[str, Any]
    document: dict[str, Any]
    game: Game
    placard: str = ""
    house_rules: list[str] = field(default_factory=list)


def table_shown(session: LiveSession, question: LiveQuestion, *, posted: Any = None) -> TableShown:
    """The table and answer form of a session's question, as a drill's table page has them."""
    game = game_named(session.drill.game)
    one = session.rounds[question.position - 1]
    key = question_key(session, question)
    document = one["document"] or {}
    public: dict[str, Any] = {
        "position": question.position,
        "n": question.n,
        "time_limit_seconds": None,
        "kind": str(key["kind"]),
        "prompt": str(key.get("prompt", "")),
    }
    public.update(game.public_question(key, answer_key=one["answer_key"], document=document))
    version = RuleProfileVersion.objects.select_related("profile").get(pk=one["profile_version"])
    context = game.table_page(public, document, parameters=version.parameters, posted=posted)
    placard = version.placard
    if context.get("work_rule"):
        placard = f"{placard} · {context['work_rule']}"
    context = {**context, "profile": version, "house_rules": version.house_rules}
    return TableShown(context, public, key, document, game, placard, version.house_rules)


@dataclass
class Reveal:
    right_answer: str
    rule: str
    right: int
    answered: int
    mistakes: list[tuple[str, int]]
    answers: list[tuple[str, int, bool]]


def reveal_of(session: LiveSession, question: LiveQuestion, shown: TableShown) -> Reveal | None:
    """The room's count after the close, and the right answer and rule once revealed."""
    if question.state in (LiveQuestionState.WAITING, LiveQuestionState.OPEN):
        return None
    tally = question.tally or {}
    revealed = question.state == LiveQuestionState.REVEALED
    game = shown.game
    return Reveal(
        right_answer=game.answer_words(shown.key.get("expected")) if revealed else "",
        rule=game.rule_words(str(shown.key.get("rule", ""))) if revealed else "",
        right=int(tally.get("right", 0)),
        answered=int(tally.get("answered", 0)),
        mistakes=[
            (category_label(code, game=session.drill.game), count)
            for code, count in tally.get("mistakes", {}).items()
        ],
        answers=[(words, count, ok) for words, count, ok in tally.get("answers", [])],
    )


def answers_by_name(session: LiveSession, question: LiveQuestion) -> list[tuple[str, str]]:
    """Who answered what: only when the instructor has chosen to show names."""
    game = game_named(session.drill.game)
    rows = Decision.objects.filter(
        item__attempt__live_session=session, item__position=question.position, question=question.n
    ).values_list(
        "item__attempt__trainee__first_name",
        "item__attempt__trainee__last_name",
        "item__attempt__trainee__username",
        "answer",
    )
    return sorted((person_name(f, la, u), game.answer_words(a)) for f, la, u, a in rows)


def own_answer(attempt: Attempt, question: LiveQuestion) -> Decision | None:
    return Decision.objects.filter(
        item__attempt=attempt, item__position=question.position, question=question.n
    ).first()


@dataclass
class SummaryRow:
    number: int
    position: int
    question: str
    right_answer: str
    answered: int
    right: int
    answers: list[tuple[str, int, bool]]
    mistakes: list[tuple[str, int]]
    opened_at: Any
    closed_at: Any


def live_summary(session: LiveSession) -> tuple[list[SummaryRow], list[tuple[str, int]]]:
    """The session's questions with the room's counts per answer, and who attended (with
    how many questions each answered)."""
    game = game_named(session.drill.game)
    rows = []
    for question in session.questions.filter(opened_at__isnull=False).order_by("number"):
        key = question_key(session, question)
        document = session.rounds[question.position - 1]["document"]
        tally = question.tally or {}
        rows.append(
            SummaryRow(
                number=question.number,
                position=question.position,
                question=game.question_words(key, document, note=False),
                right_answer=game.answer_words(key.get("expected")),
                answered=int(tally.get("answered", 0)),
                right=int(tally.get("right", 0)),
                answers=[(w, c, ok) for w, c, ok in tally.get("answers", [])],
                mistakes=[
                    (category_label(code, game=session.drill.game), count)
                    for code, count in tally.get("mistakes", {}).items()
                ],
                opened_at=question.opened_at,
                closed_at=question.closed_at,
            )
        )
    answered = Counter(
        Decision.objects.filter(item__attempt__live_session=session).values_list(
            "item__attempt_id", flat=True
        )
    )
    people = [
        (person_name(a.trainee.first_name, a.trainee.last_name, a.trainee.username), answered[a.pk])
        for a in session.attempts.select_related("trainee").order_by("started_at")
    ]
    return rows, people
