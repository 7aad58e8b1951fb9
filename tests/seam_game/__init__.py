"""Dealer draws: a second game, never shipped, that proves the game seam.

A dealer holding ``total`` draws below 17 and stands from 17: one question a round. It has
its own question kinds, mistake categories, skills, rule parameters and table, and the
tests run it the whole way (authored, dealt, answered by page and API, graded, reviewed,
reported) through ``trainer.games`` alone. Test settings load it (``SHOESCHOOL_GAMES``), in
the test process and in the Celery worker the tests start alike.
"""

from __future__ import annotations

from tests.seam_game.authoring import DealerDrawsAuthoring
from tests.seam_game.keying import DealerDrawsKeying
from tests.seam_game.marking import DealerDrawsMarking
from tests.seam_game.presenting import DealerDrawsPresenting
from tests.seam_game.reading import DealerDrawsReading
from trainer.games import game_register
from trainer.games.observing import ObservingDefaults


class DealerDraws(
    DealerDrawsKeying,
    DealerDrawsPresenting,
    DealerDrawsReading,
    DealerDrawsMarking,
    DealerDrawsAuthoring,
    ObservingDefaults,
):
    name = "dealer-draws"
    title = "Dealer draws"


DEALER_DRAWS = game_register(DealerDraws())
