"""A whole hand, and a whole match, played under a rule profile by a chooser of plays.

The chooser is given the state and picks one of the legal plays (a drill's random player,
a test's script); every finished hand's invariants are checked before it is scored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .legality import apply
from .plays import all_legal_plays
from .profiles import SCARNE, Profile
from .scoring import HandScore, MatchState, match_after, score_state
from .state import State, new_hand
from .table import Play

Chooser = Callable[[State, list[Play]], Play]


def play_hand(
    pack: Sequence[str], choose: Chooser, profile: Profile = SCARNE
) -> tuple[State, HandScore]:
    """Deal ``pack`` and play the hand out, each turn ``choose`` picking from the legal plays."""
    state = new_hand(pack)
    while not state.finished:
        state = apply(state, choose(state, all_legal_plays(state)))
    return state, score_state(state, profile)


@dataclass(frozen=True, slots=True)
class MatchResult:
    hands: tuple[HandScore, ...]
    match: MatchState


def play_match(
    packs: Iterable[Sequence[str]], choose: Chooser, profile: Profile = SCARNE
) -> MatchResult:
    """Hands until the match is won (one hand without a `match_goal`). *Decided*: the same
    seat deals every hand here; the product's table alternates the deal by naming seats.
    ValueError when the packs run out first."""
    match = MatchState({"non_dealer": 0, "dealer": 0})
    scores: list[HandScore] = []
    for pack in packs:
        _, result = play_hand(pack, choose, profile)
        scores.append(result)
        match = match_after(match, result, profile)
        if match.winner is not None or profile.match_goal is None:
            return MatchResult(tuple(scores), match)
    raise ValueError("the packs ran out before the match was won")
