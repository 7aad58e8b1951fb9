"""Reads of a trainee's attempts: their assignments, the question being asked, feedback
and results.

Nothing returned here for a trainee carries an expected answer or a rule before the
trainee may see it: a question is public once asked; its expected answer only in practice
feedback after the round, or in the grades of a graded run, and only ever for questions
that were shown. A question never reached keeps its key: an abandoned exam does not
publish the rounds it did not deal to the table. A fixed exam pool's expected answers
(and the money difference and kind of mistake, which would give them away) stay sealed
until the pool closes for everyone (trainer.selectors.pools): its results and feedback say
right or wrong, the rule and the trainee's own answer.

Over 400 lines (over 500) on purpose: the rule above (what is public, when, and what a
sealed pool hides) is kept in one module so that every read a trainee can reach is checked
against it in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.errors import ConflictError, NotFoundError
from core.rows import columns, fetch_one, instance, optional_instance, table
from trainer.games import Game, game_named
from trainer.games.marking import money_figure
from trainer.labels import skill_words
from trainer.models import (
    Assignment,
    Attempt,
    AttemptItem,
    AttemptStatus,
    Decision,
    Drill,
    DrillPurpose,
    ErrorCategory,
    Grade,
    GradingRun,
    GradingRunSummary,
    Mode,
    RuleProfileVersion,
    RunStatus,
)
from trainer.selectors.pools import PoolState, pool_state
from trainer.selectors.sittings import SittingState, needs_briefing, sitting_state_of
from trainer.tallies import skill_tallies


def attempt_get_for_user(*, attempt_id: int, user: AbstractBaseUser | AnonymousUser) -> Attempt:
    """The user's own attempt; NotFoundError for a missing id and for anyone else's."""
    # Fixed SQL (core.rows): a trainee's results and each page of the table start here.
    row = fetch_one(_attempt_of_sql(), [attempt_id, user.pk])
    if row is None:
        raise NotFoundError("no such attempt", field="attempt")
    attempt, at = instance(Attempt, row)
    attempt.drill, at = instance(Drill, row, at)
    attempt.assignment, _ = optional_instance(Assignment, row, at)
    return attempt


@cache
def _attempt_of_sql() -> str:
    return (
        f"SELECT {columns(Attempt, 'a')}, {columns(Drill, 'd')}, {columns(Assignment, 's')} "  # noqa: S608
        f"FROM {table(Attempt)} a JOIN {table(Drill)} d ON d.id = a.drill_id "
        f"LEFT JOIN {table(Assignment)} s ON s.id = a.assignment_id "
        "WHERE a.id = %s AND a.trainee_id = %s"
    )


def assignments_for_trainee(*, user: AbstractBaseUser) -> QuerySet[Assignment]:
    """Active drills assigned to the user directly or through one of their classes, never a
    cancelled assignment."""
    return (
        Assignment.objects.filter(Q(trainee_id=user.pk) | Q(training_class__trainees=user.pk))
        .filter(drill__is_active=True, cancelled_at__isnull=True)
        .select_related("drill")
        .distinct()
        .order_by("due_at", "id")
    )


def attempts_for_trainee(*, user: AbstractBaseUser) -> QuerySet[Attempt]:
    """The user's attempts, newest first."""
    return (
        Attempt.objects.filter(trainee_id=user.pk)
        .select_related("drill", "assignment")
        .order_by("-started_at", "-id")
    )


def practice_drills(*, user: AbstractBaseUser, limit: int | None = 50) -> QuerySet[Drill]:
    """Active practice drills the user may practise, by title: the department's and those
    made for them (a refresher is its trainee's alone), never a sealed exam. No limit:
    every one (the API pages them)."""
    drills = (
        Drill.objects.filter(is_active=True, purpose=DrillPurpose.PRACTICE)
        .filter(Q(made_for__isnull=True) | Q(made_for=user.pk))
        .order_by("title", "pk")
    )
    return drills if limit is None else drills[:limit]


