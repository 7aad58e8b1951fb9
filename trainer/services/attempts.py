"""The trainee's side of an attempt: start it, show each question, record each answer,
submit it for grading.

Who may start what: a trainee may start any drill assigned to them (directly or through
one of their classes) in the assignment's mode, and practise any active practice drill
without an assignment. Exams are sealed: an exam drill is never practised, and each
sitting deals its own rounds (fresh from the blueprint, or drawn from a pool five times the
sitting, never a round the trainee was dealt before: trainer.selectors.pools) from a seed
recorded on the attempt. Sittings follow their assignment's rules: at most
``max_sittings``, ``cooldown_hours`` between them, none after the due date. Starting again
while an attempt of the same drill, mode and assignment is in progress resumes it; two
concurrent starts make one attempt (a database constraint decides, not a check).

A little over 400 lines: starting, answering and submitting share the attempt's lock, its
deadline and its sitting rules, which one module keeps in step.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from core.roles import Role, has_role
from core.rows import (
    columns,
    fetch_one,
    insert,
    insert_many,
    instance,
    lock_clause,
    table,
)
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import VOUCHES
from trainer.games import DocumentError, game_named
from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    DrillKind,
    DrillPurpose,
    Mode,
    RuleProfileVersion,
    Scenario,
)
from trainer.selectors.attempts import (
    AskedAttempt,
    CurrentQuestion,
    attempt_current_question,
    public_question,
    question_view,
)
from trainer.selectors.drill_rounds import generate_documents
from trainer.selectors.live import live_current_question
from trainer.selectors.pools import (
    is_pool,
    pool_draw,
    pool_rounds_dealt,
    pool_shared_problem,
    pool_size_problem,
)
from trainer.selectors.sittings import sitting_state_of
from trainer.selectors.starting import Sat, assignment_of_trainee, attempts_at_assignment
from trainer.services.grading.request import grading_request_on_submit
from trainer.services.json_keys import first_showing_sql
from trainer.services.vouched import decision_vouch

Dealt = tuple[dict[str, Any], RuleProfileVersion, Scenario | None]


def _rounds(drill: Drill, seed: int | None, trainee_id: int | None = None) -> list[Dealt]:
    if drill.kind == DrillKind.GENERATED:
        if drill.profile_version is None:
            raise ProductError(f"drill {drill.pk} has no rule profile to generate from")
        documents = generate_documents(drill=drill, seed=seed if seed is not None else 0)
        version = drill.profile_version
        return [(doc, version, None) for doc in documents]
    links = list(
        drill.drill_scenarios.select_related("scenario__profile_version").order_by("position")
    )
    rounds: list[Dealt] = [
        (link.scenario.document, link.scenario.profile_version, link.scenario) for link in links
    ]
    if not rounds:
        raise ProductError(f"drill '{drill.title}' has no scenarios yet", field="drill")
    if drill.purpose == DrillPurpose.EXAM and seed is not None:
        # A sealed pool: each sitting draws its own rounds, in its own order, never one
        # this trainee was dealt before (trainer.selectors.pools).
        by_id = {link.scenario_id: one for link, one in zip(links, rounds, strict=True)}
        problem = pool_size_problem(title=drill.title, pool=len(by_id), count=drill.count)
        if problem is not None:  # a pool made before the rule: refused until rebuilt
            raise ConflictError(
                f"this exam cannot be sat: {problem}. Ask your pit boss.", code="pool_too_small"
            )
        shared = pool_shared_problem(drill=drill)
        if shared is not None:  # likewise: rebuilt from rounds dealt nowhere else
            raise ConflictError(
                f"this exam cannot be sat: {shared}. Ask your pit boss.", code="pool_shared"
            )
        dealt = pool_rounds_dealt(trainee_id=trainee_id, drill=drill) if trainee_id else set()
        drawn = pool_draw(pool=list(by_id), dealt=dealt, count=drill.count, seed=seed)
        return [by_id[scenario_id] for scenario_id in drawn]
    return rounds


def _sitting_rules(*, assignment: Assignment, sat: list[Sat]) -> int:
    """The number of the sitting about to start, or a refusal naming the rule that stops it
    (trainer.selectors.sittings: My training and the briefing say the same)."""
    state = sitting_state_of(assignment, sat)
    if state.refusal is not None:
        code, message = state.refusal
        raise ConflictError(message, code=code)
    return state.taken + 1


def _open_attempt(
    *, trainee: AbstractBaseUser, drill: Drill, mode: str, assignment: Assignment | None
) -> Attempt | None:
    return Attempt.objects.filter(
        trainee_id=trainee.pk,
        drill=drill,
        mode=mode,
        assignment=assignment,
        status=AttemptStatus.IN_PROGRESS,
    ).first()


def attempt_start(
    *,
    trainee: AbstractBaseUser,
    drill: Drill,
    mode: str,
    assignment: Assignment | None = None,
    seed: int | None = None,
) -> Attempt:
    """A new attempt with every round dealt and its answer key stored (or the one in progress)."""
    if not has_role(trainee, Role.TRAINEE):
        raise ForbiddenError("only trainees start attempts")
    if mode not in Mode.values:
        raise ProductError(f"mode must be one of {', '.join(Mode.values)}", field="mode")
    if mode == Mode.CLASS_SESSION:
        raise ForbiddenError("a class session is joined from My training, not started")
    if not drill.is_active:
        raise NotFoundError("no such drill", field="drill")
    if assignment is not None:
        mine = assignment_of_trainee(
            trainee=trainee, assignment_id=assignment.pk, drill_id=drill.pk
        )
        if mine is None:
            raise NotFoundError("no such assignment", field="assignment")
        if assignment.mode != mode:
            raise ProductError(
                f"this assignment is in {assignment.mode} mode, not {mode}", field="mode"
            )
    else:
        assignment = assignment_of_trainee(trainee=trainee, drill_id=drill.pk, mode=mode)
        if assignment is None and drill.made_for_id not in (None, trainee.pk):
            # Another trainee's refresher: as if it did not exist (its title names them).
            raise NotFoundError("no such drill", field="drill")
        if assignment is None and (mode != Mode.PRACTICE or drill.purpose == DrillPurpose.EXAM):
            # One answer whether the drill is an exam or just not given to this trainee.
            raise ForbiddenError(f"a {mode} attempt of this drill needs an assignment")
    if drill.purpose == DrillPurpose.EXAM and mode == Mode.PRACTICE:
        raise ForbiddenError("an exam cannot be practised")
    if is_pool(drill) and has_role(trainee, Role.PIT_BOSS, Role.COMPLIANCE, Role.ADMIN):
        # A pool is sealed from its trainees only; these roles read its rounds in the
        # library and the answers of every sitting of it (docs/security.md).
        raise ConflictError(
            "this exam cannot be sat from an account that can read it: pit bosses, compliance "
            "officers and administrators see every pool's rounds and the answers given to "
            "them. Ask for a table test (its rounds are dealt fresh for each sitting).",
            code="pool_readable",
        )

    if assignment is None:
        in_progress = _open_attempt(trainee=trainee, drill=drill, mode=mode, assignment=None)
        if in_progress is not None:
            return in_progress
        sitting = None
    else:
        # One read for both: the sitting rules count the trainee's attempts at the
        # assignment, and the open one among them is resumed.
        sat = attempts_at_assignment(assignment_id=assignment.pk, trainee_id=trainee.pk)
        for one in sat:
            if one.open and one.drill_id == drill.pk and one.mode == mode:
                return Attempt.objects.get(pk=one.pk)
        sitting = _sitting_rules(assignment=assignment, sat=sat)

    sealed = drill.purpose == DrillPurpose.EXAM
    if seed is None and (drill.kind == DrillKind.GENERATED or sealed):
        seed = secrets.randbelow(2**62)
    game = game_named(drill.game)
    dealt = []
    rounds = _rounds(drill, seed, trainee.pk)
    for position, (document, version, scenario) in enumerate(rounds, start=1):
        try:
            key = game.answer_key(document)
        except DocumentError as exc:
            raise ProductError(f"round {position} cannot be played: {exc}", field="drill") from exc
        dealt.append((position, document, version, scenario, key))

    now = timezone.now()
    timed = mode == Mode.SPEED or sealed
    try:
        with transaction.atomic():
            if drill.kind == DrillKind.FIXED and sealed:
                _pool_turn(trainee, drill, [scenario for _, _, _, scenario, _ in dealt])
            attempt = insert(
                Attempt(
                    trainee_id=trainee.pk,
                    drill=drill,
                    assignment=assignment,
                    mode=mode,
                    sitting=sitting,
                    seed=seed if (drill.kind == DrillKind.GENERATED or sealed) else None,
                    deadline=now + timedelta(seconds=drill.time_box_seconds) if timed else None,
                )
            )
            insert_many(
                [
                    AttemptItem(
                        attempt=attempt,
                        position=position,
                        scenario=scenario,
                        profile_version=version,
                        document=document,
                        answer_key=key,
                    )
                    for position, document, version, scenario, key in dealt
                ]
            )
            if sitting is not None:
                ledger_append(
                    event=Event.SITTING_STARTED,
                    subject_type=Subject.ATTEMPT,
                    subject_id=attempt.pk,
                    payload={
                        "drill": drill.pk,
                        "assignment": assignment.pk if assignment else None,
                        "sitting": sitting,
                        "mode": mode,
                        "seed": attempt.seed,
                        "rounds": len(dealt),
                        "deadline": attempt.deadline,
                    },
                    actor=trainee,
                )
    except IntegrityError:
        # Another request started the same attempt first: that one is the attempt.
        winner = _open_attempt(trainee=trainee, drill=drill, mode=mode, assignment=assignment)
        if winner is None:
            raise ConflictError(
                "another sitting of this assignment was just started", code="already_started"
            ) from None
        return winner
    return attempt


def _pool_turn(trainee: AbstractBaseUser, drill: Drill, drawn: list[Scenario | None]) -> None:
    """Two sittings of one pool started at once (two assignments of it) take turns on the
    trainee's row; the later one is refused if the earlier dealt any of its rounds."""
    list(get_user_model().objects.select_for_update().filter(pk=trainee.pk).values_list("pk"))
    ids = {scenario.pk for scenario in drawn if scenario is not None}
    if ids & pool_rounds_dealt(trainee_id=trainee.pk, drill=drill):
        raise ConflictError(
            "another sitting of this exam was just started: try again", code="already_started"
        )


