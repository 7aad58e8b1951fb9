"""Reading: a trainee's answer, from a page's form or the API's JSON, into the stored shape
the game marks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Reading(Protocol):
    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A trainee's answer to a question of ``kind`` in the shape ``compare`` reads;
        core.errors.TrainerError naming the field at fault otherwise. Strict: a field the
        question does not take is refused, never ignored. ``document`` is the round as it
        was dealt, for what the table holds (a blackjack table's rack of chips)."""
        ...

    def form_answer(self, post: Mapping[str, Any]) -> dict[str, Any]:
        """The table page's posted form (its fields and buttons, ``Presenting.table_page``)
        as the answer the API would send as JSON, for ``parse_answer`` to read: one
        grammar for both doors. core.errors.TrainerError naming the field at fault."""
        ...
