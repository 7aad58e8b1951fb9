"""The game seam: what a table game provides so that attempts, grading and feedback can
deal it and mark it without knowing its rules, and the registry of the games the product
knows.

A game turns a staged round (a document in its own format) into the questions a dealer is
asked with their expected answers (the answer key, stored on each dealt round), replays a
round under a recorded rule profile (a regrade), reads a trainee's answer into its
canonical shape, and compares an answer with the key. Blackjack (`trainer.games.blackjack`)
and Scarne's Casino (`trainer.games.casino`) are the games shipped; the shell reaches a game
only through ``game_named``, never by importing it. Which games a house runs is
configuration (``SHOESCHOOL_GAMES``, the games' module paths), loaded once when the trainer
app starts (``games_load``). Drills, scenarios and rule profiles name their game (``game``);
the shell reads it from the record and never assumes one (``game_named`` refuses none).
Plain Python: no Django.

The protocol is one facet a module, each saying what the shell asks of a game for one
purpose: ``keying`` (the answer key, a regrade's replay), ``presenting`` (what the table and
the question show), ``reading`` (a trainee's answer into its stored shape), ``marking``
(comparing, the categories and the cost of a mistake), ``authoring`` (validating and
generating rounds, the rule parameters, the skills a game teaches) and ``observing`` (the
practical test's evaluation sheet of a table, with defaults: ``ObservingDefaults``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Protocol

from core.errors import echo
from trainer.games.authoring import Authoring
from trainer.games.errors import DocumentError
from trainer.games.keying import Keying
from trainer.games.marking import Marking, Verdict
from trainer.games.observing import Observing
from trainer.games.presenting import Presenting
from trainer.games.reading import Reading

__all__ = [
    "DEFAULT_GAME",
    "DocumentError",
    "Game",
    "Verdict",
    "game_named",
    "game_names",
    "game_register",
    "game_unregister",
    "games_generation",
    "games_load",
]

# The game a form offers first where a person chooses one, and the `game` a row is created
# with (the models' default); never what a record with no game, or an unknown one, is read as.
DEFAULT_GAME = "blackjack"


class Game(Keying, Presenting, Reading, Marking, Authoring, Observing, Protocol):
    """What a table game implements: a name, its name in words, and each facet of the seam."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str:
        """The game's name as people read it ("Blackjack"), where a page offers several
        games' things side by side (the skills of a drill form, grouped by game)."""
        ...


_GAMES: dict[str, Game] = {}
# Changes whenever a game is registered or unregistered: what the games declare, gathered
# once (the tallies' kinds apart, the labels), is gathered again.
_GENERATION = [0]


def game_register(game: Game) -> Game:
    """Make a game known by its name (blackjack registers itself on import)."""
    _GAMES[game.name] = game
    _GENERATION[0] += 1
    return game


def game_unregister(name: str) -> None:
    _GAMES.pop(name, None)
    _GENERATION[0] += 1


def games_generation() -> int:
    return _GENERATION[0]


def game_named(name: str) -> Game:
    """The game a drill, scenario or rule profile names (its ``game``); DocumentError for one
    the product does not know, and for none at all (no game is assumed)."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise DocumentError(
            f"no game called {echo(str(name))}", field="game", reason="unknown_game"
        ) from None


def game_names() -> list[str]:
    return sorted(_GAMES)


def games_load(modules: Iterable[str]) -> None:
    """Import each game's module, which registers its game (``game_register``)."""
    for module in modules:
        importlib.import_module(module)