def drill_get_active(*, drill_id: int) -> Drill:
    """An active drill; NotFoundError for a missing or retired one."""
    drill = Drill.objects.filter(pk=drill_id, is_active=True).first()
    if drill is None:
        raise NotFoundError("no such drill", field="drill")
    return drill


def attempt_progress(*, attempt: Attempt) -> dict[str, Any]:
    """How far the attempt has come: rounds dealt, rounds fully answered, answers given."""
    # One query (fixed SQL, core.rows: every start and submit answers with it): the rounds,
    # each with its answers counted.
    row = fetch_one(_PROGRESS_SQL, [attempt.pk])
    rounds, answered, decisions = row if row is not None else (0, 0, 0)
    return {
        "rounds": int(rounds or 0),
        "rounds_answered": int(answered or 0),
        "decisions": int(decisions or 0),
    }


_PROGRESS_SQL = (
    "SELECT COUNT(*), COUNT(i.completed_at), "  # noqa: S608
    f"SUM((SELECT COUNT(*) FROM {table(Decision)} x WHERE x.item_id = i.id)) "
    f"FROM {table(AttemptItem)} i WHERE i.attempt_id = %s"
)


@dataclass(frozen=True)
class CurrentQuestion:
    """The question being asked: its round and the answer key's item (server side only),
    as stored (a dict: n, kind, prompt, view and the game's own fields)."""

    item: AttemptItem
    key: dict[str, Any]
    rounds: int

    @property
    def n(self) -> int:
        return int(self.key["n"])

    @property
    def kind(self) -> str:
        return str(self.key["kind"])

    @property
    def is_last_of_round(self) -> bool:
        return self.n == len(self.item.answer_key)


# The reads of the question being asked are fixed SQL (core.rows), built from the models'
# own table and column names, nothing from a request: as querysets they cost a question
# request more Python to build than PostgreSQL to run (bench/profile_api.py).


def _rounds_dealt_sql(item: str) -> str:
    """How many rounds the attempt of round ``item`` deals."""
    return (
        f"SELECT COUNT(*) FROM {table(AttemptItem)} AS dealt "  # noqa: S608
        f"WHERE dealt.attempt_id = {item}.attempt_id"
    )


def _answered_sql(item: str) -> str:
    """Which of round ``item``'s questions are answered: k when they are questions 1 to k
    (k answers, the highest k, none below 1: one decision a question makes that exact), as
    they are when answered in the key's order; -1 otherwise, which sends the caller to read
    the questions themselves."""
    return (
        "SELECT CASE WHEN COUNT(*) = COALESCE(MAX(answered.question), 0) "  # noqa: S608
        "AND COALESCE(MIN(answered.question), 1) >= 1 THEN COUNT(*) ELSE -1 END "
        f"FROM {table(Decision)} AS answered WHERE answered.item_id = {item}.id"
    )


def attempt_current_question(
    *, attempt: Attempt, count_rounds: bool = True
) -> CurrentQuestion | None:
    """The first unanswered question of the first unfinished round; None when all are in.

    One query (fixed SQL, core.rows: every answer reads it): the round, with how many of
    its questions are answered (and, for count_rounds, how many rounds the attempt deals:
    its `rounds`; 0 without).
    """
    row = fetch_one(_unfinished_sql(count_rounds), [attempt.pk])
    if row is None:
        return None
    item, at = instance(AttemptItem, row)
    item.attempt = attempt
    item.answered_upto = row[at]  # type: ignore[attr-defined]
    item.rounds_dealt = row[at + 1] if count_rounds else 0  # type: ignore[attr-defined]
    return _current_of(item)


@cache
def _unfinished_sql(count_rounds: bool) -> str:
    rounds = f", ({_rounds_dealt_sql('i')})" if count_rounds else ""
    return (
        f"SELECT {columns(AttemptItem, 'i')}, ({_answered_sql('i')}){rounds} "  # noqa: S608
        f"FROM {table(AttemptItem)} i WHERE i.attempt_id = %s AND i.completed_at IS NULL "
        "ORDER BY i.position LIMIT 1"
    )


