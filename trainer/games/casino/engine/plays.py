"""Every legal play of a card: each capture (group by group), build, raise, addition, trail."""

from __future__ import annotations

from .cards import is_court, rank_of, value_of
from .groups import disjoint_unions, groups_summing
from .legality import COURT_SET, MAX_BUILD, refusal
from .state import State
from .table import Build, Play, sort_keys


def legal_plays(state: State, card: str) -> list[Play]:
    """Every legal play of ``card`` by the player whose turn it is, in canonical order."""
    if card not in state.hands[state.turn]:
        return []
    candidates = _candidates(state, card)
    legal = {play for play in candidates if refusal(state, play) is None}
    return sorted(legal, key=play_order)


def all_legal_plays(state: State) -> list[Play]:
    return [play for card in state.hands[state.turn] for play in legal_plays(state, card)]


def play_order(play: Play) -> tuple[str, int, str, tuple[str, ...]]:
    return (play.kind, play.value or 0, play.target or "", play.items)


def _candidates(state: State, card: str) -> set[Play]:
    out: set[Play] = {Play(card, "trail")}
    loose = [
        (item, value_of(item) or 0)
        for item in state.table
        if isinstance(item, str) and not is_court(item)
    ]
    builds = [item for item in state.table if isinstance(item, Build)]
    if is_court(card):
        same = [i for i in state.table if isinstance(i, str) and rank_of(i) == rank_of(card)]
        out |= {Play(card, "take", (one,)) for one in same}
        if len(same) == COURT_SET:
            out.add(Play(card, "take", sort_keys(same)))
        return out
    value = value_of(card) or 0
    matching = [build.key for build in builds if build.value == value]
    for loose_part in disjoint_unions(groups_summing(loose, value)):
        for build_part in disjoint_unions([frozenset([key]) for key in matching]):
            if loose_part or build_part:
                out.add(Play(card, "take", sort_keys(loose_part | build_part)))
    for target_value in range(1, MAX_BUILD + 1):
        out |= _new_builds(card, value, target_value, loose)
    for build in builds:
        out |= _additions(card, value, build, loose)
    return out


def _new_builds(card: str, value: int, target: int, loose: list[tuple[str, int]]) -> set[Play]:
    out: set[Play] = set()
    if value > target:
        return out
    whole = groups_summing(loose, target)
    for with_card in groups_summing(loose, target - value):
        rest = [group for group in whole if not group & with_card]
        for more in disjoint_unions(rest):
            items = with_card | more
            if items:
                out.add(Play(card, "build", sort_keys(items), None, target))
    return out


def _additions(card: str, value: int, build: Build, loose: list[tuple[str, int]]) -> set[Play]:
    out: set[Play] = set()
    raised = build.value + value
    if not build.multiple and raised <= MAX_BUILD:
        for more in disjoint_unions(groups_summing(loose, raised)):
            out.add(Play(card, "build", sort_keys(more), build.key, raised))
    if value <= build.value:
        whole = groups_summing(loose, build.value)
        for with_card in groups_summing(loose, build.value - value):
            rest = [group for group in whole if not group & with_card]
            for more in disjoint_unions(rest):
                items = sort_keys(with_card | more)
                out.add(Play(card, "build", items, build.key, build.value))
    return out