def _own(attempt: Attempt, user: AbstractBaseUser) -> None:
    if attempt.trainee_id != user.pk:
        raise NotFoundError("no such attempt", field="attempt")


def _past_deadline(attempt: Attempt) -> bool:
    return (
        attempt.status == AttemptStatus.IN_PROGRESS
        and attempt.deadline is not None
        and timezone.now() >= attempt.deadline
    )


def attempt_question_show(
    *, attempt: Attempt | AskedAttempt, user: AbstractBaseUser
) -> dict[str, Any] | None:
    """The question being asked, its first showing timed; None when none is left to answer.

    `attempt` may come with its question already read (the API's
    trainer.selectors.attempts.attempt_with_question: one query for both). A speed attempt
    whose time box has ended is submitted as it stands instead.
    """
    if isinstance(attempt, AskedAttempt):
        if attempt.attempt.live_session_id is not None:
            # A class session's question is the one its instructor has open, not the
            # first unanswered one the API's read worked out.
            return _show(attempt.attempt, user, known=None)
        return _show(attempt.attempt, user, known=(attempt.current,))
    return _show(attempt, user, known=None)


def _show(
    attempt: Attempt, user: AbstractBaseUser, known: tuple[CurrentQuestion | None] | None
) -> dict[str, Any] | None:
    _own(attempt, user)
    if _past_deadline(attempt):
        attempt_submit(attempt=attempt, user=user)
        return None
    if attempt.status != AttemptStatus.IN_PROGRESS:
        return None
    current = known[0] if known is not None else _asked(attempt, count_rounds=True)
    if current is None:
        return None
    item = current.item
    item.attempt = attempt  # the round's attempt and drill, already loaded
    key = str(current.n)
    # A showing once recorded is never removed: a question shown before needs no lock.
    if key not in item.questions_shown:
        item = _first_showing(item, key)
        item.attempt = attempt
    question = public_question(item, current.key, game=game_named(attempt.drill.game))
    question["rounds"] = current.rounds
    question["shown_at"] = item.questions_shown[key]
    return question


