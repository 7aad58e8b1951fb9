"""Is a play legal, and if not, its one reason: the first of the spec's list that applies.

The reasons, in order (docs/casino-rules.md, "Every illegal play has a reason"):
not_in_hand, not_on_table, court_takes_one, court_in_build, build_split, multiple_is_fixed,
increase_from_hand, build_over_ten, wrong_sum, no_card_to_take, must_not_trail.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import is_court, rank_of, value_of
from .groups import splits_into
from .state import State, end_of_hand, next_deal
from .table import Build, Item, Play, Player, cards_of, key_of, other

REASONS = (
    "not_in_hand",
    "not_on_table",
    "court_takes_one",
    "court_in_build",
    "build_split",
    "multiple_is_fixed",
    "increase_from_hand",
    "build_over_ten",
    "wrong_sum",
    "no_card_to_take",
    "must_not_trail",
)
MAX_BUILD = 10
COURT_SET = 3  # three of a rank loose: the fourth takes all three


class IllegalPlayError(ValueError):
    """A play the rules refuse; `reason` is one of REASONS."""

    def __init__(self, reason: str, play: Play) -> None:
        self.reason = reason
        self.play = play
        super().__init__(f"{play.card}: {reason}")


def refusal(state: State, play: Play) -> str | None:
    """The reason ``play`` by the player whose turn it is is refused; None when it is legal."""
    play = play.canonical()
    if play.card not in state.hands[state.turn]:
        return "not_in_hand"
    on_table = {key_of(item): item for item in state.table}
    names = [*play.items, *([play.target] if play.target is not None else [])]
    if len(set(names)) != len(names) or any(name not in on_table for name in names):
        return "not_on_table"
    if play.target is not None and not isinstance(on_table[play.target], Build):
        return "not_on_table"
    items = [on_table[name] for name in play.items]
    if play.kind != "build" and (play.target is not None or play.value is not None):
        return "wrong_sum"  # a take or a trail announces no value and goes on no build
    if play.kind == "take":
        reason = _take_refusal(state, play.card, items)
    elif play.kind == "build":
        target = on_table[play.target] if play.target is not None else None
        reason = _build_refusal(play, items, target if isinstance(target, Build) else None)
    else:
        reason = None if not play.items and play.target is None else "wrong_sum"
    if reason is not None:
        return reason
    if not _builds_covered(state, play):
        return "no_card_to_take"
    if play.kind == "trail" and any(
        isinstance(item, Build) and item.owner == state.turn for item in state.table
    ):
        return "must_not_trail"
    return None


def _take_refusal(state: State, card: str, items: list[Item]) -> str | None:
    if is_court(card):
        return _court_take_refusal(state, card, items)
    value = value_of(card)
    builds = [item for item in items if isinstance(item, Build)]
    if any(not build.multiple and build.value != value for build in builds):
        return "build_split"
    if any(build.multiple and build.value != value for build in builds):
        return "multiple_is_fixed"
    loose = [item for item in items if isinstance(item, str)]
    if not items or any(is_court(card) for card in loose):
        return "wrong_sum"
    if loose and not splits_into([value_of(card) or 0 for card in loose], value or 0):
        return "wrong_sum"
    return None


def _court_take_refusal(state: State, card: str, items: list[Item]) -> str | None:
    same = [item for item in items if isinstance(item, str) and rank_of(item) == rank_of(card)]
    loose_of_rank = [
        item for item in state.table if isinstance(item, str) and rank_of(item) == rank_of(card)
    ]
    fourth_takes_three = len(items) == COURT_SET == len(same) and len(loose_of_rank) == COURT_SET
    if len(items) > 1 and not fourth_takes_three:
        return "court_takes_one"
    if len(same) != len(items):
        return "court_in_build"
    if not items:
        return "wrong_sum"
    return None


def _build_refusal(play: Play, items: list[Item], target: Build | None) -> str | None:
    if is_court(play.card) or any(isinstance(item, str) and is_court(item) for item in items):
        return "court_in_build"
    if any(isinstance(item, Build) for item in items):
        return "build_split"
    loose = [value_of(item) or 0 for item in items if isinstance(item, str)]
    value = play.value if play.value is not None else 0
    card = value_of(play.card) or 0
    if target is not None and target.multiple and value != target.value:
        return "multiple_is_fixed"
    raising = target is not None and not target.multiple and value != target.value
    if raising and loose and not splits_into(loose, value):
        return "increase_from_hand"
    if value > MAX_BUILD:
        return "build_over_ten"
    if target is None:
        good = bool(loose) and splits_into([card, *loose], value)
    elif raising:
        good = target.value + card == value
    else:
        good = splits_into([card, *loose], value)
    return None if good else "wrong_sum"


def _builds_covered(state: State, play: Play) -> bool:
    """After the play, the player still holds a card of the value of every build they own."""
    player = state.turn
    hand = list(state.hands[player])
    hand.remove(play.card)
    values = {value_of(card) for card in hand}
    table = _table_after(state, play)
    return all(
        item.value in values for item in table if isinstance(item, Build) and item.owner == player
    )


def _table_after(state: State, play: Play) -> tuple[Item, ...]:
    gone = set(play.items) | ({play.target} if play.target is not None else set())
    kept = tuple(item for item in state.table if key_of(item) not in gone)
    if play.kind == "take":
        return kept
    if play.kind == "trail":
        return (*kept, play.card)
    return (*kept, _new_build(state, play))


def _new_build(state: State, play: Play) -> Build:
    on_table = {key_of(item): item for item in state.table}
    target = on_table.get(play.target) if play.target is not None else None
    cards: list[str] = list(cards_of(target)) if target is not None else []
    cards.append(play.card)
    for key in play.items:
        cards += cards_of(on_table[key])
    value = play.value or 0
    total = sum(value_of(card) or 0 for card in cards)
    multiple = total > value
    return Build(tuple(cards), value, multiple, state.turn)


def is_legal(state: State, play: Play) -> bool:
    return refusal(state, play) is None


def apply(state: State, play: Play) -> State:
    """The state after ``play``; IllegalPlayError when the rules refuse it. After the dealer's
    fourth card the next deal is dealt, and after the sixth deal comes the last take."""
    play = play.canonical()
    reason = refusal(state, play)
    if reason is not None:
        raise IllegalPlayError(reason, play)
    player: Player = state.turn
    hands = dict(state.hands)
    hand = list(hands[player])
    hand.remove(play.card)
    hands[player] = tuple(hand)
    table = _table_after(state, play)
    taken, sweeps, last = dict(state.taken), dict(state.sweeps), state.last_capturer
    if play.kind == "take":
        on_table = {key_of(item): item for item in state.table}
        got = [play.card] + [card for key in play.items for card in cards_of(on_table[key])]
        taken[player] = taken[player] + tuple(got)
        last = player
        if not table:
            sweeps[player] += 1
    after = replace(
        state,
        hands=hands,
        table=table,
        taken=taken,
        sweeps=sweeps,
        last_capturer=last,
        turn=other(player),
    )
    if any(after.hands[who] for who in ("dealer", "non_dealer")):
        return after
    return next_deal(after) if after.stock else end_of_hand(after)
