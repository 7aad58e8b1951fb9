"""Marking Scarne's Casino: each kind's answers against the expected one, in points, with the
game's own categories; the skills a question counts for; and the labels the shell reads."""

from __future__ import annotations

from decimal import Decimal

import pytest

from trainer import labels
from trainer.games import game_named
from trainer.games.marking import POINTS, UNANSWERED

CASINO = game_named("casino")
SCORE = {
    "non_dealer": {
        "cards": 0,
        "spades": 1,
        "big_casino": 0,
        "little_casino": 1,
        "aces": 2,
        "sweeps": 0,
        "total": 4,
    },
    "dealer": {
        "cards": 3,
        "spades": 0,
        "big_casino": 2,
        "little_casino": 0,
        "aces": 2,
        "sweeps": 0,
        "total": 7,
    },
    "winner": "dealer",
    "margin": 3,
    "last_take": {"to": "non_dealer", "cards": ["3h"]},
}
PLAYS = {
    "plays": [
        {"card": "Ad", "build": 6, "on": "2c+3h", "with": []},
        {"card": "Ad", "build": 6, "on": "2c+3h", "with": ["6c"]},
        {"card": "Ad", "trail": True},
    ]
}


def _given_score(**changes):
    lines = {
        who: {k: v for k, v in SCORE[who].items() if k not in ("total", "sweeps")}
        for who in ("non_dealer", "dealer")
    }
    out = {**lines, "winner": "dealer"}
    for name, value in changes.items():
        if name == "winner":
            out["winner"] = value
        else:
            who, line = name.split("__")
            out[who] = {**out[who], line: value}
    return out


CASES = [
    # is_legal
    ("is_legal", {"legal": True}, {"legal": True}, True, 0, None),
    (
        "is_legal",
        {"legal": True},
        {"legal": False, "reason": "wrong_sum"},
        False,
        1,
        "wrong_verdict",
    ),
    (
        "is_legal",
        {"legal": False, "reason": "wrong_sum"},
        {"legal": True},
        False,
        1,
        "wrong_verdict",
    ),
    (
        "is_legal",
        {"legal": False, "reason": "wrong_sum"},
        {"legal": False, "reason": "wrong_sum"},
        True,
        0,
        None,
    ),
    (
        "is_legal",
        {"legal": False, "reason": "wrong_sum"},
        {"legal": False, "reason": "build_split"},
        False,
        1,
        "wrong_reason",
    ),
    # may_take: one of the largest takes, as a set
    ("may_take", {"takes": [["2h", "2d", "2c"]]}, {"takes": ["2c", "2d", "2h"]}, True, 0, None),
    (
        "may_take",
        {"takes": [["2h", "2d", "2c"]]},
        {"takes": ["2h", "2d"]},
        False,
        1,
        "missed_items",
    ),
    ("may_take", {"takes": [["2h", "2d", "2c"]]}, {"takes": []}, False, 1, "missed_items"),
    (
        "may_take",
        {"takes": [["2h", "2d", "2c"]]},
        {"takes": ["2h", "2d", "2c", "6c"]},
        False,
        1,
        "extra_items",
    ),
    ("may_take", {"takes": [["Kd"], ["Ks"]]}, {"takes": ["Ks"]}, True, 0, None),
    ("may_take", {"takes": [["Kd"], ["Ks"]]}, {"takes": ["Kd"]}, True, 0, None),
    ("may_take", {"takes": [["Kd"], ["Ks"]]}, {"takes": ["Kd", "Ks"]}, False, 1, "extra_items"),
    ("may_take", {"takes": []}, {"takes": []}, True, 0, None),
    ("may_take", {"takes": []}, {"takes": ["7h"]}, False, 1, "extra_items"),
    # legal_plays: the canonical plays, as a set
    (
        "legal_plays",
        PLAYS,
        {"plays": ["build 6 on 2c+3h", "build 6 on 2c+3h with 6c", "trail"]},
        True,
        0,
        None,
    ),
    ("legal_plays", PLAYS, {"plays": ["build 6 on 2c+3h", "trail"]}, False, 1, "missed_plays"),
    (
        "legal_plays",
        PLAYS,
        {"plays": ["build 6 on 2c+3h", "build 6 on 2c+3h with 6c", "trail", "take 6c"]},
        False,
        1,
        "illegal_play_listed",
    ),
    ("legal_plays", {"plays": []}, {"plays": []}, True, 0, None),
    ("legal_plays", {"plays": []}, {"plays": ["trail"]}, False, 1, "illegal_play_listed"),
    # score_hand: the points off, summed over every line of both players
    ("score_hand", SCORE, _given_score(), True, 0, None),
    ("score_hand", SCORE, _given_score(dealer__aces=1), False, 1, "misscored_line"),
    (
        "score_hand",
        SCORE,
        _given_score(dealer__cards=0, non_dealer__cards=3, winner="non_dealer"),
        False,
        6,
        "misscored_line",
    ),
    ("score_hand", SCORE, _given_score(winner="non_dealer"), False, 1, "wrong_winner"),
    ("score_hand", SCORE, _given_score(winner="tie"), False, 1, "wrong_winner"),
    # rule_on: the ruling
    (
        "rule_on",
        {"ruling": "loss_of_game", "offender": "dealer", "credited": "non_dealer", "points": 11},
        {"ruling": "loss_of_game"},
        True,
        0,
        None,
    ),
    ("rule_on", {"ruling": "misdeal"}, {"ruling": "hand_redealt"}, False, 1, "wrong_ruling"),
]