@dataclass(frozen=True)
class AskedAttempt:
    """The user's attempt and the question being asked (None when none is)."""

    attempt: Attempt
    current: CurrentQuestion | None


def attempt_with_question(
    *, attempt_id: int, user: AbstractBaseUser | AnonymousUser
) -> AskedAttempt:
    """The user's attempt (NotFoundError for anyone else's) with the question being asked,
    in one query while a round is unfinished: the round read with its attempt, drill and
    assignment, its owner in the WHERE. Otherwise the attempt alone (attempt_get_for_user).
    Fixed SQL (core.rows): every question a trainee is shown starts here."""
    row = fetch_one(_asked_sql(), [attempt_id, user.pk])
    if row is None:
        return AskedAttempt(attempt_get_for_user(attempt_id=attempt_id, user=user), None)
    item, at = instance(AttemptItem, row)
    attempt, at = instance(Attempt, row, at)
    drill, at = instance(Drill, row, at)
    assignment, at = optional_instance(Assignment, row, at)
    attempt.drill = drill
    attempt.assignment = assignment
    item.attempt = attempt
    item.answered_upto, item.rounds_dealt = row[at], row[at + 1]  # type: ignore[attr-defined]
    return AskedAttempt(attempt, _current_of(item))


@cache
def _asked_sql() -> str:
    return (
        f"SELECT {columns(AttemptItem, 'i')}, {columns(Attempt, 'a')}, "  # noqa: S608 - names only
        f"{columns(Drill, 'd')}, {columns(Assignment, 's')}, "
        f"({_answered_sql('i')}), "
        f"({_rounds_dealt_sql('i')}) "
        f"FROM {table(AttemptItem)} i "
        f"JOIN {table(Attempt)} a ON a.id = i.attempt_id "
        f"JOIN {table(Drill)} d ON d.id = a.drill_id "
        f"LEFT JOIN {table(Assignment)} s ON s.id = a.assignment_id "
        "WHERE i.attempt_id = %s AND a.trainee_id = %s AND i.completed_at IS NULL "
        "ORDER BY i.position LIMIT 1"
    )


def _current_of(item: AttemptItem) -> CurrentQuestion | None:
    """The round's first unanswered question (`item` annotated with `answered_upto`)."""
    upto = int(getattr(item, "answered_upto", -1))
    answered = (
        set(range(1, upto + 1))
        if upto >= 0
        else set(item.decisions.order_by().values_list("question", flat=True))
    )
    for key in item.answer_key:
        if key["n"] not in answered:
            rounds = int(getattr(item, "rounds_dealt", 0))
            return CurrentQuestion(item=item, key=dict(key), rounds=rounds)
    return None


def question_view(item: AttemptItem, key: Mapping[str, Any], *, game: Game) -> dict[str, Any]:
    """What the table shows for a stored question, as its game reveals it to the dealer
    (blackjack's peek shows the hole card)."""
    return game.question_view(key, item.answer_key or [])


def public_question(
    item: AttemptItem, key: Mapping[str, Any], *, game: Game | None = None
) -> dict[str, Any]:
    """A question as the trainee may see it: never its expected answer or rule. The fields
    every question has, and the game's own (``Presenting.public_question``)."""
    game = game or game_named(item.attempt.drill.game)
    # No count of the round's questions: how many follow would tell what happens next.
    question: dict[str, Any] = {
        "position": item.position,
        "n": key["n"],
        "time_limit_seconds": item.attempt.drill.time_limit_seconds,
        "kind": str(key["kind"]),
        "prompt": str(key.get("prompt", "")),
    }
    question.update(
        game.public_question(key, answer_key=item.answer_key or [], document=item.document or {})
    )
    return question


def round_decisions(*, item: AttemptItem) -> list[Decision]:
    """The answers given so far in a round, in question order."""
    return list(item.decisions.order_by("question"))


@dataclass(frozen=True)
class FeedbackRow:
    n: int
    kind: str
    prompt: str
    # The question as a dealer reads it (the game's words); `prompt` is the engine's, for the API.
    text: str
    given: Mapping[str, Any] | None
    # None while a pool exam's answers are sealed (and then money_diff too).
    expected: Mapping[str, Any] | None
    right: bool
    money_diff: Decimal | None
    category: str | None
    rule: str


