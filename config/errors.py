"""The product's own pages for a refusal and a missing page, in development too, and one
log line for each instead of a traceback; under /api/, the API's JSON error instead of any
page (Django's own 400, 403, 404 and 500, and a CSRF refusal)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.views import csrf, defaults

security_log = logging.getLogger("shoeschool.security")


def error_response(message: str, code: str, status: int) -> HttpResponse:
    # Imported here: the logging set-up loads this module (OneLineClientErrors) before the
    # apps, and the API's module imports DRF, which needs them.
    from trainer.api.exceptions import error_response as api_error

    return api_error(message, code, status)


def is_api(request: HttpRequest) -> bool:
    """Whether the request is the API's: every answer under /api/ is JSON, never a page."""
    return request.path_info.startswith("/api/")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403: templates/403.html with the refusal, logged with who and why."""
    user = getattr(request, "user", None)
    who = f"user {user.pk}" if user is not None and user.is_authenticated else "anonymous"
    security_log.warning(
        "refused %s %s to %s: %s", request.method, request.path, who, exception or "-"
    )
    if is_api(request):
        return error_response("you may not do this", "permission_denied", 403)
    return defaults.permission_denied(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: a request Django itself refused before any view (an unknown host, a
    body over the upload limit read outside the API's parser, too many fields)."""
    if is_api(request):
        if isinstance(exception, RequestDataTooBig):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            message = f"the request body is over the {limit:,} bytes limit"
            return error_response(message, "too_large", 413)
        return error_response("the request is malformed", "bad_request", 400)
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: the product's page, or the API's JSON 404 under /api/."""
    if is_api(request):
        return error_response("not found", "not_found", 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the product's page, or a JSON 500 under /api/ (the fault is logged with
    its traceback by django.request, and the request's transaction rolled back)."""
    if is_api(request):
        message = "the server failed to answer this request; the fault is logged"
        return error_response(message, "server_error", 500)
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the product's expired-form page, or a JSON 403 under /api/."""
    if is_api(request):
        message = "the request lacks a valid CSRF token: send X-CSRFToken with the csrftoken cookie"
        return error_response(message, "csrf_failed", 403)
    return csrf.csrf_failure(request, reason=reason)


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
            return page_not_found(request, Http404())
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
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
