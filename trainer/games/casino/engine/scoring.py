"""Scoring a hand by line, the winner and margin, the invariants of a finished hand, matches.

Lines: cards 3 (27 or more; at 26 each nobody), spades 1 (7 or more), big casino 2 (Td),
little casino 1 (2s), aces 1 each, sweeps 1 each when the profile scores them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import BIG_CASINO, LITTLE_CASINO, full_pack, rank_of, suit_of
from .profiles import SCARNE, Profile
from .state import State
from .table import PLAYERS, Player

LINES = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
HALF_PACK = 26
SPADES_NEEDED = 7
POINTS = 11
POINTS_ON_CARD_TIE = 8


class InvariantError(AssertionError):
    """A finished hand that does not account for its cards or points: an engine defect."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """Each player's points by line (LINES, then "total"), the winner (None on a tie), margin."""

    lines: Mapping[Player, Mapping[str, int]]
    winner: Player | None
    margin: int

    def total(self, player: Player) -> int:
        return self.lines[player]["total"]

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {who: dict(self.lines[who]) for who in PLAYERS}
        out["winner"] = self.winner
        out["margin"] = self.margin
        return out


def score(
    taken: Mapping[Player, tuple[str, ...]],
    sweeps: Mapping[Player, int] | None = None,
    profile: Profile = SCARNE,
) -> HandScore:
    """The hand's score from the cards each player took (and their sweeps)."""
    lines: dict[Player, dict[str, int]] = {}
    for who in PLAYERS:
        cards = taken[who]
        row = {
            "cards": 3 if len(cards) > HALF_PACK else 0,
            "spades": 1 if sum(suit_of(c) == "s" for c in cards) >= SPADES_NEEDED else 0,
            "big_casino": 2 if BIG_CASINO in cards else 0,
            "little_casino": 1 if LITTLE_CASINO in cards else 0,
            "aces": sum(rank_of(c) == "A" for c in cards),
            "sweeps": (sweeps or {}).get(who, 0) if profile.sweeps else 0,
        }
        row["total"] = sum(row[line] for line in LINES)
        lines[who] = row
    first, second = (lines[who]["total"] for who in PLAYERS)
    winner: Player | None = None
    if first != second:
        winner = PLAYERS[0] if first > second else PLAYERS[1]
    return HandScore(lines, winner, abs(first - second))


def score_state(state: State, profile: Profile = SCARNE) -> HandScore:
    """The score of a finished hand, after checking its invariants."""
    result = score(state.taken, state.sweeps, profile)
    check_invariants(state, result, profile)
    return result


def check_invariants(state: State, result: HandScore, profile: Profile = SCARNE) -> None:
    """52 cards (each once), 13 spades, 4 aces, 11 points (8 on a card tie) plus sweeps."""
    taken = [card for who in PLAYERS for card in state.taken[who]]
    problems = []
    if not state.finished or state.table or state.stock or any(state.hands.values()):
        problems.append("the hand is not over")
    if len(taken) != len(full_pack()) or set(taken) != set(full_pack()):
        problems.append(f"{len(taken)} cards taken, not the 52 of the pack each once")
    if sum(suit_of(card) == "s" for card in taken) != len(full_pack()) // 4:
        problems.append("not 13 spades")
    if sum(rank_of(card) == "A" for card in taken) != 4:
        problems.append("not 4 aces")
    tie = all(len(state.taken[who]) == HALF_PACK for who in PLAYERS)
    swept = sum(state.sweeps.values()) if profile.sweeps else 0
    expected = (POINTS_ON_CARD_TIE if tie else POINTS) + swept
    points = sum(result.total(who) for who in PLAYERS)
    if points != expected:
        problems.append(f"{points} points, not {expected}")
    if problems:
        raise InvariantError("; ".join(problems))


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match's running totals, and its winner once decided."""

    totals: Mapping[Player, int]
    winner: Player | None = None


def match_after(match: MatchState, hand: HandScore, profile: Profile = SCARNE) -> MatchState:
    """The match after one more hand. Without a goal each hand is a game: its winner wins.
    With a goal the first to reach it wins; both reaching it in the same hand, the higher
    total. *Decided*: equal totals at or over the goal play another hand."""
    if match.winner is not None:
        raise ValueError("the match is already won")
    totals = {who: match.totals.get(who, 0) + hand.total(who) for who in PLAYERS}
    if profile.match_goal is None:
        return MatchState(totals, hand.winner)
    goal = profile.match_goal
    reached = [who for who in PLAYERS if totals[who] >= goal]
    if not reached:
        return MatchState(totals)
    first, second = (totals[who] for who in PLAYERS)
    if first == second:
        return MatchState(totals)
    return MatchState(totals, PLAYERS[0] if first > second else PLAYERS[1])
