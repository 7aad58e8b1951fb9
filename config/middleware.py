"""What every page and API answer needs, whatever view makes it: its user, and the
response headers."""

from collections.abc import Callable
from typing import Any

from django.contrib import auth
from django.contrib.auth import middleware
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject

from core.auth import session_being_read


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    """Django's, whose user is read with the session where it can be: the session's read
    brought the user's row (config.session_store), and the backend takes it while the user
    is read here (core.auth). Everything else is Django's own: which user the signed
    session data names, the backend it names, the password hash check that signs a session
    out after a password change, the refusal of an inactive account."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user(request))  # type: ignore[assignment]


def _user(request: HttpRequest) -> Any:
    # As django.contrib.auth.middleware.get_user: read once a request.
    if not hasattr(request, "_cached_user"):
        token = session_being_read.set(request.session)  # type: ignore[arg-type]
        try:
            request._cached_user = auth.get_user(request)  # type: ignore[attr-defined]
        finally:
            session_being_read.reset(token)
    return request._cached_user  # type: ignore[attr-defined]


class NoStoreWhenSignedInMiddleware:
    """Nothing shown to a signed-in user is kept by a browser's or a proxy's cache.

    Results pages show the expected answers and the pit's pages a trainee's record: the
    shared tablets of a training room must not show them again from the cache, through
    the back button or to the next user. Static files never reach here (whitenoise
    answers them first), so they stay cacheable.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # DRF's basic authentication sets the user on this request too.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response
