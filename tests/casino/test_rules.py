"""Every rule and every refusal reason, table-driven (docs/casino-rules.md), written first.

Each case stages the player's hand and the table, names a play and says the engine's one
reason (None: legal). Builds are named by their cards joined with "+" in rank order.
"""

from __future__ import annotations

import pytest

from trainer.games.casino.engine import REASONS, legal_plays, refusal
from trainer.games.casino.engine.table import Play, build, take, trail

from .helpers import b, staged

# (case id, hand, table, play, reason or None)
CASES: list[tuple[str, list[str], list, Play, str | None]] = [
    # Captures by pairing and by sum
    ("pair-one", ["7h"], ["7s", "2c"], take("7h", "7s"), None),
    ("pair-and-sum", ["7h"], ["7s", "4c", "3d"], take("7h", "7s", "4c", "3d"), None),
    ("sum-only", ["9h"], ["4c", "5d", "Kc"], take("9h", "4c", "5d"), None),
    ("group-by-group-optional", ["7h"], ["7s", "4c", "3d"], take("7h", "7s"), None),
    (
        "take-own-build",
        ["9h"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        take("9h", "3h+6s"),
        None,
    ),
    ("take-opponents-build", ["9h"], [b("6s", "3h", value=9)], take("9h", "3h+6s"), None),
    (
        "take-build-and-loose",
        ["9h"],
        [b("6s", "3h", value=9), "9c", "5d", "4d"],
        take("9h", "3h+6s", "9c", "4d", "5d"),
        None,
    ),
    (
        "take-multiple-of-its-value",
        ["7h"],
        [b("7c", "4s", "3d", value=7, multiple=True)],
        take("7h", "3d+4s+7c"),
        None,
    ),
    # Court cards
    ("court-pair", ["Kh"], ["Ks", "Kd"], take("Kh", "Ks"), None),
    ("court-fourth-takes-three", ["Kh"], ["Ks", "Kd", "Kc"], take("Kh", "Kc", "Kd", "Ks"), None),
    ("court-fourth-takes-one", ["Kh"], ["Ks", "Kd", "Kc"], take("Kh", "Kd"), None),
    ("court-trail", ["Qh"], ["Ks"], trail("Qh"), None),
    # Builds
    ("build-single", ["Ah", "9c"], ["6s", "2d"], build("Ah", 9, "6s", "2d"), None),
    ("build-tens-four-on-six", ["4h", "Tc"], ["6s"], build("4h", 10, "6s"), None),
    ("build-multiple-card-on-equal", ["4h", "4c"], ["4s"], build("4h", 4, "4s"), None),
    ("build-multiple-card-on-group", ["9h", "9c"], ["6s", "3d"], build("9h", 9, "3d", "6s"), None),
    (
        "build-multiple-two-groups",
        ["Ah", "9c"],
        ["8s", "6d", "3d"],
        build("Ah", 9, "8s", "6d", "3d"),
        None,
    ),
    (
        "raise-opponents-five-to-six",
        ["Ad", "6h"],
        [b("3h", "2c", value=5)],
        build("Ad", 6, on="2c+3h"),
        None,
    ),
    (
        "raise-own",
        ["Ad", "6h"],
        [
            b("3h", "2c", value=5, owner="non_dealer"),
        ],
        build("Ad", 6, on="2c+3h"),
        None,
    ),
    (
        "raise-with-loose-group-of-new-value",
        ["Ad", "6h"],
        [b("3h", "2c", value=5), "6c"],
        build("Ad", 6, "6c", on="2c+3h"),
        None,
    ),
    (
        "add-nine-to-own-nine",
        ["9h", "9c"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        build("9h", 9, on="3h+6s"),
        None,
    ),
    (
        "add-four-and-table-five",
        ["9h", "4c", "6d"],
        [b("6s", "3h", value=9, owner="non_dealer"), "5d"],
        build("4c", 9, "5d", on="3h+6s"),
        None,
    ),
    (
        "add-to-multiple",
        ["4c", "9h"],
        [b("6s", "3h", "9d", value=9, multiple=True), "5d"],
        build("4c", 9, "5d", on="3h+6s+9d"),
        None,
    ),
    (
        "build-while-owning-another",
        ["Ah", "9c", "7d"],
        [b("4s", "3h", value=7, owner="non_dealer"), "6s", "2d"],
        build("Ah", 9, "6s", "2d"),
        None,
    ),
    ("trail-free", ["5h"], ["Kc"], trail("5h"), None),
    ("build-multiple-aces", ["Ah", "Ad"], ["As"], build("Ah", 1, "As"), None),
    # not_in_hand
    ("not-in-hand-take", ["7h"], ["7s"], take("7c", "7s"), "not_in_hand"),
    ("not-in-hand-trail", ["7h"], [], trail("8h"), "not_in_hand"),
    ("not-in-hand-before-not-on-table", ["7h"], [], take("7c", "7s"), "not_in_hand"),
    # not_on_table
    ("not-on-table-missing", ["7h"], ["7s"], take("7h", "7c"), "not_on_table"),
    (
        "not-on-table-build-missing",
        ["7h"],
        ["7s"],
        build("7h", 7, "7s", on="3d+4c"),
        "not_on_table",
    ),
    ("not-on-table-target-is-loose", ["Ah", "6h"], ["5s"], build("Ah", 6, on="5s"), "not_on_table"),
    ("not-on-table-before-court", ["Kh"], ["Ks"], take("Kh", "Ks", "Kd"), "not_on_table"),
    ("not-on-table-named-twice", ["7h"], ["7s"], Play("7h", "take", ("7s", "7s")), "not_on_table"),
    # court_takes_one
    ("court-takes-two-of-two", ["Kh"], ["Ks", "Kd"], take("Kh", "Ks", "Kd"), "court_takes_one"),
    (
        "court-takes-two-of-three",
        ["Kh"],
        ["Ks", "Kd", "Kc"],
        take("Kh", "Ks", "Kd"),
        "court_takes_one",
    ),
    ("court-takes-other-card-too", ["Qh"], ["Qs", "5d"], take("Qh", "Qs", "5d"), "court_takes_one"),
    (
        "court-takes-one-before-in-build",
        ["Kh"],
        ["Ks", b("4s", "3h", value=7)],
        take("Kh", "Ks", "3h+4s"),
        "court_takes_one",
    ),
    # court_in_build
    ("court-builds", ["Jh", "Tc"], ["5s"], build("Jh", 10, "5s"), "court_in_build"),
    (
        "court-named-in-build",
        ["5h", "Tc"],
        ["5s", "Qd"],
        build("5h", 10, "5s", "Qd"),
        "court_in_build",
    ),
    ("court-takes-a-number", ["Kh"], ["5s"], take("Kh", "5s"), "court_in_build"),
    (
        "court-takes-a-build",
        ["Kh"],
        [b("4s", "3h", value=7)],
        take("Kh", "3h+4s"),
        "court_in_build",
    ),
    (
        "court-in-build-before-split",
        ["Kh"],
        [b("4s", "3h", value=7), "5d"],
        build("Kh", 7, "3h+4s"),
        "court_in_build",
    ),
    # build_split
    (
        "single-taken-by-other-value",
        ["8h"],
        [b("6s", "3h", value=9)],
        take("8h", "3h+6s"),
        "build_split",
    ),
    (
        "build-combined-with-loose",
        ["9h"],
        [b("4s", "2h", value=6), "3d"],
        take("9h", "2h+4s", "3d"),
        "build_split",
    ),
    (
        "build-used-in-new-build",
        ["Ah", "8c"],
        [b("4s", "3h", value=7)],
        build("Ah", 8, "3h+4s"),
        "build_split",
    ),
    (
        "split-before-fixed",
        ["8h"],
        [b("6s", "3h", value=9), b("4c", "4d", value=4, multiple=True)],
        take("8h", "3h+6s", "4c+4d"),
        "build_split",
    ),
    # multiple_is_fixed
    (
        "fours-not-taken-by-eight",
        ["8h"],
        [b("4h", "4s", value=4, multiple=True)],
        take("8h", "4h+4s"),
        "multiple_is_fixed",
    ),
    (
        "sevens-not-raised",
        ["Ah", "8c"],
        [b("7c", "4s", "3d", value=7, multiple=True)],
        build("Ah", 8, on="3d+4s+7c"),
        "multiple_is_fixed",
    ),
    (
        "fixed-before-over-ten",
        ["5h", "Tc"],
        [b("7c", "4s", "3d", value=7, multiple=True)],
        build("5h", 12, on="3d+4s+7c"),
        "multiple_is_fixed",
    ),
    # increase_from_hand
    (
        "table-card-raises",
        ["Ah", "8c"],
        [b("3h", "2c", value=5), "2d"],
        build("Ah", 8, "2d", on="2c+3h"),
        "increase_from_hand",
    ),
    (
        "table-card-only-raise",
        ["3h", "7c"],
        [b("2h", "2c", value=4), "3d"],
        build("3h", 7, "3d", on="2c+2h"),
        "increase_from_hand",
    ),
    (
        "from-hand-before-over-ten",
        ["3h", "Tc"],
        [b("6s", "3c", value=9), "2d"],
        build("3h", 14, "2d", on="3c+6s"),
        "increase_from_hand",
    ),
    # build_over_ten
    ("new-build-over-ten", ["6h", "Tc"], ["5s"], build("6h", 11, "5s"), "build_over_ten"),
    (
        "raise-over-ten",
        ["3h", "Tc"],
        [b("6s", "3c", value=9)],
        build("3h", 12, on="3c+6s"),
        "build_over_ten",
    ),
    ("over-ten-before-wrong-sum", ["2h", "Tc"], ["5s"], build("2h", 11, "5s"), "build_over_ten"),
    # wrong_sum
    ("sum-wrong", ["9h"], ["5s", "3d"], take("9h", "3d", "5s"), "wrong_sum"),
    ("capture-takes-nothing", ["9h"], ["5s"], take("9h"), "wrong_sum"),
    ("number-takes-court", ["9h"], ["Qs"], take("9h", "Qs"), "wrong_sum"),
    ("build-no-table-card", ["4h", "Tc"], ["6s"], build("4h", 4), "wrong_sum"),
    ("build-sum-wrong", ["4h", "Tc"], ["5s"], build("4h", 10, "5s"), "wrong_sum"),
    (
        "raise-sum-wrong",
        ["Ah", "7c"],
        [b("3h", "2c", value=5)],
        build("Ah", 7, on="2c+3h"),
        "wrong_sum",
    ),
    ("wrong-sum-before-no-card", ["4h"], ["5s"], build("4h", 10, "5s"), "wrong_sum"),
    # no_card_to_take
    (
        "build-without-card",
        ["Ah", "8c"],
        ["6s", "2d"],
        build("Ah", 9, "6s", "2d"),
        "no_card_to_take",
    ),
    (
        "raise-without-card",
        ["Ad", "5h"],
        [b("3h", "2c", value=5)],
        build("Ad", 6, on="2c+3h"),
        "no_card_to_take",
    ),
    (
        "last-card-of-own-build-taken-elsewhere",
        ["9h", "2c"],
        [b("6s", "3h", value=9, owner="non_dealer"), "9d"],
        take("9h", "9d"),
        "no_card_to_take",
    ),
    (
        "last-card-trailed-before-must-not-trail",
        ["9h", "2c"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        trail("9h"),
        "no_card_to_take",
    ),
    (
        "multiple-without-second-nine",
        ["9h"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        build("9h", 9, on="3h+6s"),
        "no_card_to_take",
    ),
    # must_not_trail
    (
        "trail-owning-build",
        ["9h", "2c"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        trail("2c"),
        "must_not_trail",
    ),
    (
        "trail-court-owning-build",
        ["9h", "Qc"],
        [b("6s", "3h", value=9, owner="non_dealer")],
        trail("Qc"),
        "must_not_trail",
    ),
]


@pytest.mark.parametrize(
    ("name", "hand", "table", "play", "reason"), CASES, ids=[c[0] for c in CASES]
)
def test_the_engine_rules_as_the_spec_says(name, hand, table, play, reason) -> None:
    state = staged(hand, table)
    assert refusal(state, play) == reason
    plays = legal_plays(state, play.card)
    assert (play.canonical() in plays) == (reason is None)


def test_every_reason_is_exercised_at_least_twice() -> None:
    counts = {reason: sum(case[4] == reason for case in CASES) for reason in REASONS}
    assert all(count >= 2 for count in counts.values()), counts


def test_the_reasons_are_the_specs_list_in_order() -> None:
    assert REASONS == (
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
