"""HTTP basic authentication that answers a locked-out client with the wait, not a guess."""

from typing import Any

from drf_spectacular.authentication import BasicScheme
from rest_framework import exceptions
from rest_framework.authentication import BasicAuthentication
from rest_framework.request import Request

from config.lockout import cooloff_minutes, is_locked_out, lockout_message


class LockoutBasicAuthentication(BasicAuthentication):
    """DRF's basic authentication already checks the password through ``authenticate``
    with the request, so axes counts each failure and refuses a locked-out client; this
    says so (429 with Retry-After) instead of "invalid username/password", which would
    send a locked-out user on trying, or a script on guessing."""

    def authenticate_credentials(
        self, userid: str, password: str, request: Request | None = None
    ) -> tuple[Any, None]:
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            if is_locked_out(request):
                raise exceptions.Throttled(
                    wait=cooloff_minutes() * 60, detail=lockout_message()
                ) from None
            raise


class LockoutBasicScheme(BasicScheme):
    """The OpenAPI schema describes it as plain HTTP basic authentication."""

    target_class = "trainer.api.authentication.LockoutBasicAuthentication"