# What a sealed result still says of a wrong answer: facts of the answer itself, never of
# the expected one (an overpay or "right money, wrong chips" would point at it).
SEALED_CATEGORIES = frozenset({ErrorCategory.LATE.value, ErrorCategory.UNANSWERED.value})


def _sealed_category(category: str | None) -> str | None:
    return category if category in SEALED_CATEGORIES else None


def _feedback_allowed(attempt: Attempt, item: AttemptItem) -> bool:
    if attempt.mode == Mode.PRACTICE:
        return item.completed_at is not None or attempt.status != AttemptStatus.IN_PROGRESS
    if attempt.mode == Mode.SPEED:
        return attempt.status != AttemptStatus.IN_PROGRESS
    return False


def round_feedback(
    *, attempt: Attempt, position: int, item: AttemptItem | None = None
) -> list[FeedbackRow]:
    """The engine's verdict on each question of a round.

    Practice: once the round is answered. Speed: once the attempt is submitted. Exam:
    never (its results come from grading). The recorded grade is the grading service's.
    `item`: the round at `position` when the caller has it already (the answer's).
    """
    if item is None or item.position != position or item.attempt_id != attempt.pk:
        item = attempt.items.filter(position=position).first()
    if item is None:
        raise NotFoundError(f"this attempt has no round {position}", field="position")
    if not _feedback_allowed(attempt, item):
        if attempt.mode == Mode.EXAM:
            raise ConflictError("an exam shows no feedback until it is graded", code="no_feedback")
        raise ConflictError(
            f"feedback on round {position} comes after "
            + ("the round is answered" if attempt.mode == Mode.PRACTICE else "the attempt ends"),
            code="no_feedback",
        )
    game = game_named(attempt.drill.game)
    sealed = pool_state(drill=attempt.drill).sealed
    # In question order by the round's own index (the model's order joins the attempt).
    return _feedback_rows(game, item, item.decisions.order_by("question"), sealed=sealed)


def _feedback_rows(
    game: Game, item: AttemptItem, decisions: Iterable[Decision], *, sealed: bool = False
) -> list[FeedbackRow]:
    """The verdicts on the round's questions that were shown; the others stay sealed, and
    with ``sealed`` (a pool still open) every expected answer too."""
    given = {d.question: d.answer for d in decisions}
    late = {d.question for d in decisions if d.late}
    rows = []
    for key in shown_keys(item):
        n = int(key["n"])
        answer = given.get(n)
        # A question left unanswered is scored as grading scores it: the game's unanswered.
        verdict = game.compare(key, answer) if answer is not None else game.unanswered()
        category = ErrorCategory.LATE if n in late else verdict.category
        rows.append(
            FeedbackRow(
                n=n,
                kind=str(key["kind"]),
                prompt=str(key.get("prompt", "")),
                text=game.question_words(key, item.document, note=False),
                given=answer,
                expected=None if sealed else key.get("expected"),
                right=verdict.right and n not in late,
                money_diff=None if sealed else money_figure(game, verdict.cost),
                category=_sealed_category(category) if sealed else category,
                rule=str(key.get("rule", "")),
            )
        )
    return rows


def attempt_feedback(*, attempt: Attempt) -> list[tuple[int, list[FeedbackRow]]]:
    """Every round's feedback of a submitted practice or speed attempt, in two queries."""
    if attempt.mode == Mode.EXAM or attempt.status == AttemptStatus.IN_PROGRESS:
        raise ConflictError(
            "feedback on the whole attempt comes after a practice or speed attempt ends",
            code="no_feedback",
        )
    game = game_named(attempt.drill.game)
    sealed = pool_state(drill=attempt.drill).sealed
    items = attempt.items.order_by("position").prefetch_related("decisions")
    rounds = [
        (item.position, _feedback_rows(game, item, item.decisions.all(), sealed=sealed))
        for item in items
    ]
    return [(position, rows) for position, rows in rounds if rows]


