"""The product's own pages for a refusal and a missing page, in development too, and one
log line for each instead of a traceback."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.views import defaults

security_log = logging.getLogger("shoeschool.security")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403: templates/403.html with the refusal, logged with who and why."""
    user = getattr(request, "user", None)
    who = f"user {user.pk}" if user is not None and user.is_authenticated else "anonymous"
    security_log.warning(
        "refused %s %s to %s: %s", request.method, request.path, who, exception or "-"
    )
    return defaults.permission_denied(request, exception)


class ProductErrorPagesMiddleware:
    """With DEBUG on, Django answers a missing page with its technical page, which lists
    every URL of the site: the product's own page is shown instead, so development looks
    as production does. (A refusal already uses handler403 whatever DEBUG says.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # No view matched the address: the 404 is Django's own, made before any view ran.
        if settings.DEBUG and response.status_code == 404 and request.resolver_match is None:
            return defaults.page_not_found(request, Http404())
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404):
            return defaults.page_not_found(request, exception)
        return None


class OneLineClientErrors(logging.Filter):
    """django.request logs a 403 with the PermissionDenied's traceback, though a refusal is
    not a fault: permission_denied has logged it already, as one line with who and why,
    so that record is dropped. Any other 4xx line stays, without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is None or status >= 500:
            return True
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            return False
        record.exc_info = None
        record.exc_text = None
        return True
