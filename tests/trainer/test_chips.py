"""Chips as in a casino: each value its colour, a stake as a stack of the fewest chips, and
a table's tray holding only its own chips."""

from __future__ import annotations

import pytest

from tests.factories import profile_version
from trainer.games.blackjack.display import chip_stack, table_chips


def values(amount, chips=None):
    stack, more = chip_stack(amount) if chips is None else chip_stack(amount, chips)
    return [chip.value for chip in stack], more


def test_a_stake_is_the_fewest_chips_largest_first():
    assert values("37.50") == (["25", "5", "5", "2.50"], False)
    assert values("1.50") == (["1", "0.50"], False)
    assert values("1000") == (["1000"], False)


def test_a_tall_stack_is_drawn_short_and_says_so():
    stack, more = chip_stack("9")
    assert [c.value for c in stack] == ["5", "2.50", "1", "0.50"]
    assert not more
    stack, more = chip_stack("4999.50")
    assert len(stack) == 8
    assert more


def test_each_value_has_its_casino_colour():
    colours = {chip.value: chip.colour for chip in chip_stack("1634")[0]}
    assert colours == {
        "1000": "orange",
        "500": "purple",
        "100": "black",
        "25": "green",
        "5": "red",
        "2.50": "pink",
        "1": "white",
        "0.50": "grey",
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("profile", "chips"),
    [
        ("casino-shoe", ("0.50", "1", "2.50", "5", "25", "100", "500")),
        ("european-enhc-6deck", ("0.50", "1", "2.50", "5", "25", "100", "500", "1000")),
    ],
)
def test_a_tables_tray_holds_its_own_chips(profile, chips):
    assert table_chips(profile_version(profile).parameters) == chips