def shown_keys(item: AttemptItem) -> list[dict[str, Any]]:
    """The answer key's questions that were put to the trainee, in order, as stored."""
    shown = item.questions_shown or {}
    return [dict(key) for key in item.answer_key if str(key["n"]) in shown]


@dataclass(frozen=True)
class SkillResult:
    """How the trainee did on the questions of rounds dealt for one skill."""

    skill: str
    label: str
    questions: int
    correct: int

    @property
    def percent(self) -> int:
        return round(100 * self.correct / self.questions) if self.questions else 0


@dataclass(frozen=True)
class AttemptResults:
    """An attempt's grading state and, once graded, the current run's score, its breakdown
    by skill, and the grades of the questions the trainee was shown (never the others)."""

    attempt: Attempt
    run: GradingRun | None
    grades: list[Grade] = field(default_factory=list)
    skills: list[SkillResult] = field(default_factory=list)
    # Questions of the attempt never put to the trainee: counted in the score, not shown.
    not_reached: int = 0
    # A pool exam still open: the grades carry no expected answer, money difference or
    # kind of mistake (but late and unanswered); `pool.until` says till when.
    pool: PoolState = field(default_factory=PoolState)
    # Points lost in a game counting points (the run's summary), beside the money; None in
    # a game counting money, and while sealed.
    points: Decimal | None = None

    @property
    def sealed(self) -> bool:
        return self.pool.sealed

    @property
    def graded(self) -> bool:
        return self.run is not None

    @property
    def mistakes(self) -> list[Grade]:
        return [g for g in self.grades if not g.correct and g.category != ErrorCategory.UNANSWERED]


def attempt_results(
    *, attempt: Attempt, user: AbstractBaseUser | AnonymousUser, with_tables: bool = False
) -> AttemptResults:
    """The user's attempt with the newest graded run's grades; none before grading. Each
    grade's round comes with it; ``with_tables`` includes the round's table and answer
    key (a page that words each question again), else they are not read."""
    if attempt.trainee_id != user.pk:
        raise NotFoundError("no such attempt", field="attempt")
    # The run with its summary (the skills' figures) in one query.
    run = (
        attempt.grading_runs.filter(status=RunStatus.GRADED)
        .select_related("summary")
        .order_by("-number")
        .first()
    )
    pool = pool_state(drill=attempt.drill)
    if run is None:
        return AttemptResults(attempt=attempt, run=None, pool=pool)
    grades = run.grades.select_related("item").order_by("item__position", "question")
    if not with_tables:
        grades = grades.defer("item__document", "item__answer_key")
    every = list(grades)
    shown = [g for g in every if str(g.question) in (g.item.questions_shown or {})]
    if pool.sealed:
        for grade in shown:
            # These rows were read for this answer alone and are never saved.
            grade.expected = None
            grade.money_diff = None  # type: ignore[assignment]
            grade.category = _sealed_category(grade.category) or ""
    skills, not_reached, points = _by_skill(run)
    return AttemptResults(
        attempt=attempt,
        run=run,
        grades=shown,
        skills=skills,
        not_reached=len(every) - len(shown) if not_reached is None else not_reached,
        pool=pool,
        points=None if pool.sealed else points,
    )


def _by_skill(run: GradingRun) -> tuple[list[SkillResult], int | None, Decimal | None]:
    """The run's figures by skill and its questions not reached, as its summary holds them
    (trainer.tallies.skill_tallies: the questions shown that exercise each skill, once per
    skill, as the game says): the figures My record and the pit add up. Nothing when the run
    has no summary (every graded run has one: the grading service writes it, migration
    0025 and ``build_run_summaries`` the older ones); and the run's points lost."""
    try:
        summary = run.summary
    except GradingRunSummary.DoesNotExist:
        return [], None, None
    facets, not_reached, points = summary.facets, summary.not_reached, summary.points
    labels = skill_words()
    return (
        [
            SkillResult(skill, labels.get(skill, skill), tally.questions, tally.correct)
            for skill, tally in sorted(
                skill_tallies(facets).items(), key=lambda kv: labels.get(kv[0], kv[0])
            )
        ],
        not_reached,
        None if points is None else Decimal(str(points)),
    )


