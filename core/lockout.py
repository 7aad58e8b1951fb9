"""Password guessing: what django-axes locks, what it only slows down, and what it says.

Every password check goes through ``django.contrib.auth.authenticate`` with the request
(the login page, the admin's login, the API's basic authentication, a pit boss's sign-off,
the change-password form), so axes' backend asks this module's handler whether the client
may try, and its signal handler records each wrong password. docs/security.md, *A password
guesser*, explains the choices:

- **Locked: a username from one place.** ``SHOESCHOOL_LOGIN_FAILURE_LIMIT`` wrong passwords
  for one username from one address lock that username *from that address* (axes'
  lockout parameters ``[["username", "ip_address"]]``), or, from a browser known for that
  username (core.devices), from that browser alone. Nobody elsewhere is locked by them.
- **Slowed: a username from everywhere, an address for everyone.** Past the same limit for a
  username counted over every address, or ``SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT`` from
  one address over every username, a try must wait a delay that doubles with each further
  wrong password (1 s, 2 s, 4 s …, at most ``SHOESCHOOL_LOGIN_DELAY_MAX_SECONDS``) after
  the last one; a try too soon is refused unchecked and not counted. A browser known for
  the username is never slowed, and the address's delay spares any browser where someone
  signed in before; a signed-in person re-entering their own password is not slowed.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from core.devices import device_of
from core.usernames import username_key

LOCKED = "locked"
SLOWED = "slowed"


@dataclass(frozen=True)
class Refusal:
    """Why a password check was refused before the password was looked at, and how long
    until it may be tried again."""

    kind: str  # LOCKED or SLOWED
    seconds: int


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def refusal_of(request: Any) -> Refusal:
    found = getattr(request, "shoeschool_refusal", None)
    if isinstance(found, Refusal):
        return found
    return Refusal(LOCKED, cooloff_minutes() * 60)


def wait_seconds(request: Any) -> int:
    """How long the refused client should wait (the API's Retry-After)."""
    return max(1, refusal_of(request).seconds)


def lockout_message(request: Any = None) -> str:
    refusal = refusal_of(request)
    if refusal.kind == SLOWED:
        unit = "second" if refusal.seconds == 1 else "seconds"
        return (
            "Too many wrong passwords have been tried for this account, or from this "
            "computer's network. To protect it, signing in is slowed down: try again in "
            f"{refusal.seconds} {unit}. A computer where you signed in before (not as a "
            "shared device) is not slowed down."
        )
    minutes = max(1, math.ceil(refusal.seconds / 60))
    return (
        "Too many wrong passwords. Signing in to this account from this computer or its "
        f"network is paused for {minutes} minutes. Wait, then try again; if you need in "
        "sooner, ask your pit boss or an administrator to have it unlocked."
    )


def is_locked_out(request: Any) -> bool:
    """Whether axes refused or locked the request's last password check."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_claim(request: Any) -> bool:
    """Whether the last password check was refused for a lockout, taking axes' mark off the
    request: its middleware would otherwise put the login page's lockout notice in place
    of the page, for a caller that tells the user itself (the sign-off form)."""
    locked = is_locked_out(request)
    if locked:
        request.axes_locked_out = False
    return locked


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """The page shown in place of the login page while the client is refused."""
    refusal = refusal_of(request)
    response = render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(request), "slowed": refusal.kind == SLOWED},
        status=429,
    )
    response["Retry-After"] = str(wait_seconds(request))
    return response


def client_address(request: HttpRequest) -> str | None:
    """The address a failure is counted against.

    Behind SHOESCHOOL_PROXY_COUNT reverse proxies, each appends the address it saw to
    X-Forwarded-For, so the client is that many entries from the right; anything further
    left was written by the client and could name any address. Without proxies the
    socket's address is the client.
    """
    remote = request.META.get("REMOTE_ADDR")
    proxies = int(getattr(settings, "SHOESCHOOL_PROXY_COUNT", 0))
    if proxies <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < proxies:
        return remote
    candidate = hops[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def lockout_parameters(request: Any, credentials: dict[str, Any] | None = None) -> list[Any]:
    """Axes' lockout parameters for this try (AXES_LOCKOUT_PARAMETERS): the username
    combined with the browser if it is known for that username, else with the address.
    (The browser is recorded in axes' user-agent column, see ``_mark_device``.)"""
    if isinstance(request, HttpRequest) and _known_for(request, credentials):
        return [["username", "user_agent"]]
    return [["username", "ip_address"]]


def _known_for(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    device = device_of(request)
    return device is not None and device.knows(get_client_username(request, credentials))


def _mark_device(request: Any) -> None:
    """Record the browser in axes' user-agent column: its device marker when it holds a
    device cookie, else its User-Agent header behind a prefix no marker has (so that no
    client can pose as a device by its header)."""
    if getattr(request, "_shoeschool_marked", False) or not isinstance(request, HttpRequest):
        return
    device = device_of(request)
    if device is not None:
        request.axes_user_agent = device.marker  # type: ignore[attr-defined]
    else:
        header = str(request.META.get("HTTP_USER_AGENT", "<unknown>"))
        request.axes_user_agent = ("browser: " + header)[:255]  # type: ignore[attr-defined]
    request._shoeschool_marked = True  # type: ignore[attr-defined]


def growing_delay(failures: int, free: int) -> int:
    """Seconds to wait after the last wrong password: none under ``free``, then 1 s,
    doubling with each further one, at most SHOESCHOOL_LOGIN_DELAY_MAX_SECONDS."""
    if failures < free:
        return 0
    cap = int(settings.SHOESCHOOL_LOGIN_DELAY_MAX_SECONDS)
    return int(min(cap, 2 ** min(failures - free, 30)))


def _remaining(attempts: QuerySet[AccessAttempt], free: int, now: datetime) -> int:
    figures = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    delay = growing_delay(figures["failures"] or 0, free)
    if not delay or figures["last"] is None:
        return 0
    return max(0, math.ceil(delay - (now - figures["last"]).total_seconds()))


class DeviceAwareHandler(AxesDatabaseHandler):
    """Axes' database handler: locks by username and address (or known device), and slows
    down rather than locks a username tried from many places or an address trying many."""

    def is_allowed(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        _mark_device(request)
        if not super().is_allowed(request, credentials):
            request.shoeschool_refusal = Refusal(LOCKED, self._lock_remaining(request, credentials))
            return False
        wait = self._delay(request, credentials)
        if wait > 0:
            request.shoeschool_refusal = Refusal(SLOWED, wait)
            return False
        return True

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        _mark_device(request)
        return int(super().get_failures(request, credentials))

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        _mark_device(request)
        super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        _mark_device(request)
        super().user_logged_in(sender, request, user, **kwargs)

    def _lock_remaining(self, request: Any, credentials: dict[str, Any] | None) -> int:
        last = max(
            (
                found
                for attempts in self.get_user_attempts(request, credentials)
                if (found := attempts.aggregate(last=Max("attempt_time"))["last"]) is not None
            ),
            default=None,
        )
        if last is None:
            return cooloff_minutes() * 60
        ends = last + settings.AXES_COOLOFF_TIME
        return max(1, math.ceil((ends - timezone.now()).total_seconds()))

    def _delay(self, request: Any, credentials: dict[str, Any] | None) -> int:
        username = get_client_username(request, credentials)
        if not username or _known_for(request, credentials):
            return 0
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and username_key(user.get_username()) == username
        ):
            # Re-entering one's own password while signed in (the sign-off, a password
            # change): only the lock applies, so others' guesses do not stop the signer.
            return 0
        now = timezone.now()
        recent = AccessAttempt.objects.filter(attempt_time__gte=now - settings.AXES_COOLOFF_TIME)
        wait = _remaining(recent.filter(username=username), int(settings.AXES_FAILURE_LIMIT), now)
        if device_of(request) is None:
            address_limit = int(settings.SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT)
            address = getattr(request, "axes_ip_address", None)
            wait = max(wait, _remaining(recent.filter(ip_address=address), address_limit, now))
        return wait


@dataclass(frozen=True)
class LockoutState:
    """Wrong passwords counted against one username within the cool-off: how many, when
    the last was, and whether signing in is refused somewhere for them (locked from an
    address or browser, or slowed from everywhere)."""

    failures: int
    last: datetime
    locked: bool


def lockout_states(usernames: list[str] | None = None) -> dict[str, LockoutState]:
    """The usernames (their lockout keys) refused somewhere now, in one query; all of
    them, or those of ``usernames`` (as typed: their keys are compared)."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    recent = AccessAttempt.objects.filter(attempt_time__gte=since)
    if usernames is not None:
        recent = recent.filter(username__in={username_key(name) for name in usernames})
    limit = int(settings.AXES_FAILURE_LIMIT)
    states: dict[str, LockoutState] = {}
    for row in recent.values("username").annotate(
        failures=Sum("failures_since_start"),
        worst=Max("failures_since_start"),
        last=Max("attempt_time"),
    ):
        if row["worst"] >= limit or row["failures"] >= limit:
            states[row["username"]] = LockoutState(
                failures=int(row["failures"]), last=row["last"], locked=True
            )
    return states


def lockout_state(username: str) -> LockoutState | None:
    """This username's lockout now, or None if it may sign in from anywhere."""
    return lockout_states([username]).get(username_key(username))


def lockout_clear(username: str) -> int:
    """Forget every wrong password counted against this username, from every address and
    browser: it may sign in at once. Returns how many records were removed. Only the
    administrators' unlock calls it (teaching.services.people), which records who did."""
    deleted, _ = AccessAttempt.objects.filter(username=username_key(username)).delete()
    return int(deleted)