def _first_showing(unlocked: AttemptItem, key: str) -> AttemptItem:
    """The question's first showing timed in one conditional UPDATE: the moment is added
    only where the round has none for this question yet, so two tabs asking at once record
    one moment (the second UPDATE waits for the first's row lock, then finds the key and
    changes nothing; it then reads the moment the first recorded)."""
    now = timezone.now()
    moment = now.isoformat()
    if not key.isdigit():
        raise ValueError(f"a question's number, not {key!r}")
    with connection.cursor() as cursor:
        cursor.execute(
            first_showing_sql(table(AttemptItem), connection.vendor),
            [key, moment, now, unlocked.pk, key],
        )
        marked = cursor.rowcount
    if not marked:  # shown meanwhile by another request: its moment stands
        return AttemptItem.objects.get(pk=unlocked.pk)
    unlocked.questions_shown = {**unlocked.questions_shown, key: moment}
    unlocked.shown_at = unlocked.shown_at or now
    return unlocked


NOT_ASKED = "that is not the question being asked: answer the question on the table"


def decision_record(
    *,
    attempt: Attempt | int,
    user: AbstractBaseUser,
    position: int,
    question: int,
    answer: Mapping[str, Any],
) -> tuple[Decision, bool]:
    """Record the answer to the question being asked; (decision, created).

    `attempt` is the attempt, or its id (the API's: the attempt is then read once, under
    its lock, with its drill; NotFoundError for anyone else's). The same answer sent again
    returns the decision already recorded (created False); a different answer to an
    answered question is refused: a decision is never edited. Anything else is refused with
    one message before the answer is read at all, so a probe learns nothing of questions
    not yet shown, not even whether they exist. An answer after the question's time limit
    is recorded as late. The decision's round carries the locked attempt (`item.attempt`).
    """
    if isinstance(attempt, Attempt):
        _own(attempt, user)
    attempt_id = attempt.pk if isinstance(attempt, Attempt) else attempt
    decision, created, _ = _decide(attempt_id, user, position, question, answer, then_show=False)
    return decision, created


