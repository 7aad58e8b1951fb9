"""Sessions end when the browser closes, after an idle time, and after a shift.

- The session cookie has no expiry date (SESSION_EXPIRE_AT_BROWSER_CLOSE): closing the
  browser ends it.
- Idle: a session not used for SHOESCHOOL_SESSION_IDLE_MINUTES (trainees) or
  SHOESCHOOL_SESSION_STAFF_IDLE_MINUTES (pit bosses, compliance officers, administrators,
  and any staff account) is signed out at its next request; a sign-in marked "This is a
  shared device" uses SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES if shorter. A trainee with a
  sitting in progress is not signed out within the drill's time for one question (a
  question can allow up to an hour), so thinking over a question never ends a sitting.
- Whatever the activity, a session ends SHOESCHOOL_SESSION_MAX_HOURS after the sign-in.

Activity is any request the person makes, a page or an answer; the pages' background
checks (the results and live sections, marked with the X-Shoe-School-Poll header) are
not activity, so a page left open does not keep a session alive. docs/security.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from core.roles import Role, roles_of
from trainer.selectors.attempts import open_attempt_time_limit

SEEN = "shoeschool_seen"
SINCE = "shoeschool_since"
SHARED = "shoeschool_shared"
POLL_HEADER = "HTTP_X_SHOE_SCHOOL_POLL"
# Activity is written to the session at most this often (seconds), not on every request.
RESOLUTION = 30
STAFF_ROLES = frozenset({Role.PIT_BOSS, Role.COMPLIANCE, Role.ADMIN})


def session_start(request: HttpRequest, *, shared: bool = False) -> None:
    """Mark a new session: when it began, when last used, and whether on a shared device."""
    now = int(time.time())
    request.session[SINCE] = now
    request.session[SEEN] = now
    request.session[SHARED] = shared
    # No expiry date on the cookie, whatever the settings: the browser's closing ends it.
    request.session.set_expiry(0)


@receiver(user_logged_in)
def _on_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        session_start(request)


def idle_minutes(user: Any, *, shared: bool) -> int:
    """How long this person's session may stay unused."""
    staff = bool(roles_of(user) & STAFF_ROLES) or bool(getattr(user, "is_staff", False))
    minutes = int(
        settings.SHOESCHOOL_SESSION_STAFF_IDLE_MINUTES
        if staff
        else settings.SHOESCHOOL_SESSION_IDLE_MINUTES
    )
    if shared:
        minutes = min(minutes, int(settings.SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES))
    return minutes


def _expired(request: HttpRequest, now: int) -> str | None:
    """Why the signed-in session must end now, or None."""
    session = request.session
    since = int(session.get(SINCE, now))
    if now - since > int(settings.SHOESCHOOL_SESSION_MAX_HOURS) * 3600:
        hours = settings.SHOESCHOOL_SESSION_MAX_HOURS
        return f"You were signed out {hours} hours after signing in. Sign in again."
    seen = int(session.get(SEEN, now))
    idle = now - seen
    minutes = idle_minutes(request.user, shared=bool(session.get(SHARED)))
    if idle <= minutes * 60:
        return None
    if Role.TRAINEE in roles_of(request.user):
        limit = open_attempt_time_limit(trainee_id=request.user.pk or 0)
        if limit is not None and idle <= limit + RESOLUTION * 2:
            return None
    return f"You were signed out after {minutes} minutes without activity. Sign in again."


class IdleSignOutMiddleware:
    """Signs out a session left idle too long (or past the shift's length); renews it on
    activity. After AuthenticationMiddleware and MessageMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated and hasattr(request, "session"):
            now = int(time.time())
            reason = _expired(request, now)
            if reason is not None:
                logout(request)
                messages.info(request, reason)
            elif (
                request.META.get(POLL_HEADER) != "1"
                and now - int(request.session.get(SEEN, 0)) >= RESOLUTION
            ):
                request.session[SEEN] = now
        return self.get_response(request)
