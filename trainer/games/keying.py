"""Keying: the answer key of a staged round, and a round replayed under a recorded rule
profile version (a regrade)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Keying(Protocol):
    def answer_key(self, document: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The round's questions in order, each a dict with at least ``n``, ``kind``,
        ``prompt`` and ``expected`` (stored as JSON on the dealt round) and ``view`` (what
        the table shows when it is asked). DocumentError if the round cannot be played."""
        ...

    def under_profile(
        self, document: Mapping[str, Any], *, profile: str, parameters: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The document as it plays under a recorded version of a rule profile (its name
        and parameters): what a regrade deals again."""
        ...

    def settled_line(self, text: str) -> str:
        """One staged round's text (JSON) settled as one JSON line in the game's public
        settlement format, or its error object: what ``manage.py play_scenario`` prints.
        Never raises: a bad text is an error line."""
        ...

    def answer_key_line(self, text: str) -> str:
        """One staged round's text as the JSON line ``{"id", "answer_key"}``, or its error
        object (``play_scenario --answer-key``). Never raises."""
        ...
