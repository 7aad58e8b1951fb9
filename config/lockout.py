"""Password guessing: how django-axes locks an account or an address, and what it says.

Every password check goes through ``django.contrib.auth.authenticate`` with the request
(the login page, the admin's login, the API's basic authentication, a pit boss's sign-off),
so axes' backend refuses a locked-out client and its signal handler counts each failure.
docs/security.md explains the choices.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_message() -> str:
    return (
        f"Too many wrong passwords. Signing in is paused for {cooloff_minutes()} minutes "
        "for this account, or for this computer's network. Wait, then try again; if you "
        "need in sooner, ask your pit boss or an administrator to unlock it."
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
    """The page shown in place of the login page once the client is locked out."""
    return render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(), "minutes": cooloff_minutes()},
        status=429,
    )


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


class AccountAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit for an account and a higher one for an address.

    A training room's tablets share one address, so the account's limit would lock the
    whole room after a few trainees' typos; a guesser spraying one password over many
    accounts is still stopped by the address's limit. Axes compares one count with one
    limit (AXES_FAILURE_LIMIT, the account's): the address's count is scaled so that it
    reaches that limit exactly at SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT.
    """

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        # One queryset per entry of AXES_LOCKOUT_PARAMETERS: ["username", "ip_address"].
        by_account, by_address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        account_limit = int(settings.AXES_FAILURE_LIMIT)
        address_limit = int(settings.SHOESCHOOL_LOGIN_ADDRESS_FAILURE_LIMIT)
        return max(by_account, by_address * account_limit // address_limit)