def decision_record_showing_next(
    *, attempt: int, user: AbstractBaseUser, position: int, question: int, answer: Mapping[str, Any]
) -> tuple[Decision, bool, dict[str, Any] | None]:
    """``decision_record``, and the question asked after it where it is known under the
    same lock: the next question of the same round, shown (its first showing timed in the
    same transaction, a statement and a commit fewer than showing it after). As GET
    …/question's body: the attempt, its status and deadline, the question. None where it is
    not worked out here (the round's last question, a class session's, the same answer
    again, a time box ending): the caller reads it as GET …/question does."""
    return _decide(attempt, user, position, question, answer, then_show=True)


def _decide(
    attempt_id: int,
    user: AbstractBaseUser,
    position: int,
    question: int,
    answer: Mapping[str, Any],
    *,
    then_show: bool,
) -> tuple[Decision, bool, dict[str, Any] | None]:
    with transaction.atomic():
        # Locking the attempt makes concurrent answers to it take turns.
        locked = _locked_with_drill(attempt_id, trainee_id=user.pk)
        if locked is None:
            raise NotFoundError("no such attempt", field="attempt")
        if not _past_deadline(locked):
            decision, created = _record(
                locked, user, position, question, answer, count_rounds=then_show
            )
            after = _next_in_round(locked, decision) if then_show and created else None
            if created:
                # Last: every writer of the ledger waits for its head, held from here to
                # the commit.
                _decision_vouched(locked, user, decision)
            return decision, created, after
    attempt_submit(attempt=locked, user=user)
    raise ConflictError(
        "the time for this attempt has ended: it was submitted as it stood",
        code="deadline_passed",
    )


def _locked_with_drill(
    attempt_id: int, *, trainee_id: int | None, with_trainee: bool = False
) -> Attempt | None:
    """The attempt (the trainee's, unless ``trainee_id`` is None) with its drill (and its
    trainee), its row locked (FOR UPDATE OF the attempt alone): fixed SQL (core.rows), as
    every answer and submit reads it."""
    params = [attempt_id] if trainee_id is None else [attempt_id, trainee_id]
    row = fetch_one(_locked_sql(trainee_id is not None, with_trainee), params)
    if row is None:
        return None
    attempt, at = instance(Attempt, row)
    attempt.drill, at = instance(Drill, row, at)
    if with_trainee:
        attempt.trainee, _ = instance(get_user_model(), row, at)
    return attempt


