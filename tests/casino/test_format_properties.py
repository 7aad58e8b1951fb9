"""Property tests of the format over random legal games: any moment staged as a document
reads back as the same state, its answer key agrees with the engine, and a finished hand
staged for scoring scores as the engine scored it. JSON Lines round-trips."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.casino.engine import all_legal_plays, apply, full_pack, new_hand, refusal
from trainer.games.casino.engine.answer_key import answer_key
from trainer.games.casino.engine.jsonl import read_lines, write_lines
from trainer.games.casino.engine.plays import legal_plays
from trainer.games.casino.engine.scenario import read
from trainer.games.casino.engine.scoring import score_state
from trainer.games.casino.engine.staging import document_of
from trainer.games.casino.engine.state import State


def _moments(seed: int) -> tuple[list[State], State]:
    rng = random.Random(seed)
    pack = list(full_pack())
    rng.shuffle(pack)
    state = new_hand(pack)
    moments = []
    while not state.finished:
        moments.append(state)
        state = apply(state, rng.choice(all_legal_plays(state)))
    return moments, state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), pick=st.randoms(use_true_random=False))
def test_a_staged_moment_reads_back_and_answers_as_the_engine(
    seed: int, pick: random.Random
) -> None:
    moments, _ = _moments(seed)
    documents = []
    for n, state in enumerate(pick.sample(moments, 4)):
        card = pick.choice(state.hands[state.turn])
        plays = legal_plays(state, card)
        questions: list[dict[str, object]] = [{"kind": "legal_plays", "card": card}]
        questions += [{"kind": "is_legal", "play": play.to_dict()} for play in plays[:3]]
        document = document_of(state, questions, doc_id=f"m{n}")
        scenario = read(document)
        assert scenario.state.table == state.table
        assert dict(scenario.state.hands) == dict(state.hands)
        assert {k: set(v) for k, v in scenario.state.taken.items()} == {
            k: set(v) for k, v in state.taken.items()
        }
        key = answer_key(document)
        assert key[0]["expected"] == {"plays": [play.to_dict() for play in plays]}
        assert all(item["expected"] == {"legal": True} for item in key[1:])
        assert all(
            refusal(scenario.state, q.play) is None for q in scenario.questions[1:] if q.play
        )
        documents.append(document)
    assert read_lines(write_lines(documents)) == documents


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_a_finished_hand_staged_for_scoring_scores_as_played(seed: int) -> None:
    _, finished = _moments(seed)
    played = score_state(finished).to_dict()
    before_last_take = State(
        hands={"non_dealer": (), "dealer": ()},
        table=finished.last_take,
        taken={
            who: tuple(c for c in finished.taken[who] if c not in finished.last_take)
            for who in ("non_dealer", "dealer")
        },
        deal=6,
        last_capturer=finished.last_capturer,
        sweeps=finished.sweeps,
    )
    document = document_of(before_last_take, [{"kind": "score_hand"}])
    (item,) = answer_key(document)
    expected = dict(item["expected"])
    expected.pop("last_take")
    assert expected == played


def test_multiple_aces_stage_and_read_back() -> None:
    from trainer.games.casino.engine.table import build

    state = State(
        hands={"non_dealer": ("Ah", "Ad"), "dealer": ("2c", "3c")},
        table=("As",),
        deal=6,
    )
    after = apply(state, build("Ah", 1, "As"))
    document = document_of(after, [{"kind": "legal_plays", "card": "2c"}])
    assert read(document).state.table == after.table


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_moment_of_a_game_stages_as_a_valid_document(seed: int) -> None:
    moments, _ = _moments(seed)
    for state in moments:
        card = state.hands[state.turn][0]
        scenario = read(document_of(state, [{"kind": "legal_plays", "card": card}]))
        assert scenario.state.table == state.table
        assert scenario.state.turn == state.turn
