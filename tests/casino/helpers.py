"""Staging a moment of a Casino hand for the engine's tests."""

from __future__ import annotations

from trainer.games.casino.engine.state import State
from trainer.games.casino.engine.table import Build, Item, Player


def b(*cards: str, value: int, owner: Player = "dealer", multiple: bool = False) -> Build:
    return Build(tuple(cards), value, multiple, owner)


def staged(
    hand: list[str],
    table: list[Item] | tuple[Item, ...] = (),
    *,
    opponent: tuple[str, ...] = ("Kc",),
    turn: Player = "non_dealer",
) -> State:
    other: Player = "dealer" if turn == "non_dealer" else "non_dealer"
    hands: dict[Player, tuple[str, ...]] = {turn: tuple(hand), other: opponent}
    return State(hands=hands, table=tuple(table), turn=turn, deal=3)