@cache
def _locked_sql(by_trainee: bool, with_trainee: bool) -> str:
    user = get_user_model()
    lock = lock_clause(of="a")
    trainee_columns = f", {columns(user, 'u')}" if with_trainee else ""
    trainee_join = f" JOIN {table(user)} u ON u.id = a.trainee_id" if with_trainee else ""
    owner = " AND a.trainee_id = %s" if by_trainee else ""
    return (
        f"SELECT {columns(Attempt, 'a')}, {columns(Drill, 'd')}{trainee_columns} "  # noqa: S608
        f"FROM {table(Attempt)} a JOIN {table(Drill)} d ON d.id = a.drill_id{trainee_join} "
        f"WHERE a.id = %s{owner}{lock}"
    )


def _asked(attempt: Attempt, *, count_rounds: bool, lock: bool = False) -> CurrentQuestion | None:
    """The question being asked: a class session's is the one its instructor has open
    (trainer.selectors.live; locked for an answer), any other attempt's the first
    unanswered one."""
    if attempt.live_session_id is not None:
        return live_current_question(attempt=attempt, lock=lock)
    return attempt_current_question(attempt=attempt, count_rounds=count_rounds)


def _record(
    locked: Attempt,
    user: AbstractBaseUser,
    position: int,
    question: int,
    answer: Mapping[str, Any],
    *,
    count_rounds: bool = False,
) -> tuple[Decision, bool]:
    """decision_record's work, under the attempt's lock."""
    game = game_named(locked.drill.game)
    open_ = locked.status == AttemptStatus.IN_PROGRESS
    current = _asked(locked, count_rounds=count_rounds, lock=True) if open_ else None
    if current is None or (current.item.position, current.n) != (position, question):
        # Only a question other than the one being asked can have been answered before.
        repeated = _answered_before(locked, position, question)
        if repeated is not None:
            document = repeated.item.document or {}
            if repeated.answer == game.parse_answer(repeated.kind, answer, document=document):
                repeated.item.attempt = locked
                return repeated, False
            raise ConflictError(
                f"question {question} of round {position} is already answered; "
                "a decision cannot be changed",
                field="answer",
                code="already_answered",
            )
        if not open_:
            raise ConflictError("this attempt is closed to answers", code="closed")
        raise ConflictError(NOT_ASKED, field="question", code="not_current")
    item, key = current.item, current.key
    shown_text = item.questions_shown.get(str(question))
    shown_at = parse_datetime(shown_text) if shown_text else None
    if shown_at is None:
        raise ConflictError(NOT_ASKED, field="question", code="not_current")
    parsed = game.parse_answer(current.kind, answer, document=item.document or {})
    now = timezone.now()
    response_ms = _elapsed_ms(shown_at, now)
    # The drill as loaded with the attempt (a drill's limit is fixed); a class session's
    # question is open until its instructor closes it: no limit.
    live = locked.live_session_id is not None
    limit_ms = None if live else locked.drill.time_limit_seconds * 1000
    # One fixed INSERT (core.rows): a decision is new here, and never edited.
    decision = insert(
        Decision(
            item=item,
            question=question,
            kind=current.kind,
            answer=parsed,
            shown=question_view(item, key, game=game),
            shown_at=shown_at,
            answered_at=now,
            response_ms=response_ms,
            time_limit_ms=limit_ms,
            late=limit_ms is not None and response_ms > limit_ms,
        )
    )
    if current.is_last_of_round:
        item.completed_at = now
        item.save(update_fields=["completed_at"])
    return decision, True


