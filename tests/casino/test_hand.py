"""The deal, the last take, scoring by line, the invariants, match play, penalties, profiles."""

from __future__ import annotations

from typing import Any

import pytest

from trainer.games.casino.engine import (
    InvariantError,
    Profile,
    apply,
    check_invariants,
    full_pack,
    new_hand,
    profile_from,
    rule_on,
    score,
)
from trainer.games.casino.engine.profiles import ProfileError
from trainer.games.casino.engine.rulings import SituationError
from trainer.games.casino.engine.scoring import HandScore, MatchState, match_after
from trainer.games.casino.engine.state import State
from trainer.games.casino.engine.table import take, trail

PACK = full_pack()


def test_the_first_deal_two_and_two_with_four_to_the_table() -> None:
    state = new_hand(PACK)
    assert state.hands["non_dealer"] == (PACK[0], PACK[1], PACK[6], PACK[7])
    assert state.table == (PACK[2], PACK[3], PACK[8], PACK[9])
    assert state.hands["dealer"] == (PACK[4], PACK[5], PACK[10], PACK[11])
    assert (state.deal, state.turn, len(state.stock), state.last_announced) == (
        1,
        "non_dealer",
        40,
        False,
    )


def test_six_deals_the_last_announced_and_none_to_the_table_later() -> None:
    state = new_hand(PACK)
    deals = [state.deal]
    while not state.finished:
        card = state.hands[state.turn][0]
        state = apply(state, trail(card)) if state.deal < 6 or state.hands[state.turn] else state
        if not state.finished and state.deal != deals[-1]:
            deals.append(state.deal)
            assert len(state.hands["dealer"]) == len(state.hands["non_dealer"]) == 4
            assert state.turn == "non_dealer"
    assert deals == [1, 2, 3, 4, 5, 6]
    # nobody captured: *decided*, the dealer takes what is left
    assert len(state.taken["dealer"]) == 52


def test_the_last_capturer_takes_what_is_left_and_it_is_no_sweep() -> None:
    hands: Any = {"non_dealer": ("7h",), "dealer": ("Kc",)}
    taken: Any = {
        "non_dealer": (),
        "dealer": tuple(c for c in PACK if c not in ("7h", "Kc", "7s", "2d")),
    }
    state = State(hands=hands, table=("7s", "2d"), taken=taken, deal=6)
    state = apply(state, take("7h", "7s"))
    state = apply(state, trail("Kc"))
    assert state.finished
    assert set(state.last_take) == {"2d", "Kc"}
    assert set(state.taken["non_dealer"]) == {"7h", "7s", "2d", "Kc"}
    assert state.sweeps == {"non_dealer": 0, "dealer": 0}


def _split(first: list[str]) -> Any:
    return {"non_dealer": tuple(first), "dealer": tuple(c for c in PACK if c not in first)}


def test_score_by_line() -> None:
    spades = [c for c in PACK if c[1] == "s"][:7]
    mine = [*spades, "Td", "Ah", "Ad"]  # 2s is among the spades
    result = score(_split(mine))
    assert result.lines["non_dealer"] == {
        "cards": 0,
        "spades": 1,
        "big_casino": 2,
        "little_casino": 1,
        "aces": 3,
        "sweeps": 0,
        "total": 7,
    }
    assert result.lines["dealer"]["cards"] == 3
    assert result.lines["dealer"]["aces"] == 1
    assert result.total("dealer") == 4
    assert (result.winner, result.margin) == ("non_dealer", 3)


def test_cards_tie_scores_nobody_and_eight_points() -> None:
    result = score(_split(list(PACK[:26])))
    assert result.lines["non_dealer"]["cards"] == result.lines["dealer"]["cards"] == 0
    assert result.total("non_dealer") + result.total("dealer") == 8


def test_sweeps_score_only_with_the_variant() -> None:
    taken = _split(list(PACK[:30]))
    sweeps: Any = {"non_dealer": 2, "dealer": 1}
    assert score(taken, sweeps).lines["non_dealer"]["sweeps"] == 0
    on = score(taken, sweeps, Profile(sweeps=True))
    assert (on.lines["non_dealer"]["sweeps"], on.lines["dealer"]["sweeps"]) == (2, 1)


