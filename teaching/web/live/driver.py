"""The instructor's live session pages (/teach/live/): open one, the projector page, its
polled status, the buttons that drive it, and the summary (page and CSV).

Thin: the services in teaching.services.live_sessions / live_questions change things, the
selectors in teaching.selectors.live_sessions read. The page is drawn by the server and
redrawn when the session's version moves; the counts between are read by its poll
(static/js/live-session.js; docs/architecture.md, *Live class sessions*).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import pages
from core.access import role_required
from core.errors import CHOICE_ERRORS, NotFoundError, ProductError
from teaching.selectors import live_sessions as live
from teaching.selectors.drills import drills_visible_to
from teaching.services import live_questions as drive
from teaching.services.live_sessions import live_session_open
from teaching.web.live.choose import SOURCE, classes_led_by, picking
from trainer.models import DrillPurpose, LiveQuestionState


def teach_view(view: Any) -> Any:
    return role_required(*pages.WORKSPACE.roles, refusal=pages.WORKSPACE.refusal)(view)


def _me(request: HttpRequest) -> AbstractBaseUser:
    assert request.user.is_authenticated
    return request.user


class OpenForm(forms.Form):
    training_class: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, label="Class", empty_label="Choose a class", error_messages=CHOICE_ERRORS
    )
    drill: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, label="Drill", empty_label="Choose a drill", error_messages=CHOICE_ERRORS
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["training_class"].queryset = classes_led_by(user)  # type: ignore[attr-defined]
        self.fields["drill"].queryset = (  # type: ignore[attr-defined]
            drills_visible_to(user=user)
            .filter(is_active=True)
            .exclude(purpose=DrillPurpose.EXAM)
            .order_by("title")
        )


@require_http_methods(["GET", "POST"])
@teach_view
def index(request: HttpRequest) -> HttpResponse:
    """The instructor's sessions, and the form that opens a new one."""
    user = _me(request)
    chosen = picking(request, user)
    if chosen.session is not None:
        return redirect("teach:live", session_id=chosen.session.pk)
    from_drill = request.method == "POST" and request.POST.get("source") != SOURCE
    form = OpenForm(request.POST if from_drill else None, user=user)
    status = chosen.status
    if from_drill and form.is_valid():
        try:
            session = live_session_open(
                user=user,
                training_class=form.cleaned_data["training_class"],
                drill=form.cleaned_data["drill"],
            )
        except ProductError as error:
            if error.status in (403, 404):
                raise
            form.add_error(error.field if error.field in form.fields else None, error.message)
            status = error.status
        else:
            return redirect("teach:live", session_id=session.pk)
    elif from_drill:
        status = 400
    sessions = live.live_sessions_for_driver(user=user)
    context = {"form": form, "sessions": sessions, "picking": chosen}
    return render(request, "trainer/workspace/live_index.html", context, status=status)


@require_GET
@teach_view
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    """The projector page: the table, who joined, the clock, the counts and the buttons."""
    session = live.live_session_for_driver(session_id=session_id, user=_me(request))
    question = session.questions.get(number=session.current)
    shown = live.table_shown(session, question)
    status = live.driver_status(session=session)
    names = []
    if session.show_names and question.state in (
        LiveQuestionState.CLOSED,
        LiveQuestionState.REVEALED,
    ):
        names = live.answers_by_name(session, question)
    context = {
        **shown.context,
        "session": session,
        "live_question": question,
        "question": shown.question,
        "table_template": shown.game.table_template,
        "placard": shown.placard,
        "questions": session.questions.count(),
        "status": status,
        "reveal": live.reveal_of(session, question, shown),
        "names": names,
        "elapsed": _elapsed(question),
        "join_url": request.build_absolute_uri("/train/live/"),
    }
    return render(request, "trainer/workspace/live_session.html", context)


def _elapsed(question: Any) -> int | None:
    if question.opened_at is None:
        return None
    end = question.closed_at or timezone.now()
    return int((end - question.opened_at).total_seconds())


@require_GET
@teach_view
def status(request: HttpRequest, session_id: int) -> JsonResponse:
    session = live.live_session_for_driver(session_id=session_id, user=_me(request))
    return JsonResponse(live.driver_status(session=session))


Action = Callable[..., Any]
ACTIONS: dict[str, Action] = {
    "open": drive.live_session_question_open,
    "close": drive.live_session_close,
    "reveal": drive.live_session_reveal,
    "next": drive.live_session_next,
    "pause": drive.live_session_pause,
    "resume": drive.live_session_resume,
    "end": drive.live_session_end,
}


@require_POST
@teach_view
def act(request: HttpRequest, session_id: int, action: str) -> HttpResponse:
    """One button: the service of that name; a refusal is said on the page."""
    session = live.live_session_for_driver(session_id=session_id, user=_me(request))
    try:
        if action == "names":
            drive.live_session_names(
                session=session, user=_me(request), shown=request.POST.get("shown") == "yes"
            )
        elif action in ACTIONS:
            ACTIONS[action](session=session, user=_me(request))
        else:
            raise NotFoundError("no such button")
    except ProductError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
    else:
        if action == "end":
            return redirect("teach:live-summary", session_id=session.pk)
    return redirect("teach:live", session_id=session.pk)


urlpatterns = [
    path("live/", index, name="live-index"),
    path("live/<id:session_id>/", session_page, name="live"),
    path("live/<id:session_id>/status", status, name="live-status"),
    path("live/<id:session_id>/<slug:action>/", act, name="live-act"),
]
