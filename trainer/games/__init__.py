"""The game seam: what a table game provides so that attempts, grading and feedback can
deal it and mark it without knowing its rules, and the registry of the games the product
knows.

A game turns a staged round (a document in its own format) into the questions a dealer is
asked with their expected answers (the answer key, stored on each dealt round), replays a
round under a recorded rule profile (a regrade), reads a trainee's answer into its
canonical shape, and compares an answer with the key. Blackjack (`trainer.games.blackjack`)
is the one game shipped; the shell reaches a game only through ``game_named``, never by
importing it. Which games a house runs is configuration (``SHOESCHOOL_GAMES``, the games'
module paths), loaded once when the trainer app starts (``games_load``). Drills and
scenarios name their game (``game``, "blackjack" by default). Plain Python: no Django.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any, Protocol

from core.errors import TrainerError, echo

DEFAULT_GAME = "blackjack"


class DocumentError(TrainerError):
    """A round a game cannot play, or a game the product does not know: ``field`` names the
    part at fault, ``reason`` a code. A TrainerError, so a page or the API answers it with
    a 400 naming the fault, never a 500."""

    def __init__(self, message: str, *, field: str = "", reason: str = "invalid") -> None:
        super().__init__(message, field=field or None, code=reason)
        self.reason = reason


class Verdict(Protocol):
    """How an answer compares with the key: right or not, the money it moved wrongly
    (positive: the player got too much) and, when wrong, the category of the mistake."""

    @property
    def right(self) -> bool: ...

    @property
    def money_diff(self) -> Decimal: ...

    @property
    def category(self) -> str | None: ...


class Game(Protocol):
    """What a table game implements."""

    @property
    def name(self) -> str: ...

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

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A trainee's answer to a question of ``kind`` in the shape ``compare`` reads;
        core.errors.TrainerError naming the field at fault otherwise. Strict: a field the
        question does not take is refused, never ignored. ``document`` is the round as it
        was dealt, for what the table holds (a blackjack table's rack of chips)."""
        ...

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
        """Mark an answer (as ``parse_answer`` gave it) against one question of the key."""
        ...

    def unanswered(self) -> Verdict:
        """The mark of a question left unanswered: wrong, no money moved."""
        ...


_GAMES: dict[str, Game] = {}


def game_register(game: Game) -> Game:
    """Make a game known by its name (blackjack registers itself on import)."""
    _GAMES[game.name] = game
    return game


def game_unregister(name: str) -> None:
    _GAMES.pop(name, None)


def game_named(name: str | None) -> Game:
    """The game a drill or scenario names; DocumentError for one the product does not know."""
    try:
        return _GAMES[name or DEFAULT_GAME]
    except KeyError:
        raise DocumentError(
            f"no game called {echo(str(name))}", field="game", reason="unknown_game"
        ) from None


def game_names() -> list[str]:
    return sorted(_GAMES)


def games_load(modules: Iterable[str]) -> None:
    """Import each game's module, which registers its game (``game_register``)."""
    for module in modules:
        importlib.import_module(module)
