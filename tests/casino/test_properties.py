"""Property tests over random legal games (Hypothesis draws the shuffle and every choice).

- the invariants hold at the end of every hand (52 cards, 13 spades, 4 aces, 11 points or 8
  on a card tie, plus sweeps when scored);
- every play the engine calls legal is in its list of legal plays of that card, and every
  other play of that card (random takes, builds, raises, trails) is refused with a reason.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.casino.engine import (
    REASONS,
    Profile,
    all_legal_plays,
    apply,
    full_pack,
    legal_plays,
    new_hand,
    refusal,
    score_state,
)
from trainer.games.casino.engine.state import State
from trainer.games.casino.engine.table import Build, Play, key_of


def _near_miss(rng: random.Random, state: State, play: Play) -> Play:
    """A legal play changed a little: an item more or fewer, or another value."""
    keys = [key_of(item) for item in state.table]
    items = list(play.items)
    change = rng.choice(["add", "drop", "value"])
    if change == "add" and keys:
        items.append(rng.choice(keys))
    elif change == "drop" and items:
        items.remove(rng.choice(items))
    value = play.value
    if change == "value":
        value = (play.value or 0) + rng.choice([-1, 1])
    return Play(play.card, play.kind, tuple(items), play.target, value)


def _random_play(rng: random.Random, state: State, card: str, legal: list[Play]) -> Play:
    if legal and rng.random() < 0.5:
        return _near_miss(rng, state, rng.choice(legal))
    keys = [key_of(item) for item in state.table]
    builds = [key_of(item) for item in state.table if isinstance(item, Build)]
    items = tuple(rng.sample(keys, rng.randint(0, min(len(keys), 4))))
    kind = rng.choice(["take", "take", "build", "build", "trail"])
    if kind == "take":
        return Play(card, "take", items)
    if kind == "trail":
        return Play(card, "trail")
    target = rng.choice([None, *builds]) if builds else None
    loose = tuple(key for key in items if key != target)
    return Play(card, "build", loose, target, rng.randint(1, 12))


def _play_hand(seed: int, sweeps: bool, probes: int) -> None:
    rng = random.Random(seed)
    pack = list(full_pack())
    rng.shuffle(pack)
    state = new_hand(pack)
    while not state.finished:
        card = rng.choice(state.hands[state.turn])
        legal = legal_plays(state, card)
        for play in legal:
            assert refusal(state, play) is None
        for _ in range(probes):
            probe = _random_play(rng, state, card, legal)
            reason = refusal(state, probe)
            assert (reason is None) == (probe.canonical() in legal), (probe, reason)
            assert reason is None or reason in REASONS
        every = all_legal_plays(state)
        assert every, "a player always has a legal play"
        state = apply(state, rng.choice(every))
    score_state(state, Profile(sweeps=sweeps))  # raises InvariantError on any defect


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), sweeps=st.booleans())
def test_random_legal_games_keep_the_invariants(seed: int, sweeps: bool) -> None:
    _play_hand(seed, sweeps, probes=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_legal_is_exactly_the_list_and_the_rest_have_a_reason(seed: int) -> None:
    _play_hand(seed, False, probes=12)
