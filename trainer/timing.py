"""How fast a dealer should do the chip work, the targets the table and the pit show.

A dealer on a live game does the chip work without counting twice: the times a training
manager expects of a dealer ready for the floor (seconds from the question shown to the
answer) are the game's (its ``target_seconds``, by kind of question). They are targets to
train against, not limits: a slower right answer is right.
"""

from decimal import Decimal

from trainer.games import game_named


def chip_target_seconds(kind: str, *, game: str) -> Decimal | None:
    """The target for a chip question's kind; None for any other question."""
    return game_named(game).target_seconds(kind)