@pytest.mark.parametrize(("kind", "expected", "answer", "right", "cost", "category"), CASES)
def test_each_kind_is_marked_in_points_with_its_category(
    kind, expected, answer, right, cost, category
):
    mark = CASINO.compare({"n": 1, "kind": kind, "expected": expected}, answer)
    assert (mark.right, mark.cost, mark.category) == (right, Decimal(cost), category)


def test_a_tied_hand_is_won_by_nobody():
    tied = {**SCORE, "winner": None}
    assert CASINO.compare(
        {"kind": "score_hand", "expected": tied}, _given_score(winner="tie")
    ).right


def test_its_vocabulary_is_its_own():
    assert CASINO.cost_unit == POINTS
    assert CASINO.apart_kinds == ()
    assert not any(category.form for category in CASINO.categories.values())
    unanswered = CASINO.unanswered()
    assert (unanswered.right, unanswered.cost, unanswered.category) == (False, 0, UNANSWERED)
    assert labels.category_label("wrong_reason", game="casino") == "Right call, wrong reason"
    assert list(CASINO.skills) == [
        "capture-pair",
        "capture-sum",
        "court-cards",
        "single-build",
        "multiple-build",
        "raise-build",
        "trailing",
        "last-take",
        "scoring",
        "penalties",
        "misdeals",
    ]
    assert CASINO.skills["last-take"] == "The last take"


@pytest.mark.parametrize(
    ("kind", "skills"),
    [
        ("is_legal", ("capture-pair", "trailing", "last-take")),
        ("may_take", ("capture-pair", "trailing", "last-take")),
        ("legal_plays", ("capture-pair", "trailing", "last-take")),
        ("score_hand", ("last-take", "scoring")),
        ("rule_on", ("penalties", "misdeals")),
    ],
)
def test_a_question_counts_for_the_rounds_skills_its_kind_fits(kind, skills):
    round_skills = ["capture-pair", "trailing", "last-take", "scoring", "penalties", "misdeals"]
    assert CASINO.question_skills(round_skills, {"kind": kind}) == skills
    for skill in skills:
        assert kind in CASINO.skill_kinds(skill)
        assert CASINO.skill_by_hand(skill) == (kind == "rule_on")
    assert CASINO.skill_kinds("natural-3to2") == frozenset()


@pytest.mark.parametrize(
    ("situation", "skills"),
    [
        ("faulty_build", ("penalties",)),
        ("last_not_announced", ("penalties",)),
        ("card_exposed", ("misdeals",)),
        ("face_up_in_pack", ("misdeals",)),
        ("wrong_number", ("penalties", "misdeals")),
    ],
)
def test_a_ruling_counts_for_penalties_or_misdeals_by_its_situation(situation, skills):
    question = {"kind": "rule_on", "view": {"situation": {"kind": situation}}}
    assert CASINO.question_skills(["penalties", "misdeals", "scoring"], question) == skills
