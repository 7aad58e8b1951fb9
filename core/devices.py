"""Known devices: a browser where someone signed in is remembered, for them, in a cookie.

After a successful sign-in on the login page the browser gets a long-lived, signed cookie
holding a random device id and a keyed digest of each username that signed in there
(never the names themselves, and never for a sign-in marked "This is a shared device").
The lockout (core.lockout) treats a browser that is *known* for a username differently:
wrong passwords typed elsewhere for that username neither lock nor slow it; its own wrong
passwords are counted on their own and lock it after the same limit. docs/security.md.

The cookie grants nothing by itself: it is no session and opens no page. Forging one needs
SECRET_KEY; a copied one only moves its holder from "somebody else's wrong passwords slow
you down" to "your own wrong passwords lock you", the same limit as anybody's.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponseBase
from django.utils.crypto import salted_hmac

from core.usernames import username_key

COOKIE = "shoeschool_device"
SALT = "shoeschool.device"
# A shared tablet remembers at most this many people; the oldest is forgotten first.
MAX_NAMES = 20
LIFETIME = timedelta(days=365)


@dataclass(frozen=True)
class Device:
    """A browser that holds a valid device cookie: its id and whom it knows."""

    id: str
    names: tuple[str, ...]

    @property
    def marker(self) -> str:
        """How the lockout's records name this device (never the cookie's secret itself)."""
        return "device:" + hashlib.sha256(self.id.encode()).hexdigest()[:32]

    def knows(self, username: str | None) -> bool:
        return bool(username) and name_digest(str(username)) in self.names


def name_digest(username: str) -> str:
    """A keyed digest of a username, as the cookie holds it (in NFKC, ignoring case, as the
    lockout counts it)."""
    return salted_hmac(SALT, username_key(username)).hexdigest()[:24]


def device_of_cookie(raw: str | None) -> Device | None:
    """The device a cookie's value stands for, if this site signed it and it is still valid."""
    if not raw:
        return None
    try:
        payload = signing.loads(raw, salt=SALT, max_age=LIFETIME)
    except signing.BadSignature:
        return None
    if (
        isinstance(payload, dict)
        and isinstance(payload.get("d"), str)
        and isinstance(payload.get("u"), list)
        and all(isinstance(name, str) for name in payload["u"])
    ):
        return Device(id=payload["d"], names=tuple(payload["u"][-MAX_NAMES:]))
    return None


def device_of(request: HttpRequest) -> Device | None:
    """The request's device, if its cookie is one this site signed and still valid."""
    cached: Device | bool | None = getattr(request, "_shoeschool_device", False)
    if cached is not False:
        return cached if isinstance(cached, Device) else None
    device = device_of_cookie(request.COOKIES.get(COOKIE))
    request._shoeschool_device = device  # type: ignore[attr-defined]
    return device


def device_remember(
    request: HttpRequest, response: HttpResponseBase, *, username: str, remember: bool
) -> None:
    """After a successful sign-in: give the browser a device cookie (renewed), knowing
    ``username`` if ``remember``, and forgetting it otherwise (a shared device)."""
    device = device_of(request)
    device_id = device.id if device else secrets.token_urlsafe(32)
    digest = name_digest(username)
    names = [name for name in (device.names if device else ()) if name != digest]
    if remember:
        names.append(digest)
    value = signing.dumps({"d": device_id, "u": names[-MAX_NAMES:]}, salt=SALT)
    response.set_cookie(
        COOKIE,
        value,
        max_age=int(LIFETIME.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=bool(settings.SESSION_COOKIE_SECURE),
    )
