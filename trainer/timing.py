"""How fast a dealer should do the chip work, the targets the table and the pit show.

A pay-in-chips answer is a payout cut from the rack beside the bet; colouring up counts a
pile and gives it back in fewer chips; a change breaks cash into the house's chips. A
dealer on a live game does each without counting twice: these are the times a training
manager expects of a dealer ready for the floor (seconds from the question shown to the
answer). They are targets to train against, not limits: a slower right answer is right.
"""

from decimal import Decimal

from trainer.rules import Kind

CHIP_TARGET_SECONDS: dict[str, Decimal] = {
    Kind.PAY_IN_CHIPS.value: Decimal(8),
    Kind.COLOUR_UP.value: Decimal(10),
    Kind.CHANGE.value: Decimal(6),
}


def chip_target_seconds(kind: str) -> Decimal | None:
    """The target for a chip question's kind; None for any other question."""
    return CHIP_TARGET_SECONDS.get(kind)
