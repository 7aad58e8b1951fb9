"""HTTP basic authentication that answers a locked-out client with the wait, not a guess."""

import copy
from typing import Any

from django.http import HttpRequest, QueryDict
from drf_spectacular.authentication import BasicScheme
from rest_framework import exceptions
from rest_framework.authentication import BasicAuthentication
from rest_framework.request import Request

from core.lockout import is_locked_out, lockout_message, wait_seconds


class LockoutBasicAuthentication(BasicAuthentication):
    """DRF's basic authentication already checks the password through ``authenticate``
    with the request, so axes counts each failure and refuses a locked-out client; this
    says so (429 with Retry-After) instead of "invalid username/password", which would
    send a locked-out user on trying, or a script on guessing."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        # axes keeps a failed login's form fields, read from request.POST. Handed DRF's
        # request, that parsed the body with the API's parsers (a wrong password sent with
        # a form body answered 415, not 403); handed Django's, a malformed multipart body
        # answered Django's own 400 page. Basic credentials never come from the body, so
        # axes is given a copy of the request without one.
        # The mark axes puts on a locked-out request lands on the copy too, so its middleware
        # does not answer with the login page's notice in place of the API's 429.
        assert request is not None  # DRF always authenticates a request
        if "\x00" in userid or "\x00" in password:
            # No account has one (the login form refuses it too); PostgreSQL cannot even
            # compare a text column with it, so it never reaches the database.
            raise exceptions.AuthenticationFailed("Invalid username/password.")
        plain: HttpRequest = copy.copy(request._request)
        plain.POST = QueryDict()
        try:
            # authenticate() is handed Django's request, as a login page hands it.
            return super().authenticate_credentials(userid, password, plain)  # type: ignore[arg-type]
        except exceptions.AuthenticationFailed:
            if is_locked_out(plain):
                raise exceptions.Throttled(
                    wait=wait_seconds(plain), detail=lockout_message(plain)
                ) from None
            raise


class LockoutBasicScheme(BasicScheme):
    """The OpenAPI schema describes it as plain HTTP basic authentication."""

    target_class = "trainer.api.authentication.LockoutBasicAuthentication"
