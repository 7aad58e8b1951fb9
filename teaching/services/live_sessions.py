"""Live class sessions: an instructor leads a class through a drill's rounds at once.

The instructor opens a session for a class they teach (an administrator for any class)
from a drill or a chosen list of scenarios; its rounds are dealt once for the whole room
and every question of them is a `LiveQuestion`, waiting until the instructor opens it
(`teaching.services.live_questions`: open, close, reveal, next, pause, end). A trainee
joins from My training, or by the session's code on the projector; either way only a
trainee of the session's class joins (the code finds the session, it admits no one), and a
trainee is in one live session at a time. Joining makes the trainee's attempt (mode
class_session) with the round on the table; a late joiner comes in at the current
question, and a trainee who joins again (a reload, another tablet) is given the same
attempt. Each answer goes through the one answer path (trainer.services.attempts
.decision_record), which asks the session which question is open. Ending the session
submits every attempt for grading by the workers, like any attempt's.

Every change is one transaction with its ledger entry and raises the session's `version`,
which the pages poll (docs/architecture.md, *Live class sessions*).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from core.roles import Role, has_role
from core.rows import insert_many
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from trainer.games import DocumentError, game_named
from trainer.models import (
    Attempt,
    AttemptItem,
    AttemptStatus,
    Drill,
    DrillKind,
    DrillPurpose,
    LiveQuestion,
    LiveSession,
    LiveSessionState,
    Mode,
    RuleProfile,
    Scenario,
    TrainingClass,
)
from trainer.selectors.drill_rounds import generate_documents
from trainer.services.drills import drill_create

# No 0/O, 1/I/L or U: read off a projector and typed on a tablet without a doubt.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
CODE_LENGTH = 6


def code_normal(code: str) -> str:
    """A code as typed (any case, spaces or a dash) as it is stored."""
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def may_drive(user: AbstractBaseUser, training_class: TrainingClass) -> None:
    """An administrator, or a pit boss who teaches the class; anyone else is refused."""
    if has_role(user, Role.ADMIN):
        return
    if has_role(user, Role.PIT_BOSS) and training_class.instructors.filter(pk=user.pk).exists():
        return
    raise ForbiddenError(f"only an instructor of {training_class.name} leads its live sessions")


def _deal(drill: Drill, seed: int) -> list[dict[str, Any]]:
    """The drill's rounds with their answer keys, as every attempt of the session holds them."""
    if drill.purpose == DrillPurpose.EXAM:
        raise ProductError(
            "a sealed exam is never played in front of the room: choose a practice drill",
            field="drill",
        )
    if drill.kind == DrillKind.GENERATED:
        if drill.profile_version_id is None:
            raise ProductError("this drill has no table to deal from", field="drill")
        dealt: list[tuple[dict[str, Any], int, int | None]] = [
            (doc, drill.profile_version_id, None)
            for doc in generate_documents(drill=drill, seed=seed)
        ]
    else:
        links = drill.drill_scenarios.select_related("scenario").order_by("position")
        dealt = [
            (link.scenario.document, link.scenario.profile_version_id, link.scenario_id)
            for link in links
        ]
    if not dealt:
        raise ProductError(f"drill '{drill.title}' has no rounds yet", field="drill")
    game = game_named(drill.game)
    rounds = []
    for position, (document, version, scenario) in enumerate(dealt, start=1):
        try:
            key = game.answer_key(document)
        except DocumentError as exc:
            raise ProductError(f"round {position} cannot be played: {exc}", field="drill") from exc
        rounds.append(
            {
                "document": document,
                "profile_version": version,
                "scenario": scenario,
                "answer_key": key,
            }
        )
    return rounds


def live_session_open(
    *,
    user: AbstractBaseUser,
    training_class: TrainingClass,
    drill: Drill | None = None,
    scenarios: Sequence[Scenario | str] = (),
    title: str = "",
) -> LiveSession:
    """A live session of the class, on its first question (waiting to be opened).

    From a drill, or from a chosen list of scenarios (made into a drill of the
    instructor's, titled after the session, so the attempts have a drill as any has)."""
    may_drive(user, training_class)
    if drill is not None and scenarios:
        raise ProductError("choose a drill or a list of scenarios, not both", field="drill")
    if drill is None and not scenarios:
        raise ProductError("choose a drill or at least one scenario", field="drill")
    # Nothing is written unless the session opens: the drill made of the chosen
    # scenarios goes with a refusal after it (a session already running, say).
    with transaction.atomic():
        return _open(user, training_class, drill, scenarios, title)


def _open(
    user: AbstractBaseUser,
    training_class: TrainingClass,
    drill: Drill | None,
    scenarios: Sequence[Scenario | str],
    title: str,
) -> LiveSession:
    if drill is None:
        _one_table(scenarios)
        drill = drill_create(
            title=title or f"Class session of {training_class.name}",
            kind=DrillKind.FIXED,
            user=user,
            scenarios=scenarios,
        )
    elif not drill.is_active:
        raise NotFoundError("no such drill", field="drill")
    seed = secrets.randbelow(2**62)
    rounds = _deal(drill, seed)
    try:
        with transaction.atomic():
            session = LiveSession.objects.create(
                code=_unused_code(),
                training_class=training_class,
                drill=drill,
                instructor_id=user.pk,
                rounds=rounds,
                seed=seed if drill.kind == DrillKind.GENERATED else None,
            )
            questions = [
                LiveQuestion(session=session, position=position, n=key["n"], kind=key["kind"])
                for position, one in enumerate(rounds, start=1)
                for key in one["answer_key"]
            ]
            for number, question in enumerate(questions, start=1):
                question.number = number
            LiveQuestion.objects.bulk_create(questions)
            ledger_append(
                event=Event.LIVE_SESSION_OPENED,
                subject_type=Subject.LIVE_SESSION,
                subject_id=session.pk,
                payload={
                    "class": training_class.pk,
                    "drill": drill.pk,
                    "seed": session.seed,
                    "rounds": len(rounds),
                    "questions": len(questions),
                },
                actor=user,
            )
    except IntegrityError:
        raise ConflictError(
            f"{training_class.name} already has a live session running: end it first",
            code="session_running",
        ) from None
    return session


