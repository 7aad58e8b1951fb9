"""The seam's error: a round a game cannot play, or a game the product does not know."""

from __future__ import annotations

from core.errors import ProductError


class DocumentError(ProductError):
    """A round a game cannot play, or a game the product does not know: ``field`` names the
    part at fault, ``reason`` a code. A ProductError, so a page or the API answers it with
    a 400 naming the fault, never a 500."""

    def __init__(self, message: str, *, field: str = "", reason: str = "invalid") -> None:
        super().__init__(message, field=field or None, code=reason)
        self.reason = reason
