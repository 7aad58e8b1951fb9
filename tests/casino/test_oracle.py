"""The engine against an independent statement of the rules (tests/casino/oracle.py):

- on random legal games, random and near-miss plays get the same verdict from both;
- at moments with a small table, EVERY play of a card (each set of items, each value, each
  build to go on) is tried: the engine's list of legal plays is exactly the oracle's.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.casino.engine import all_legal_plays, apply, full_pack, new_hand, refusal
from trainer.games.casino.engine.plays import legal_plays
from trainer.games.casino.engine.state import State
from trainer.games.casino.engine.table import Build, Play, key_of

from .oracle import oracle_legal

MAX_TABLE = 6


def _every_play(state: State, card: str) -> list[Play]:
    keys = [key_of(item) for item in state.table]
    builds = [key_of(item) for item in state.table if isinstance(item, Build)]
    subsets = [c for n in range(len(keys) + 1) for c in itertools.combinations(keys, n)]
    plays = [Play(card, "trail")]
    plays += [Play(card, "take", s) for s in subsets if s]
    for target in [None, *builds]:
        for s in subsets:
            if target not in s:
                plays += [Play(card, "build", s, target, v) for v in range(1, 12)]
    return plays


def _game(seed: int) -> list[State]:
    rng = random.Random(seed)
    pack = list(full_pack())
    rng.shuffle(pack)
    state = new_hand(pack)
    moments = []
    while not state.finished:
        moments.append(state)
        state = apply(state, rng.choice(all_legal_plays(state)))
    return moments


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_play_of_a_card_is_ruled_as_the_oracle_rules_it(seed: int) -> None:
    moments = [m for m in _game(seed) if len(m.table) <= MAX_TABLE]
    rng = random.Random(seed)
    for state in rng.sample(moments, min(4, len(moments))):
        card = rng.choice(state.hands[state.turn])
        engine = set(legal_plays(state, card))
        oracle = {p.canonical() for p in _every_play(state, card) if oracle_legal(state, p)}
        assert engine == oracle
        for play in _every_play(state, card):
            assert (refusal(state, play) is None) == (play.canonical() in oracle), play
