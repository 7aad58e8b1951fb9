"""Marking: an answer compared with the key, and the mark of a question left unanswered."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Protocol


class Verdict(Protocol):
    """How an answer compares with the key: right or not, the money it moved wrongly
    (positive: the player got too much) and, when wrong, the category of the mistake."""

    @property
    def right(self) -> bool: ...

    @property
    def money_diff(self) -> Decimal: ...

    @property
    def category(self) -> str | None: ...


class Marking(Protocol):
    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
        """Mark an answer (as ``parse_answer`` gave it) against one question of the key."""
        ...

    def unanswered(self) -> Verdict:
        """The mark of a question left unanswered: wrong, no money moved."""
        ...
