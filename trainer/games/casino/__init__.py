"""Scarne's Casino, the second game: its rules engine (`engine`, plain Python, its own import
contract) behind the game seam, one facet a module, as docs/architecture.md's "A new game,
step by step" says. Only this package imports the engine.

Besides the facets: `words` (every word a person reads: cards, items, players, kinds,
reasons, rulings, lines), `grammar` (an answer's written items and plays), `display` and
`page` (the table's view model and the answer form; template
templates/games/casino/_table.html and _answer.html) and `demo` (the demo trainee's answers).
"""

from __future__ import annotations

from trainer.games import game_register
from trainer.games.casino.authoring import CasinoAuthoring
from trainer.games.casino.keying import CasinoKeying
from trainer.games.casino.marking import CasinoMarking
from trainer.games.casino.observing import CasinoObserving
from trainer.games.casino.presenting import CasinoPresenting
from trainer.games.casino.reading import CasinoReading

__all__ = ["CASINO", "Casino"]


class Casino(
    CasinoKeying, CasinoPresenting, CasinoReading, CasinoMarking, CasinoAuthoring, CasinoObserving
):
    name = "casino"
    title = "Scarne's Casino"


CASINO = game_register(Casino())
