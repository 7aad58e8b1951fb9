"""Blackjack, the game Shoe School ships: the rules engine (`trainer.rules`, its public
path in docs/scenario-format.md) behind the game seam, one facet a module. Only this
package imports the engine (an import contract says so)."""

from __future__ import annotations

from trainer.games import game_register
from trainer.games.blackjack.authoring import BlackjackAuthoring
from trainer.games.blackjack.keying import BlackjackKeying, under_profile
from trainer.games.blackjack.marking import BlackjackMarking
from trainer.games.blackjack.observing import BlackjackObserving
from trainer.games.blackjack.presenting import BlackjackPresenting
from trainer.games.blackjack.reading import (
    MAX_CHIPS,
    BlackjackReading,
    answer_fields,
    parse_amount,
    parse_answer,
    table_rack,
)

__all__ = [
    "BLACKJACK",
    "MAX_CHIPS",
    "Blackjack",
    "answer_fields",
    "parse_amount",
    "parse_answer",
    "table_rack",
    "under_profile",
]


class Blackjack(
    BlackjackKeying,
    BlackjackPresenting,
    BlackjackReading,
    BlackjackMarking,
    BlackjackAuthoring,
    BlackjackObserving,
):
    name = "blackjack"
    title = "Blackjack"


BLACKJACK = game_register(Blackjack())
