"""The worked examples of the spec and of the seed text (Scarne), played through the engine."""

from __future__ import annotations

from trainer.games.casino.engine import apply, legal_plays, refusal
from trainer.games.casino.engine.table import Build, build, take

from .helpers import b, staged


def test_the_ten_spot_takes_three_tens_and_an_ace_six_three() -> None:
    state = staged(["Ts"], ["Th", "Td", "Tc", "Ah", "6s", "3c"])
    play = take("Ts", "Th", "Td", "Tc", "Ah", "6s", "3c")
    assert refusal(state, play) is None
    after = apply(state, play)
    assert sorted(after.taken["non_dealer"]) == sorted(["Ts", "Th", "Td", "Tc", "Ah", "6s", "3c"])
    assert after.table == ()
    assert after.last_capturer == "non_dealer"
    # taking is group by group: each group alone is a legal take too
    assert play in legal_plays(state, "Ts")
    assert take("Ts", "Ah", "6s", "3c") in legal_plays(state, "Ts")


def test_a_six_takes_three_deuces_and_so_does_a_deuce() -> None:
    state = staged(["2s", "6h"], ["2h", "2d", "2c"])
    assert refusal(state, take("6h", "2h", "2d", "2c")) is None
    assert refusal(state, take("2s", "2h", "2d", "2c")) is None


def test_with_three_deuces_and_a_six_the_six_cleans_the_board() -> None:
    state = staged(["6h", "Kd"], ["2h", "2d", "2c", "6c"])
    after = apply(state, take("6h", "2h", "2d", "2c", "6c"))
    assert after.table == ()
    assert len(after.taken["non_dealer"]) == 5
    assert after.sweeps["non_dealer"] == 1  # counted; scored only with the sweeps variant


def test_building_nine_with_an_ace_on_a_six_and_a_deuce() -> None:
    state = staged(["Ah", "9c"], ["6s", "2d"])
    after = apply(state, build("Ah", 9, "6s", "2d"))
    (made,) = after.table
    assert isinstance(made, Build)
    assert (made.value, made.multiple, made.owner) == (9, False, "non_dealer")
    assert sorted(made.cards) == sorted(["Ah", "6s", "2d"])
    # without the nine in hand it is refused
    assert (
        refusal(staged(["Ah", "8c"], ["6s", "2d"]), build("Ah", 9, "6s", "2d")) == "no_card_to_take"
    )


def test_the_five_raised_to_six_and_only_a_six_takes_it() -> None:
    state = staged(["Ad", "6h"], [b("3h", "2c", value=5, owner="dealer")])
    after = apply(state, build("Ad", 6, on="2c+3h"))
    (raised,) = after.table
    assert isinstance(raised, Build)
    assert (raised.value, raised.multiple, raised.owner) == (6, False, "non_dealer")
    dealer = staged(["5c", "6d"], after.table, turn="dealer")
    assert refusal(dealer, take("5c", raised.key)) == "build_split"
    assert refusal(dealer, take("6d", raised.key)) is None
    # it can be raised on to seven, eight, nine or ten
    for card, value in (("Ac", 7), ("2c", 8), ("3c", 9), ("4c", 10)):
        hand = [card, {7: "7s", 8: "8s", 9: "9s", 10: "Ts"}[value]]
        assert (
            refusal(staged(hand, after.table, turn="dealer"), build(card, value, on=raised.key))
            is None
        )


def test_a_table_card_never_changes_a_single_builds_value() -> None:
    state = staged(["Ad", "8h"], [b("3h", "2c", value=5), "2d"])
    assert refusal(state, build("Ad", 8, "2d", on="2c+3h")) == "increase_from_hand"


def test_multiple_nines_a_nine_on_ones_own_nine() -> None:
    state = staged(["9h", "9c"], [b("6s", "3h", value=9, owner="non_dealer")])
    after = apply(state, build("9h", 9, on="3h+6s"))
    (nines,) = after.table
    assert isinstance(nines, Build)
    assert (nines.value, nines.multiple) == (9, True)


def test_multiple_nines_a_four_with_the_tables_five() -> None:
    state = staged(["9h", "4c", "6d"], [b("6s", "3h", value=9, owner="non_dealer"), "5d"])
    after = apply(state, build("4c", 9, "5d", on="3h+6s"))
    (nines,) = after.table
    assert isinstance(nines, Build)
    assert (nines.value, nines.multiple, len(nines.cards)) == (9, True, 4)
    assert (
        refusal(staged(["9h", "4c"], after.table), build("4c", 13, on=nines.key))
        == "multiple_is_fixed"
    )


def test_a_multiple_build_of_sevens_is_not_raised() -> None:
    sevens = b("7c", "4s", "3d", value=7, multiple=True)
    assert (
        refusal(staged(["Ah", "8c"], [sevens]), build("Ah", 8, on=sevens.key))
        == "multiple_is_fixed"
    )


def test_fours_are_not_taken_with_an_eight() -> None:
    state = staged(["4h", "4c"], ["4s"])
    after = apply(state, build("4h", 4, "4s"))
    (fours,) = after.table
    assert isinstance(fours, Build)
    assert fours.multiple
    dealer = staged(["8d"], after.table, turn="dealer")
    assert refusal(dealer, take("8d", fours.key)) == "multiple_is_fixed"


def test_the_court_card_rule() -> None:
    two_kings = staged(["Kh"], ["Ks", "Kd"])
    assert refusal(two_kings, take("Kh", "Ks")) is None
    assert refusal(two_kings, take("Kh", "Ks", "Kd")) == "court_takes_one"
    three_kings = staged(["Kh"], ["Ks", "Kd", "Kc"])
    after = apply(three_kings, take("Kh", "Ks", "Kd", "Kc"))
    assert len(after.taken["non_dealer"]) == 4
    for court in ("Q", "J"):
        three = staged([court + "h"], [court + "s", court + "d", court + "c"])
        assert refusal(three, take(court + "h", court + "s", court + "d", court + "c")) is None


def test_the_six_takes_the_four_and_two_and_the_four_builds_tens() -> None:
    # the seed's pictures: a six takes a four and a two; a four on the table's six, "tens"
    assert refusal(staged(["6h"], ["4s", "2d"]), take("6h", "2d", "4s")) is None
    assert refusal(staged(["4h", "Tc"], ["6s"]), build("4h", 10, "6s")) is None


def test_a_player_with_a_build_may_not_trail() -> None:
    state = staged(["9h", "2c"], [b("6s", "3h", value=9, owner="non_dealer")])
    assert refusal(state, build("2c", 2, "2c")) is not None
    assert {p.kind for p in legal_plays(state, "2c")} <= {"take", "build"}
