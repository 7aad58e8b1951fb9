"""The trainee's side of a live session (/train/live/): join (from My training, or by
the code on the projector), the seat page and its polled status.

The seat page draws the question on the table with the drill page's own table and answer
form (trainer/_answer_form.html, static/js/table.js), which post to the one answer path
(train:answer); the answer view sends a class session's trainee back here. It is locked
(no form) until the instructor opens the question and after the close; after the reveal
the trainee's own answer stands beside the right one.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods

from core import pages
from core.access import role_required
from core.errors import ProductError
from teaching.selectors import live_sessions as live
from teaching.services.live_sessions import live_session_join
from trainer.models import LiveQuestionState, LiveSession, LiveSessionState
from trainer.selectors.live import live_sessions_joinable

app_name = "live"


def seat_view(view: Any) -> Any:
    return role_required(*pages.TRAINING.roles, refusal=pages.TRAINING.refusal)(view)


def _me(request: HttpRequest) -> AbstractBaseUser:
    assert request.user.is_authenticated
    return request.user


@require_http_methods(["GET", "POST"])
@seat_view
def join(request: HttpRequest) -> HttpResponse:
    """The code typed from the projector, or My training's button for a class's session."""
    user = _me(request)
    error = None
    if request.method == "POST":
        session = None
        if request.POST.get("session"):
            session = LiveSession.objects.filter(pk=_number(request.POST["session"])).first()
        try:
            attempt = live_session_join(
                user=user, session=session, code=request.POST.get("code", "")
            )
        except ProductError as refused:
            if refused.status == 403:
                raise
            error = refused
        else:
            return redirect("live:seat", attempt_id=attempt.pk)
    context = {"sessions": live_sessions_joinable(user=user), "error": error}
    return render(request, "trainer/live_join.html", context, status=error.status if error else 200)


def _number(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 12 else 0


@require_GET
@seat_view
def seat(request: HttpRequest, attempt_id: int) -> HttpResponse:
    attempt = live.seat_for_trainee(attempt_id=attempt_id, user=_me(request))
    session = attempt.live_session
    assert session is not None
    question = session.questions.get(number=session.current)
    context: dict[str, Any] = {
        "attempt": attempt,
        "session": session,
        "live_question": question,
        "questions": session.questions.count(),
        "ended": session.state == LiveSessionState.ENDED,
        "paused": session.state == LiveSessionState.PAUSED,
    }
    if not context["ended"] and question.state != LiveQuestionState.WAITING:
        mine = live.own_answer(attempt, question)
        shown = live.table_shown(session, question)
        context.update(shown.context)
        context.update(
            {
                "question": shown.question,
                "table_template": shown.game.table_template,
                "placard": shown.placard,
                "answering": question.state == LiveQuestionState.OPEN and mine is None,
                "mine": shown.game.answer_words(mine.answer) if mine else "",
                "reveal": live.reveal_of(session, question, shown),
                "right": mine is not None and shown.game.compare(shown.key, mine.answer).right,
                "posted": {},
            }
        )
    return render(request, "trainer/live_seat.html", context)


@require_GET
@seat_view
def status(request: HttpRequest, attempt_id: int) -> JsonResponse:
    return JsonResponse(live.seat_status(attempt_id=attempt_id, user=_me(request)))


urlpatterns = [
    path("", join, name="join"),
    path("<id:attempt_id>/", seat, name="seat"),
    path("<id:attempt_id>/status", status, name="status"),
]