def test_a_tied_hand_has_no_winner() -> None:
    # 26 each; non-dealer: 7 spades (1) + Td (2) + Ah (1) = 4; dealer: 3 aces + 2s = 4
    mine = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Td", "Ah"]
    rest = [c for c in PACK if c not in mine and c != "2s" and c[0] != "A"]
    mine += rest[: 26 - len(mine)]
    result = score(_split(mine))
    assert result.total("non_dealer") == 4 == result.total("dealer")
    assert (result.winner, result.margin) == (None, 0)


def test_invariants_catch_a_lost_card() -> None:
    taken = _split(list(PACK[:30]))
    state = State(hands={"non_dealer": (), "dealer": ()}, taken=taken, finished=True)
    check_invariants(state, score(taken))
    short: Any = {"non_dealer": taken["non_dealer"][1:], "dealer": taken["dealer"]}
    broken = State(hands={"non_dealer": (), "dealer": ()}, taken=short, finished=True)
    with pytest.raises(InvariantError, match="51 cards"):
        check_invariants(broken, score(short))


@pytest.mark.parametrize(
    ("goal", "before", "points", "winner"),
    [
        (None, (0, 0), (7, 4), "non_dealer"),
        (11, (0, 0), (7, 4), None),
        (11, (6, 2), (7, 4), "non_dealer"),
        (11, (6, 8), (5, 6), "dealer"),  # both reach 11: 11 against 14
        (21, (15, 19), (5, 3), "dealer"),  # 20 and 22
        (11, (8, 8), (3, 3), None),  # equal at the goal: another hand (decided)
    ],
)
def test_match_play(goal, before, points, winner) -> None:
    first, second = points
    leader: Any = None if first == second else ("non_dealer" if first > second else "dealer")
    hand = HandScore({"non_dealer": {"total": first}, "dealer": {"total": second}}, leader, 0)
    match = MatchState({"non_dealer": before[0], "dealer": before[1]})
    after = match_after(match, hand, Profile(match_goal=goal))
    assert after.winner == winner
    assert after.totals == {"non_dealer": before[0] + first, "dealer": before[1] + second}


@pytest.mark.parametrize(
    ("situation", "ruling"),
    [
        (
            {"kind": "faulty_build", "offender": "dealer"},
            {
                "ruling": "loss_of_game",
                "offender": "dealer",
                "credited": "non_dealer",
                "points": 11,
            },
        ),
        (
            {"kind": "trail_owning_build", "offender": "non_dealer"},
            {
                "ruling": "loss_of_game",
                "offender": "non_dealer",
                "credited": "dealer",
                "points": 11,
            },
        ),
        (
            {"kind": "last_not_announced", "trick_played": True},
            {
                "ruling": "loss_of_game",
                "offender": "dealer",
                "credited": "non_dealer",
                "points": 11,
            },
        ),
        ({"kind": "last_not_announced", "trick_played": False}, {"ruling": "no_penalty"}),
        (
            {
                "kind": "looked_at_taken",
                "offender": "dealer",
                "last_trick_only": True,
                "opponent_played": False,
            },
            {"ruling": "no_penalty"},
        ),
        (
            {
                "kind": "looked_at_taken",
                "offender": "dealer",
                "last_trick_only": True,
                "opponent_played": True,
            },
            {
                "ruling": "loss_of_game",
                "offender": "dealer",
                "credited": "non_dealer",
                "points": 11,
            },
        ),
        (
            {
                "kind": "looked_at_taken",
                "offender": "non_dealer",
                "last_trick_only": False,
                "opponent_played": False,
            },
            {
                "ruling": "loss_of_game",
                "offender": "non_dealer",
                "credited": "dealer",
                "points": 11,
            },
        ),
        (
            {
                "kind": "card_exposed",
                "offender": "dealer",
                "belongs_to": "opponent",
                "within_first_12": True,
            },
            {"ruling": "misdeal"},
        ),
        (
            {
                "kind": "card_exposed",
                "offender": "dealer",
                "belongs_to": "opponent",
                "within_first_12": False,
            },
            {"ruling": "hand_redealt"},
        ),
        (
            {
                "kind": "card_exposed",
                "offender": "dealer",
                "belongs_to": "self",
                "within_first_12": True,
            },
            {"ruling": "play_stands"},
        ),
        (
            {"kind": "face_up_in_pack", "receiver": "non_dealer", "count": 2},
            {"ruling": "look_at_opponent", "receiver": "non_dealer", "count": 2},
        ),
        (
            {"kind": "wrong_number", "offender": "dealer", "before_first_trick": True},
            {"ruling": "misdeal"},
        ),
        (
            {"kind": "wrong_number", "offender": "dealer", "before_first_trick": False},
            {
                "ruling": "loss_of_game",
                "offender": "dealer",
                "credited": "non_dealer",
                "points": 11,
            },
        ),
    ],
)
def test_penalties_and_misdeals(situation, ruling) -> None:
    assert rule_on(situation).to_dict() == ruling