def seconds_left(
    *, attempt: Attempt, item: AttemptItem | None, question: int | None = None
) -> dict[str, int | None]:
    """Seconds left to answer the question being asked (from when it was first shown) and
    on the attempt's time box (None: no clock)."""
    now = timezone.now()
    question_left: int | None = None
    shown_text = (item.questions_shown or {}).get(str(question)) if item is not None else None
    shown_at = parse_datetime(shown_text) if shown_text else None
    if shown_at is not None:
        used = (now - shown_at).total_seconds()
        question_left = max(0, int(attempt.drill.time_limit_seconds - used))
    box_left = max(0, int((attempt.deadline - now).total_seconds())) if attempt.deadline else None
    return {"question": question_left, "box": box_left}


DUE_SOON = timedelta(hours=48)


@dataclass(frozen=True)
class AssignmentRow:
    """An assignment on the trainee's home page with their newest attempt at it."""

    assignment: Assignment
    latest: Attempt | None
    attempts: int
    # "overdue" (due date passed, never passed), "due soon" (within DUE_SOON), or "".
    due: str = ""
    # Its sittings (used, left, when the next opens, what stops a start) and whether a
    # start goes through the briefing (trainer.selectors.sittings).
    state: SittingState | None = None
    briefed: bool = False


@dataclass(frozen=True)
class TraineeHome:
    assignments: list[AssignmentRow]
    attempts: list[Attempt]
    graded: int
    passed: int
    average_score: Decimal | None


def trainee_home(*, user: AbstractBaseUser) -> TraineeHome:
    """The trainee's assignments with their latest attempts, past attempts and progress."""
    attempts = list(attempts_for_trainee(user=user))
    by_assignment: dict[int, list[Attempt]] = {}
    for attempt in attempts:
        if attempt.assignment_id is not None:
            by_assignment.setdefault(attempt.assignment_id, []).append(attempt)
    rows = []
    now = timezone.now()
    for assignment in assignments_for_trainee(user=user):
        mine = by_assignment.get(assignment.pk, [])
        due = ""
        if assignment.due_at is not None and not any(a.passed for a in mine):
            if assignment.due_at < now:
                due = "overdue"
            elif assignment.due_at - now <= DUE_SOON:
                due = "due soon"
        state = sitting_state_of(assignment, mine, now=now)
        briefed = needs_briefing(assignment, mode=assignment.mode)
        rows.append(
            AssignmentRow(assignment, mine[0] if mine else None, len(mine), due, state, briefed)
        )
    scores = [a.score for a in attempts if a.score is not None]
    average = (sum(scores, Decimal(0)) / len(scores)).quantize(Decimal("0.01")) if scores else None
    return TraineeHome(
        assignments=rows,
        attempts=attempts,
        graded=len(scores),
        passed=sum(1 for a in attempts if a.passed),
        average_score=average,
    )


def round_rules(item: AttemptItem) -> RuleProfileVersion:
    """The rules a round is dealt under, as the table's placard shows them: its table's
    version with the round's own rule changes on top (a scenario authored with some; a
    generated round's changes are its version's own, so they change nothing)."""
    stated = (item.document or {}).get("rules")
    changes = stated.get("overrides") if isinstance(stated, dict) else None
    version = item.profile_version
    if not changes:
        return version
    return RuleProfileVersion(
        profile=version.profile,
        version=version.version,
        parameters={**version.parameters, **changes},
        source=version.source,
    )


def open_attempt_time_limit(*, trainee_id: int) -> int | None:
    """The longest time to answer one question (seconds) among the trainee's attempts in
    progress, or None without one: an idle session is not ended while a question may
    still be being thought over (config.sessions)."""
    limits = Attempt.objects.filter(
        trainee_id=trainee_id, status=AttemptStatus.IN_PROGRESS
    ).values_list("drill__time_limit_seconds", flat=True)
    return max(limits, default=None)
