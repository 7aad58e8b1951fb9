"""An independent statement of the legality rules (docs/casino-rules.md), written apart from the
engine for the property tests: legal or not (the reasons are the table tests' business).

Groups are found by brute force over bitmasks, not by the engine's search.
"""

from __future__ import annotations

from functools import cache

from trainer.games.casino.engine.state import State
from trainer.games.casino.engine.table import Build, Play

VALUES = {r: i + 1 for i, r in enumerate("A23456789T")}


def number(card: str) -> int | None:
    return VALUES.get(card[0])


@cache
def _groups_of(values: tuple[int, ...], target: int) -> bool:
    """Can every one of ``values`` go into a group summing to ``target``? (bitmask search)"""
    n = len(values)
    if n == 0 or target < 1:
        return False
    sums = {mask: sum(values[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}
    full = (1 << n) - 1

    @cache
    def covers(left: int) -> bool:
        if left == 0:
            return True
        low = left & -left  # the group holding the lowest card left
        sub = left
        while sub:
            if sub & low and sums[sub] == target and covers(left & ~sub):
                return True
            sub = (sub - 1) & left
        return False

    return covers(full)


def groups_of(values: list[int], target: int) -> bool:
    return _groups_of(tuple(sorted(values)), target)


def oracle_legal(state: State, play: Play) -> bool:
    me = state.turn
    hand = list(state.hands[me])
    if play.card not in hand:
        return False
    by_key = {(i if isinstance(i, str) else "+".join(sorted(i.cards))): i for i in state.table}

    def find(key: str) -> object:
        return by_key.get("+".join(sorted(key.split("+"))) if "+" in key else key)

    named = [find(k) for k in play.items]
    target = find(play.target) if play.target is not None else None
    if any(x is None for x in named) or len(set(map(id, named))) != len(named):
        return False
    if play.target is not None and (not isinstance(target, Build) or target in named):
        return False
    hand.remove(play.card)
    table = [i for i in state.table if all(i is not x for x in [*named, target])]
    if play.kind == "take":
        ok = _take_ok(state, play.card, named)
    elif play.kind == "trail":
        ok = not named and not any(isinstance(i, Build) and i.owner == me for i in state.table)
        table.append(play.card)
    else:
        ok, new = _build_ok(state, play, named, target)
        if new is not None:
            table.append(new)
    if not ok:
        return False
    holding = {number(c) for c in hand}
    return all(i.value in holding for i in table if isinstance(i, Build) and i.owner == me)


def _take_ok(state: State, card: str, named: list) -> bool:
    if not named:
        return False
    if number(card) is None:
        if not all(isinstance(x, str) and x[0] == card[0] for x in named):
            return False
        on_table = [i for i in state.table if isinstance(i, str) and i[0] == card[0]]
        return len(named) == 1 or (len(named) == 3 and len(on_table) == 3)
    value = number(card)
    loose = [x for x in named if isinstance(x, str)]
    if any(isinstance(x, Build) and x.value != value for x in named):
        return False
    if any(number(x) is None for x in loose):
        return False
    return not loose or groups_of([number(x) or 0 for x in loose], value or 0)


def _build_ok(state: State, play: Play, named: list, target: object) -> tuple[bool, Build | None]:
    card, t = number(play.card), play.value
    if card is None or t is None or t > 10 or any(not isinstance(x, str) for x in named):
        return False, None
    loose = [number(x) for x in named]
    if any(v is None for v in loose):
        return False, None
    values = [v for v in loose if v is not None]
    if target is None:
        ok = bool(values) and groups_of([card, *values], t)
        base: list[str] = []
    else:
        assert isinstance(target, Build)
        base = list(target.cards)
        if t == target.value:
            ok = groups_of([card, *values], t)
        else:
            ok = (
                not target.multiple
                and target.value + card == t
                and (not values or groups_of(values, t))
            )
    if not ok:
        return False, None
    cards = [*base, play.card, *named]
    total = sum(number(c) or 0 for c in cards)
    return True, Build(tuple(cards), t, total > t, state.turn)
