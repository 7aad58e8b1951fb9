"""The trainee's pages: home, the table, practice feedback and results.

Views parse the request, call one service or selector and render. Every page is for
trainees only (403 otherwise), and an attempt that is not the trainee's answers 404.

A little over 400 lines: the table and its answer share the reading of a posted answer
(the buttons, the chips and stacks of the rack), kept beside the two pages that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from core import pages
from core.access import role_required
from core.errors import ConflictError, NotFoundError, ProductError
from trainer.games import Game, game_named
from trainer.games.marking import MONEY
from trainer.labels import category_label
from trainer.models import AttemptStatus, Mode
from trainer.selectors.attempts import (
    assignments_for_trainee,
    attempt_current_question,
    attempt_feedback,
    attempt_get_for_user,
    attempt_progress,
    attempt_results,
    drill_get_active,
    practice_drills,
    round_decisions,
    round_feedback,
    round_rules,
    seconds_left,
    trainee_home,
)
from trainer.selectors.live import live_sessions_joinable
from trainer.selectors.sittings import needs_briefing
from trainer.services.attempts import (
    attempt_question_show,
    attempt_start,
    attempt_submit,
    decision_record,
)
from trainer.web.briefing import briefing_page

View = Callable[..., HttpResponse]


def _me(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in user (every page here requires one)."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    return user


def trainee_page(view: View) -> View:
    """Trainees only; ProductError becomes a 404, a 403, or the page with its message."""

    @role_required(*pages.TRAINING.roles, refusal=pages.TRAINING.refusal)
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ProductError as exc:
            if exc.status in (403, 404):
                raise
            attempt_id = kwargs.get("attempt_id")
            if attempt_id is not None:
                return _table(request, attempt_id, error=exc, posted=request.POST)
            return render(request, "trainer/refused.html", {"error": exc}, status=exc.status)

    return wrapped


@require_GET
@trainee_page
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "home": trainee_home(user=_me(request)),
        "practice_drills": practice_drills(user=_me(request)),
        "live_sessions": live_sessions_joinable(user=_me(request)),
    }
    return render(request, "trainer/home.html", context)


def _int(value: str | None, field: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise ProductError(f"{field} must be a number", field=field) from None


@require_POST
@trainee_page
def start(request: HttpRequest) -> HttpResponse:
    drill = drill_get_active(drill_id=_int(request.POST.get("drill"), "drill"))
    assignment = None
    if request.POST.get("assignment"):
        assignment_id = _int(request.POST.get("assignment"), "assignment")
        assignment = assignments_for_trainee(user=_me(request)).filter(pk=assignment_id).first()
        if assignment is None:
            raise NotFoundError("no such assignment", field="assignment")
    mode = request.POST.get("mode") or (assignment.mode if assignment else Mode.PRACTICE)
    if assignment is not None and needs_briefing(assignment, mode=mode):
        if request.POST.get("briefed") != "yes":
            # Not through the briefing (a stale form, a script): read it first.
            return redirect("train:briefing", assignment_id=assignment.pk)
        try:
            attempt = attempt_start(
                trainee=_me(request), drill=drill, mode=mode, assignment=assignment
            )
        except ConflictError as refused:
            # The refusal beside what it is about: the sittings and the next one's time.
            return briefing_page(request, assignment.pk, error=refused)
        return redirect("train:table", attempt_id=attempt.pk)
    attempt = attempt_start(trainee=_me(request), drill=drill, mode=mode, assignment=assignment)
    return redirect("train:table", attempt_id=attempt.pk)


@require_GET
@trainee_page
def briefing(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """What the sitting is and what a pass counts for; its Start button posts to start."""
    return briefing_page(request, assignment_id)


def _table(
    request: HttpRequest,
    attempt_id: int,
    *,
    error: ProductError | None = None,
    posted: Mapping[str, Any] | None = None,
) -> HttpResponse:
    attempt = attempt_get_for_user(attempt_id=attempt_id, user=_me(request))
    if attempt.live_session_id is not None:
        # A class session's questions are asked on its own page (teaching.web.live.seat).
        if error is not None:
            messages.error(request, error.message)
        return redirect("live:seat", attempt_id=attempt.pk)
    question = attempt_question_show(attempt=attempt, user=_me(request))
    if question is None:
        attempt.refresh_from_db()
        if attempt.status != AttemptStatus.IN_PROGRESS:
            if error is not None:
                messages.error(request, error.message)
            return redirect("train:results", attempt_id=attempt.pk)
        return render(request, "trainer/all_answered.html", {"attempt": attempt})
    current = attempt_current_question(attempt=attempt)
    assert current is not None  # a question was just shown
    item = current.item
    decisions = round_decisions(item=item)
    game = game_named(attempt.drill.game)
    prompts = {
        key["n"]: game.question_words(key, item.document, note=False) for key in item.answer_key
    }
    rules_shown = round_rules(item)
    # The game's part of the page: its table, answer form and words (Presenting.table_page).
    shown = game.table_page(
        question, item.document or {}, parameters=rules_shown.parameters, posted=posted
    )
    placard = rules_shown.placard
    if shown.get("work_rule"):
        placard = f"{placard} · {shown['work_rule']}"
    context = {
        **shown,
        "attempt": attempt,
        "item": item,
        "question": question,
        "table_template": game.table_template,
        "placard": placard,
        "house_rules": rules_shown.house_rules,
        "profile": rules_shown,
        "so_far": [
            (d.question, prompts[d.question], game.answer_words(d.answer)) for d in decisions
        ],
        "clock": seconds_left(attempt=attempt, item=item, question=current.n),
        "error": error,
        "posted": posted or {},
    }
    status = error.status if error is not None else 200
    return render(request, "trainer/table.html", context, status=status)


@require_GET
@trainee_page
def table(request: HttpRequest, attempt_id: int) -> HttpResponse:
    return _table(request, attempt_id)


@require_POST
@trainee_page
def answer(request: HttpRequest, attempt_id: int) -> HttpResponse:
    attempt = attempt_get_for_user(attempt_id=attempt_id, user=_me(request))
    position = _int(request.POST.get("position"), "position")
    decision, _ = decision_record(
        attempt=attempt,
        user=_me(request),
        position=position,
        question=_int(request.POST.get("question"), "question"),
        answer=game_named(attempt.drill.game).form_answer(request.POST),
    )
    item = decision.item
    if attempt.live_session_id is not None:
        return redirect("live:seat", attempt_id=attempt.pk)
    if attempt.mode == Mode.PRACTICE and decision.question == len(item.answer_key):
        return redirect("train:feedback", attempt_id=attempt.pk, position=position)
    return redirect("train:table", attempt_id=attempt.pk)


def _cost_words(game: Game) -> dict[str, Any]:
    """The context of the note on what an answer's cost counts (trainer/_amount_note.html):
    money's words for a money game, a points game's own words for its point."""
    counts_money = game.cost_unit == MONEY
    return {"counts_money": counts_money, "point_words": "" if counts_money else game.point_words}


@require_GET
@trainee_page
def feedback(request: HttpRequest, attempt_id: int, position: int) -> HttpResponse:
    attempt = attempt_get_for_user(attempt_id=attempt_id, user=_me(request))
    rows = round_feedback(attempt=attempt, position=position)
    game = game_named(attempt.drill.game)
    context = {
        "attempt": attempt,
        # A pool exam still open: no row carries its expected answer (see results).
        "sealed": any(row.expected is None for row in rows),
        "position": position,
        "rounds": attempt.items.count(),
        "rows": [
            (
                row,
                game.answer_words(row.given),
                game.answer_words(row.expected),
                category_label(row.category, game=game.name),
                game.rule_words(row.rule),
                game.answer_drawing(row.given),
                game.answer_drawing(row.expected),
            )
            for row in rows
        ],
        "right": sum(1 for row in rows if row.right),
        "more": attempt_current_question(attempt=attempt, count_rounds=False) is not None,
        **_cost_words(game),
    }
    return render(request, "trainer/feedback.html", context)


@require_POST
@trainee_page
def submit(request: HttpRequest, attempt_id: int) -> HttpResponse:
    """Ending an attempt early asks first: what is left unanswered counts against it."""
    attempt = attempt_get_for_user(attempt_id=attempt_id, user=_me(request))
    unanswered = attempt_current_question(attempt=attempt, count_rounds=False) is not None
    if (
        attempt.status == AttemptStatus.IN_PROGRESS
        and unanswered
        and request.POST.get("confirm") != "yes"
    ):
        context = {"attempt": attempt, "progress": attempt_progress(attempt=attempt)}
        return render(request, "trainer/confirm_submit.html", context)
    attempt_submit(attempt=attempt, user=_me(request))
    return redirect("train:results", attempt_id=attempt.pk)


@require_GET
@trainee_page
def results(request: HttpRequest, attempt_id: int) -> HttpResponse:
    attempt = attempt_get_for_user(attempt_id=attempt_id, user=_me(request))
    if attempt.status == AttemptStatus.IN_PROGRESS:
        return redirect("train:table", attempt_id=attempt.pk)
    outcome = attempt_results(attempt=attempt, user=_me(request), with_tables=True)
    game = game_named(attempt.drill.game)
    # A pool exam still open (outcome.sealed): the grades carry no expected answer; the
    # page shows the rule instead.
    grades = [
        (
            grade,
            game.question_words(
                grade.item.answer_key[grade.question - 1], grade.item.document, note=False
            ),
            game.answer_words(grade.given),
            game.answer_words(grade.expected),
            game.answer_drawing(grade.given),
            game.answer_drawing(grade.expected),
            game.rule_words(grade.rule),
        )
        for grade in outcome.grades
    ]
    # Before grading, practice and speed already show the engine's verdicts; an exam nothing.
    engine_rounds = []
    if not outcome.graded and attempt.mode != Mode.EXAM:
        engine_rounds = [
            (
                position,
                [
                    (
                        r,
                        game.answer_words(r.given),
                        game.answer_words(r.expected),
                        game.answer_drawing(r.given),
                        game.answer_drawing(r.expected),
                        game.rule_words(r.rule),
                    )
                    for r in rows
                ],
            )
            for position, rows in attempt_feedback(attempt=attempt)
        ]
    context = {
        "attempt": attempt,
        "outcome": outcome,
        "grades": grades,
        "engine_rounds": engine_rounds,
        "waiting": attempt.grading_status in ("pending", "grading"),
        **_cost_words(game),
    }
    return render(request, "trainer/results.html", context)