def _one_table(scenarios: Sequence[Scenario | str]) -> None:
    """The room plays at one table (one placard, one set of house rules): scenarios of
    two tables are refused, naming them."""
    slugs = [s for s in scenarios if isinstance(s, str)]
    ids = [s.pk for s in scenarios if not isinstance(s, str)]
    tables = sorted(
        {
            profile.title or profile.name
            for profile in RuleProfile.objects.filter(
                Q(versions__scenarios__slug__in=slugs, versions__scenarios__is_active=True)
                | Q(versions__scenarios__pk__in=ids)
            ).distinct()
        }
    )
    if len(tables) > 1:
        raise ProductError(
            "a class session is played at one table, and these scenarios are of "
            + " and ".join(tables)
            + ": choose scenarios of one of them",
            field="scenarios",
        )


def _unused_code() -> str:
    for _ in range(20):
        code = _new_code()
        if not LiveSession.objects.filter(code=code).exists():
            return code
    raise ConflictError("no free session code was found: try again", code="no_code")


def live_session_find(*, code: str) -> LiveSession:
    """The session a code names, ended or not; a code that names none is a 404."""
    session = LiveSession.objects.filter(code=code_normal(code)).first()
    if session is None:
        raise NotFoundError("no live session has that code", field="code")
    return session


def live_session_join(
    *, user: AbstractBaseUser, session: LiveSession | None = None, code: str = ""
) -> Attempt:
    """The trainee's attempt in the session: made on the first join, the same one after."""
    if not has_role(user, Role.TRAINEE):
        raise ForbiddenError("only trainees join a class session")
    if session is None:
        session = live_session_find(code=code)
    if not session.training_class.trainees.filter(pk=user.pk).exists():
        # A session of another class is as if it did not exist.
        raise NotFoundError("no live session of your classes has that code", field="code")
    mine = Attempt.objects.filter(live_session=session, trainee_id=user.pk).first()
    if mine is not None:
        return mine
    if session.state == LiveSessionState.ENDED:
        raise ConflictError("this class session has ended", code="session_ended")
    elsewhere = Attempt.objects.filter(
        trainee_id=user.pk, mode=Mode.CLASS_SESSION, status=AttemptStatus.IN_PROGRESS
    ).exists()
    if elsewhere:
        raise ConflictError(
            "you are in another class session: it must end before you join this one",
            code="in_another_session",
        )
    try:
        with transaction.atomic():
            locked = LiveSession.objects.select_for_update().get(pk=session.pk)
            if locked.state == LiveSessionState.ENDED:
                raise ConflictError("this class session has ended", code="session_ended")
            attempt = Attempt.objects.create(
                trainee_id=user.pk,
                drill_id=locked.drill_id,
                mode=Mode.CLASS_SESSION,
                live_session=locked,
                seed=locked.seed,
            )
            # A late joiner comes in at the round on the table, at its current question.
            current = locked.questions.get(number=locked.current)
            rounds_add(session=locked, attempts=[attempt], position=current.position)
            # No new version: the room's pages redraw on the session's changes, not on a
            # join (the instructor's list of who joined is read by its poll).
            ledger_append(
                event=Event.LIVE_SESSION_JOINED,
                subject_type=Subject.LIVE_SESSION,
                subject_id=locked.pk,
                payload={"attempt": attempt.pk, "trainee": user.pk, "question": locked.current},
                actor=user,
            )
    except IntegrityError:
        # Two joins at once (two tablets): the first made the attempt; or another session.
        again = Attempt.objects.filter(live_session=session, trainee_id=user.pk).first()
        if again is not None:
            return again
        raise ConflictError(
            "you are in another class session: it must end before you join this one",
            code="in_another_session",
        ) from None
    return attempt


def rounds_add(*, session: LiveSession, attempts: Sequence[Attempt], position: int) -> None:
    """The session's round at ``position`` dealt to the attempts that do not hold it yet,
    with the questions already opened in it marked shown at the moment they opened."""
    one = session.rounds[position - 1]
    have = set(
        AttemptItem.objects.filter(attempt__in=attempts, position=position).values_list(
            "attempt_id", flat=True
        )
    )
    shown = {
        str(q.n): q.opened_at.isoformat()
        for q in session.questions.filter(position=position, opened_at__isnull=False)
        if q.opened_at is not None
    }
    insert_many(
        [
            AttemptItem(
                attempt=attempt,
                position=position,
                scenario_id=one["scenario"],
                profile_version_id=one["profile_version"],
                document=one["document"],
                answer_key=one["answer_key"],
                questions_shown=shown,
                shown_at=min(shown.values()) if shown else None,
            )
            for attempt in attempts
            if attempt.pk not in have
        ]
    )