@pytest.mark.parametrize(
    ("situation", "field"),
    [
        ({"kind": "spilled_drink"}, "kind"),
        ({"kind": "faulty_build"}, "offender"),
        ({"kind": "faulty_build", "offender": "pit"}, "offender"),
        (
            {"kind": "wrong_number", "offender": "dealer", "before_first_trick": "yes"},
            "before_first_trick",
        ),
        ({"kind": "face_up_in_pack", "receiver": "dealer", "count": 0}, "count"),
        ({"kind": "faulty_build", "offender": "dealer", "extra": 1}, "extra"),
    ],
)
def test_a_situation_the_rulings_do_not_know(situation, field) -> None:
    with pytest.raises(SituationError) as caught:
        rule_on(situation)
    assert caught.value.field == field


def test_profiles() -> None:
    assert profile_from("scarne-casino") == Profile()
    assert profile_from(
        {"profile": "scarne-casino", "overrides": {"sweeps": True, "match_goal": 21}}
    ) == Profile(sweeps=True, match_goal=21)
    for bad in (
        "pinochle",
        {"profile": "scarne-casino", "overrides": {"match_goal": 15}},
        {"profile": "scarne-casino", "overrides": {"sweeps": 1}},
        {"profile": "scarne-casino", "overrides": {"decks": 2}},
    ):
        with pytest.raises(ProfileError):
            profile_from(bad)


def test_an_illegal_play_is_refused_with_its_reason() -> None:
    from trainer.games.casino.engine import IllegalPlayError

    state = new_hand(PACK)
    with pytest.raises(IllegalPlayError) as caught:
        apply(state, trail("Kc") if "Kc" not in state.hands["non_dealer"] else trail("2s"))
    assert caught.value.reason == "not_in_hand"


def test_a_whole_hand_and_a_match_to_21() -> None:
    import random

    from trainer.games.casino.engine.hand import play_hand, play_match

    rng = random.Random(7)

    def packs():
        while True:
            pack = list(PACK)
            rng.shuffle(pack)
            yield pack

    state, result = play_hand(next(packs()), lambda s, plays: rng.choice(plays))
    assert state.finished
    assert result.total("dealer") + result.total("non_dealer") in (8, 11)
    outcome = play_match(packs(), lambda s, plays: rng.choice(plays), Profile(match_goal=21))
    assert outcome.match.winner is not None
    totals = outcome.match.totals
    assert max(totals.values()) >= 21
    assert totals[outcome.match.winner] > totals[other_player(outcome.match.winner)]
    assert sum(h.total("dealer") for h in outcome.hands) == totals["dealer"]


def other_player(who: Any) -> Any:
    return "dealer" if who == "non_dealer" else "non_dealer"


def test_clearing_the_table_with_the_last_card_is_a_sweep_before_an_empty_last_take() -> None:
    # *decided* (docs/casino-rules.md): the last take gathers what is left; a capture with
    # the hand's last card that leaves nothing to gather is a capture that clears the table.
    hands: Any = {"non_dealer": ("2d",), "dealer": ("9h",)}
    rest = tuple(c for c in PACK if c not in ("2d", "9h", "7s"))
    state = State(hands=hands, table=("7s",), taken={"non_dealer": rest, "dealer": ()}, deal=6)
    state = apply(state, trail("2d"))
    state = apply(state, take("9h", "7s", "2d"))
    assert state.finished
    assert state.last_take == ()
    assert state.sweeps == {"non_dealer": 0, "dealer": 1}
    assert score(state.taken, state.sweeps, Profile(sweeps=True)).lines["dealer"]["sweeps"] == 1
    assert score(state.taken, state.sweeps).lines["dealer"]["sweeps"] == 0
