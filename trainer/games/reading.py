"""Reading: a trainee's answer, from a page's form or the API's JSON, into the stored shape
the game marks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

# How the API reads an answer's field, before the game's parse_answer judges it: a word of
# ``choices`` (or any word), money (a string of digits with at most cents, never a JSON
# number), a list of money amounts, true or false, a whole number, or a list of words (at
# most ``most``: Casino's items taken and plays).
FieldKind = Literal["word", "money", "money_list", "boolean", "integer", "word_list"]


@dataclass(frozen=True)
class AnswerField:
    """One field a game's answers may hold, as the API's schema describes it."""

    name: str
    kind: FieldKind
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    most: int | None = None


class Reading(Protocol):
    @property
    def answer_fields(self) -> tuple[AnswerField, ...]:
        """Every field an answer to one of the game's questions may hold (which of them a
        question takes is ``parse_answer``'s call): the API's answer schema is the fields
        of every game the house runs."""
        ...

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A trainee's answer to a question of ``kind`` in the shape ``compare`` reads;
        core.errors.ProductError naming the field at fault otherwise. Strict: a field the
        question does not take is refused, never ignored. ``document`` is the round as it
        was dealt, for what the table holds (a blackjack table's rack of chips)."""
        ...

    def form_answer(self, post: Mapping[str, Any]) -> dict[str, Any]:
        """The table page's posted form (its fields and buttons, ``Presenting.table_page``)
        as the answer the API would send as JSON, for ``parse_answer`` to read: one
        grammar for both doors. core.errors.ProductError naming the field at fault."""
        ...
