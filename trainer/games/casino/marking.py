"""Marking Scarne's Casino: an answer (as `reading.parse_answer` gives it) against the
engine's expected answer, a cost in points, the categories of mistake and the skills.

A score is off by the points it misses or adds, summed over every line of both players (a
wrong winner with every line right costs 1); any other wrong answer costs 1 point."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from trainer.games.casino import generator, grammar
from trainer.games.casino.engine.scoring import LINES
from trainer.games.casino.words import PLAYERS
from trainer.games.marking import POINTS, UNANSWERED, Category, Mark, Words

POINT = Decimal(1)
RIGHT = Mark(True, Decimal(0), None)
POINT_WORDS = (
    "Points: a wrong call, take, list of plays or ruling costs 1 point; a wrong score costs "
    "the points it miscounts, or 1 for the wrong winner."
)


class CasinoCategory(Words):
    """Why a Casino answer is wrong, with its words."""

    WRONG_VERDICT = "wrong_verdict", "Wrong call on a play's legality"
    WRONG_REASON = "wrong_reason", "Right call, wrong reason"
    MISSED_ITEMS = "missed_items", "Missed items the card takes"
    EXTRA_ITEMS = "extra_items", "Took items the card may not take"
    MISSED_PLAYS = "missed_plays", "Missed a legal play"
    ILLEGAL_PLAY_LISTED = "illegal_play_listed", "Listed an illegal play"
    MISSCORED_LINE = "misscored_line", "Miscounted a line of the score"
    WRONG_WINNER = "wrong_winner", "Named the wrong winner"
    WRONG_RULING = "wrong_ruling", "Wrong ruling"


# None is a mistake of form only: each is a wrong ruling at the table.
CATEGORIES: dict[str, Category] = {c.value: Category(c.words) for c in CasinoCategory}


class Skill(Words):
    """The skills Casino teaches (shared with the library: trainer/games/casino/generator.py)."""

    CAPTURE_PAIR = "capture-pair", "Captures by pairing"
    CAPTURE_SUM = "capture-sum", "Captures by sum"
    COURT_CARDS = "court-cards", "Court cards"
    SINGLE_BUILD = "single-build", "Single builds"
    MULTIPLE_BUILD = "multiple-build", "Multiple builds"
    RAISE_BUILD = "raise-build", "Raising a build"
    TRAILING = "trailing", "Trailing"
    LAST_TAKE = "last-take", "The last take"
    SCORING = "scoring", "Scoring a hand"
    PENALTIES = "penalties", "Penalties"
    MISDEALS = "misdeals", "Misdeals"


SKILLS: dict[str, str] = dict(Skill.choices)
PLAY_KINDS = frozenset({"is_legal", "may_take", "legal_plays"})
# Which question kinds exercise each skill: a question counts for a round's skill when
# its kind is one of these.
SKILL_KINDS: Mapping[str, frozenset[str]] = {
    Skill.CAPTURE_PAIR: PLAY_KINDS,
    Skill.CAPTURE_SUM: PLAY_KINDS,
    Skill.COURT_CARDS: PLAY_KINDS,
    Skill.SINGLE_BUILD: PLAY_KINDS,
    Skill.MULTIPLE_BUILD: PLAY_KINDS,
    Skill.RAISE_BUILD: PLAY_KINDS,
    Skill.TRAILING: PLAY_KINDS,
    Skill.LAST_TAKE: PLAY_KINDS | {"score_hand"},
    Skill.SCORING: frozenset({"score_hand"}),
    Skill.PENALTIES: frozenset({"rule_on"}),
    Skill.MISDEALS: frozenset({"rule_on"}),
}
assert set(SKILL_KINDS) == set(SKILLS)
# The generator (plain Python, below the seam) deals the same skills, in the same order.
assert tuple(SKILLS) == generator.SKILLS
# A ruling is about a penalty or a misdeal by its situation (a wrong number of cards is
# either: a misdeal before the first trick, loss of the game after).
SITUATION_SKILLS: Mapping[str, frozenset[str]] = {
    "faulty_build": frozenset({Skill.PENALTIES}),
    "trail_owning_build": frozenset({Skill.PENALTIES}),
    "last_not_announced": frozenset({Skill.PENALTIES}),
    "looked_at_taken": frozenset({Skill.PENALTIES}),
    "card_exposed": frozenset({Skill.MISDEALS}),
    "face_up_in_pack": frozenset({Skill.MISDEALS}),
    "wrong_number": frozenset({Skill.PENALTIES, Skill.MISDEALS}),
}
BY_SITUATION = frozenset({Skill.PENALTIES, Skill.MISDEALS})


def _wrong(category: CasinoCategory, cost: Decimal = POINT) -> Mark:
    return Mark(False, cost, category.value)


def _verdict(expected: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
    if bool(answer.get("legal")) != bool(expected.get("legal")):
        return _wrong(CasinoCategory.WRONG_VERDICT)
    if not expected.get("legal") and answer.get("reason") != expected.get("reason"):
        return _wrong(CasinoCategory.WRONG_REASON)
    return RIGHT


def _takes(expected: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
    given = set(answer.get("takes") or [])
    options = [set(option) for option in expected.get("takes") or []] or [set()]
    if any(given == option for option in options):
        return RIGHT
    # Against the largest take nearest the answer: anything beyond it is taken wrongly.
    nearest = max(options, key=lambda option: (len(option & given), -len(option ^ given)))
    if given - nearest:
        return _wrong(CasinoCategory.EXTRA_ITEMS)
    return _wrong(CasinoCategory.MISSED_ITEMS)


def _plays(expected: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
    legal = {grammar.play_text(play) for play in expected.get("plays") or []}
    given = set(answer.get("plays") or [])
    if given - legal:
        return _wrong(CasinoCategory.ILLEGAL_PLAY_LISTED)
    if legal - given:
        return _wrong(CasinoCategory.MISSED_PLAYS)
    return RIGHT


def _score(expected: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
    off = 0
    for who in PLAYERS:
        want = expected.get(who) or {}
        said = answer.get(who) or {}
        off += sum(abs(int(said.get(line, 0)) - int(want.get(line, 0))) for line in LINES)
    if off:
        return _wrong(CasinoCategory.MISSCORED_LINE, Decimal(off))
    winner = expected.get("winner") or "tie"
    if answer.get("winner") != winner:
        return _wrong(CasinoCategory.WRONG_WINNER)
    return RIGHT


def compare(question: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
    kind = question.get("kind")
    expected = question.get("expected") or {}
    if kind == "is_legal":
        return _verdict(expected, answer)
    if kind == "may_take":
        return _takes(expected, answer)
    if kind == "legal_plays":
        return _plays(expected, answer)
    if kind == "score_hand":
        return _score(expected, answer)
    if answer.get("ruling") != expected.get("ruling"):
        return _wrong(CasinoCategory.WRONG_RULING)
    return RIGHT


class CasinoMarking:
    cost_unit = POINTS
    point_words = POINT_WORDS
    categories: Mapping[str, Category] = CATEGORIES
    skills: Mapping[str, str] = SKILLS
    apart_kinds: tuple[str, ...] = ()

    def compare(self, question: Mapping[str, Any], answer: Mapping[str, Any]) -> Mark:
        return compare(question, answer)

    def unanswered(self) -> Mark:
        return Mark(False, Decimal(0), UNANSWERED)

    def question_skills(
        self, round_skills: Iterable[str], question: Mapping[str, Any]
    ) -> tuple[str, ...]:
        kind = question.get("kind")
        view = question.get("view")
        situation = view.get("situation") if isinstance(view, Mapping) else None
        about = (
            SITUATION_SKILLS.get(str(situation.get("kind")), BY_SITUATION)
            if isinstance(situation, Mapping)
            else BY_SITUATION
        )
        return tuple(
            skill
            for skill in dict.fromkeys(round_skills)
            if kind in SKILL_KINDS.get(skill, frozenset())
            and (skill not in BY_SITUATION or skill in about)
        )

    def skill_kinds(self, skill: str) -> frozenset[str]:
        return SKILL_KINDS.get(skill, frozenset())

    def skill_by_hand(self, skill: str) -> bool:
        # A ruling exercises penalties or misdeals by its situation (``question_skills``).
        return skill in BY_SITUATION
