"""The one domain exception the services raise (`ProductError` and its kinds); views and the
API map it to HTTP once."""

from typing import Any

# The most of one input any error message repeats: enough to recognise it, never a flood.
ECHO_LIMIT = 30


# Django's choice fields repeat the value given ("Select a valid choice. X is not one of the
# available choices."), whatever its length: the pages' forms use this message instead.
CHOICE_ERRORS = {"invalid_choice": "Select a valid choice: the one sent is not offered."}


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters with an ellipsis.

    Strings are quoted as Python's repr would; anything else is shown as text. However
    large the input, the message stays short.
    """
    if isinstance(value, str):
        return repr(clip(value, limit))
    try:
        return clip(str(value), limit)
    except (ValueError, RecursionError):  # an int past Python's digit limit, a deep list
        return f"a {type(value).__name__}"


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, unquoted (e.g. a field name)."""
    return text if len(text) <= limit else text[:limit] + "…"


class ProductError(Exception):
    """A request the product's rules refuse: bad input, wrong state, not yours.

    The kernel's base error: every app's services raise it (or one of its kinds below).

    ``status`` is the HTTP status it maps to (400 bad input, 403 not allowed, 404 not
    found or not yours, 409 wrong state); ``field`` names the input at fault, if one is.
    """

    def __init__(
        self, message: str, *, status: int = 400, field: str | None = None, code: str = "invalid"
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.code = code

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message, "code": self.code}
        if self.field:
            body["field"] = self.field
        return body


class NotFoundError(ProductError):
    """Missing, or someone else's: both answer 404 so ids leak nothing."""

    def __init__(self, message: str = "not found", *, field: str | None = None) -> None:
        super().__init__(message, status=404, field=field, code="not_found")


class ForbiddenError(ProductError):
    def __init__(self, message: str = "your role does not allow this") -> None:
        super().__init__(message, status=403, code="forbidden")


class ConflictError(ProductError):
    def __init__(self, message: str, *, field: str | None = None, code: str = "conflict") -> None:
        super().__init__(message, status=409, field=field, code=code)