def _decision_vouched(locked: Attempt, user: AbstractBaseUser, decision: Decision) -> None:
    """The new decision's ledger entry. The ledger vouches for the decision as written (its
    digest from the values inserted: no read back), so an answer changed behind the
    application is named by verification."""
    vouch_key, vouch_digest = decision_vouch(decision)
    ledger_append(
        event=Event.DECISION_RECORDED,
        subject_type=Subject.DECISION,
        subject_id=decision.pk,
        payload={
            "attempt": locked.pk,
            "round": decision.item.position,
            "question": decision.question,
            "kind": decision.kind,
            "answer": decision.answer,
            "shown_at": decision.shown_at,
            "answered_at": decision.answered_at,
            "response_ms": decision.response_ms,
            "time_limit_ms": decision.time_limit_ms,
            "late": decision.late,
            VOUCHES: {vouch_key: vouch_digest},
        },
        actor=user,
    )


def _next_in_round(locked: Attempt, decision: Decision) -> dict[str, Any] | None:
    """The question after the one just answered, shown, when it is in the same round (see
    decision_record_showing_next); None otherwise."""
    item = decision.item
    rounds = int(getattr(item, "rounds_dealt", 0))
    if locked.live_session_id is not None or item.completed_at is not None or not rounds:
        return None
    if _past_deadline(locked):
        return None  # GET …/question's read submits it as it stands
    upto = int(getattr(item, "answered_upto", -1))
    if upto < 0:
        return None  # answers not in the key's order: read the round as GET …/question does
    # The round's first unanswered question, as trainer.selectors.attempts._current_of
    # finds it: questions 1 to `upto` were answered before, and this one now.
    answered = {*range(1, upto + 1), decision.question}
    key = next((k for k in item.answer_key if k["n"] not in answered), None)
    if key is None:
        return None
    shown = str(key["n"])
    if shown not in item.questions_shown:
        item = _first_showing(item, shown)
        item.attempt = locked
    question = public_question(item, key, game=game_named(locked.drill.game))
    question["rounds"] = rounds
    question["shown_at"] = item.questions_shown[shown]
    return {
        "attempt": locked.pk,
        "status": locked.status,
        "deadline": locked.deadline,
        "question": question,
    }


def _answered_before(attempt: Attempt, position: int, question: int) -> Decision | None:
    """The decision already recorded for this question, if there is one."""
    return (
        Decision.objects.filter(item__attempt=attempt, item__position=position, question=question)
        .select_related("item")
        .first()
    )


def _elapsed_ms(start: datetime, end: datetime) -> int:
    return max(0, int((end - start) / timedelta(milliseconds=1)))


def attempt_submit(*, attempt: Attempt | int, user: AbstractBaseUser) -> Attempt:
    """Close the attempt to answers and ask for its grading; unanswered questions stay so.

    `attempt` is the attempt, or its id (the API's: read once, under its lock;
    NotFoundError for anyone else's). Submitting an attempt already submitted returns it
    unchanged.
    """
    if isinstance(attempt, Attempt):
        _own(attempt, user)
        return _close(attempt.pk)
    return _close(attempt, trainee_id=user.pk)


def _close(attempt_id: int, *, trainee_id: int | None = None) -> Attempt:
    with transaction.atomic():
        # Read with what the ledger entry (the trainee) and the answer (the drill) need.
        locked = _locked_with_drill(attempt_id, trainee_id=trainee_id, with_trainee=True)
        if locked is None:
            raise NotFoundError("no such attempt", field="attempt")
        if locked.status == AttemptStatus.SUBMITTED:
            return locked
        if locked.status != AttemptStatus.IN_PROGRESS:
            raise ConflictError(f"this attempt is {locked.get_status_display().lower()}")
        locked.status = AttemptStatus.SUBMITTED
        locked.submitted_at = timezone.now()
        # The grading service saves these with the grading fields in one UPDATE and
        # records the submission in the ledger with its run; the grading itself is the
        # worker's, queued on commit.
        grading_request_on_submit(attempt=locked, fields=("status", "submitted_at"))
    return locked


def attempts_close_expired(*, now: datetime | None = None) -> list[int]:
    """Submit, as they stand, the attempts whose time box has ended (an exam sitting left
    open in a closed browser): what was not answered counts as unanswered. Safe to run
    twice: a submitted attempt is left as it is."""
    moment = now or timezone.now()
    expired = list(
        Attempt.objects.filter(status=AttemptStatus.IN_PROGRESS, deadline__lte=moment)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for attempt_id in expired:
        _close(attempt_id)
    return expired
