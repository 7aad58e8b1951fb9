"""Sums over loose cards: can cards be split into groups each worth a value, and which groups."""

from __future__ import annotations

from collections.abc import Sequence


def splits_into(values: Sequence[int], target: int) -> bool:
    """True when ``values`` (at least one) can be split into groups each summing to ``target``."""
    if not values or target < 1 or sum(values) % target:
        return False
    return _split(sorted(values, reverse=True), target)


def _split(values: list[int], target: int) -> bool:
    if not values:
        return True
    first, rest = values[0], values[1:]
    if first > target:
        return False
    return any(_split(remaining, target) for remaining in _completions(rest, target - first))


def _completions(values: list[int], need: int) -> list[list[int]]:
    """Every way to take cards of ``values`` summing to ``need``: what remains after each."""
    if need == 0:
        return [values]
    out: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for index, value in enumerate(values):
        if value > need or value in values[:index]:
            continue  # equal values give the same remainders: try each value once per level
        for remaining in _completions(values[index + 1 :], need - value):
            rest = values[:index] + remaining
            marker = tuple(sorted(rest))
            if marker not in seen:
                seen.add(marker)
                out.append(rest)
    return out


def groups_summing(cards: Sequence[tuple[str, int]], target: int) -> list[frozenset[str]]:
    """Every set of the (key, value) cards whose values sum to ``target`` (empty if target 0)."""
    out: list[frozenset[str]] = []

    def walk(start: int, need: int, chosen: list[str]) -> None:
        if need == 0:
            out.append(frozenset(chosen))
            return
        for index in range(start, len(cards)):
            key, value = cards[index]
            if value <= need:
                walk(index + 1, need - value, [*chosen, key])

    walk(0, target, [])
    return out


def disjoint_unions(groups: Sequence[frozenset[str]]) -> set[frozenset[str]]:
    """Every union of pairwise disjoint groups, the empty union included."""
    out: set[frozenset[str]] = set()

    def walk(start: int, used: frozenset[str]) -> None:
        out.add(used)
        for index in range(start, len(groups)):
            if not groups[index] & used:
                walk(index + 1, used | groups[index])

    walk(0, frozenset())
    return out
