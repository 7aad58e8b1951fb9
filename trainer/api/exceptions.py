"""Every API error, whatever raised it, as one JSON shape: ``{"error", "field", "code"}``."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ProductError


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """The error response for ``exc``, or None to let a real bug surface as a 500 (which
    config.errors.server_error answers in JSON too)."""
    _json_for_errors(context)
    if isinstance(exc, ProductError):
        return Response(_body(exc.message, exc.field, exc.code), status=exc.status)
    if isinstance(exc, exceptions.ValidationError):
        field, message, code = _first_error(exc.detail, exc.get_codes())
        return Response(_body(message, field, code), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        # Django refuses the body before any parser reads it; say so in the API's shape.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = f"the request body is over the {limit:,} bytes limit"
        return Response(_body(message, None, "too_large"), status=413)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # DRF's message repeats the whole Content-Type header; name what is accepted.
        message = "the body must be JSON, sent with Content-Type: application/json"
        return Response(_body(message, None, "unsupported_media_type"), status=415)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, dict(context))
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "error"
    response.data = _body(str(exc.detail), None, code)
    return response


def _json_for_errors(context: Mapping[str, Any]) -> None:
    """An error is JSON whatever the view renders when it succeeds (the schema's YAML)."""
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def _body(message: str, field: str | None, code: str) -> dict[str, Any]:
    # "field" is always present so clients can read it without checking; null = no one field.
    return {"error": message, "field": field, "code": code}


def _first_error(detail: Any, codes: Any, path: str = "") -> tuple[str | None, str, str]:
    """The first message in DRF's nested error detail, with the dotted path of its field."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            where = f"{path}.{name}" if path and name else (name or path)
            return _first_error(value, codes[key], where)
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        for index, value in enumerate(detail):
            if value:
                # A list of messages for one field, or a list of nested items (by index).
                nested = isinstance(value, Mapping | list)
                where = f"{path}.{index}" if nested and path else (str(index) if nested else path)
                return _first_error(value, codes[index], where)
    message = str(detail)
    field = path or None
    if field and not message.startswith(field):
        message = f"{field}: {message}"
    return field, message, str(codes) if isinstance(codes, str) else "invalid"


def error_response(message: str, code: str, status: int) -> JsonResponse:
    """An error in the API's shape for a response made outside DRF (config.errors: Django's
    own 400, 403, 404 and 500 and a CSRF refusal under /api/)."""
    return JsonResponse(_body(message, None, code), status=status)


@csrf_exempt
def endpoint_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any URL under /api/ that names no endpoint (``/api/attempts/abc/``, ``/api/nothing``):
    a JSON 404 in the API's shape, whoever asks and whatever the method, never a page."""
    body = _body("no such endpoint; see /api/schema/ for the API's URLs", None, "not_found")
    return JsonResponse(body, status=404)
