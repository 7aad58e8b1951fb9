"""Which skills a question exercises: the one mapping every skill figure is counted by.

A round is dealt for some skills (its document's ``skills``: a generated round names one,
a library round those its author filed it under). A round asks many questions, and most
of them do not exercise those skills: the reshuffle call of a round dealt for doubles,
the settlement of the box beside the doubled one, the dealer's draws of a colour-up round.
A question counts for a skill only when

1. the round was dealt for that skill, and
2. the question is of a kind the skill covers (a chip payout, ``pay_in_chips``, also
   counts as the payout it settles), and
3. where the skill is about one hand (a double, a split, a natural...), the table showed
   that hand so when the question was asked (the answer key's ``view``: doubled, split,
   blackjack, bust, surrendered; a push is the hand whose right answer is a push; a shared
   box is a box with more than one player on it).

``SKILL_QUESTIONS`` below is that table; docs/grading.md (*Skill figures*) states it in
words. The figures built on it (`trainer.tallies`, the run summaries' ``s:<skill>``
facets) count a question only when it was shown to the trainee (`trainer.shown`); a
question never shown (a round not reached, an exam abandoned) counts for no skill, and is
counted apart as "not reached". Blackjack's (`Blackjack.question_skills`): the shell asks
the game.

Plain Python over the answer key's JSON: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from trainer.games.marking import Words
from trainer.rules import Kind


class Skill(Words):
    """What a blackjack round exercises; drills and dashboards group by these."""

    NATURAL_3_2 = "natural-3to2", "Natural at 3:2"
    NATURAL_6_5 = "natural-6to5", "Natural at 6:5"
    ROUNDING = "rounding", "Payout rounding"
    INSURANCE = "insurance", "Insurance"
    EVEN_MONEY = "even-money", "Even money"
    DEALER_NATURAL = "dealer-natural", "Dealer natural"
    DEALER_PEEK = "dealer-peek", "Dealer peek"
    PUSH = "push", "Push"
    PLAYER_BUST = "player-bust", "Player bust"
    DEALER_BUST = "dealer-bust", "Dealer bust"
    SOFT_17 = "soft-17", "Dealer's soft 17"
    SPLIT = "split", "Splits"
    SPLIT_ACES = "split-aces", "Split aces"
    RESPLIT = "resplit", "Resplits"
    DOUBLE = "double", "Doubles"
    DOUBLE_AFTER_SPLIT = "double-after-split", "Double after split"
    DOUBLE_FOR_LESS = "double-for-less", "Double for less"
    SURRENDER = "surrender", "Late surrender"
    BONUS_777 = "bonus-777", "7-7-7 prize"
    SHARED_BOX = "shared-box", "Shared box"
    CUT_CARD = "cut-card", "Cut card and reshuffle"
    ENHC = "enhc", "European no hole card"
    PAY_IN_CHIPS = "pay-in-chips", "Pay in chips"
    COLOUR_UP = "colour-up", "Colour up"
    CHANGE = "change", "Change"


# A hand shown on the table with one of these facts (trainer/rules/table_facts.py), or
# one of the two below, which the view does not carry as a flag.
DOUBLED = "doubled"
SPLIT = "split"
BLACKJACK = "blackjack"
BUST = "bust"
SURRENDERED = "surrendered"
# The hand's right answer is a push.
PUSHED = "push"
# More than one player has a stake on the question's box.
SHARED = "shared"


@dataclass(frozen=True)
class Exercise:
    """The questions that exercise a skill in a round dealt for it: of one of ``kinds``,
    and, when ``hand`` is set, about a hand (or box) showing that fact."""

    kinds: frozenset[Kind]
    hand: str | None = None


def _exercise(*kinds: Kind, hand: str | None = None) -> Exercise:
    return Exercise(frozenset(kinds), hand)


_SETTLE = Kind.SETTLE_HAND
# The table, skill by skill (the values of Skill).
SKILL_QUESTIONS: Mapping[str, Exercise] = {
    "natural-3to2": _exercise(_SETTLE, hand=BLACKJACK),
    "natural-6to5": _exercise(_SETTLE, hand=BLACKJACK),
    "rounding": _exercise(_SETTLE, hand=BLACKJACK),
    "insurance": _exercise(Kind.OFFER_INSURANCE, Kind.SETTLE_INSURANCE),
    "even-money": _exercise(Kind.OFFER_EVEN_MONEY, Kind.EVEN_MONEY),
    "dealer-natural": _exercise(Kind.PEEK, Kind.DEALER_PLAY, _SETTLE),
    "dealer-peek": _exercise(Kind.PEEK),
    "push": _exercise(_SETTLE, hand=PUSHED),
    "player-bust": _exercise(_SETTLE, hand=BUST),
    "dealer-bust": _exercise(Kind.DEALER_PLAY, _SETTLE),
    "soft-17": _exercise(Kind.DEALER_PLAY),
    "split": _exercise(_SETTLE, hand=SPLIT),
    "split-aces": _exercise(_SETTLE, hand=SPLIT),
    "resplit": _exercise(_SETTLE, hand=SPLIT),
    "double": _exercise(_SETTLE, hand=DOUBLED),
    "double-after-split": _exercise(_SETTLE, hand=DOUBLED),
    "double-for-less": _exercise(_SETTLE, hand=DOUBLED),
    "surrender": _exercise(_SETTLE, hand=SURRENDERED),
    "bonus-777": _exercise(Kind.BONUS_777),
    "shared-box": _exercise(
        _SETTLE,
        Kind.SETTLE_INSURANCE,
        Kind.OFFER_EVEN_MONEY,
        Kind.EVEN_MONEY,
        Kind.BONUS_777,
        hand=SHARED,
    ),
    "cut-card": _exercise(Kind.RESHUFFLE),
    "enhc": _exercise(Kind.DEALER_PLAY, _SETTLE, Kind.SETTLE_INSURANCE),
    "pay-in-chips": _exercise(Kind.PAY_IN_CHIPS),
    "colour-up": _exercise(Kind.COLOUR_UP),
    "change": _exercise(Kind.CHANGE),
}


def skill_kinds(skill: str) -> frozenset[str]:
    """The question kinds that may exercise ``skill`` (a chip payout among them where the
    skill covers a payout it may settle); empty for a skill the table does not know."""
    exercise = SKILL_QUESTIONS.get(skill)
    if exercise is None:
        return frozenset()
    kinds = {str(kind) for kind in exercise.kinds}
    if exercise.kinds & _PAID_IN_CHIPS:
        kinds.add(Kind.PAY_IN_CHIPS.value)
    return frozenset(kinds)


# The payouts a chip question may stand in for (its expected answer's "settles").
_PAID_IN_CHIPS = frozenset(
    (Kind.SETTLE_HAND, Kind.SETTLE_INSURANCE, Kind.EVEN_MONEY, Kind.BONUS_777)
)


def question_skills(round_skills: Iterable[str], question: Mapping[str, Any]) -> tuple[str, ...]:
    """The skills among ``round_skills`` that ``question`` (an answer-key item: its kind,
    box, hand, player, expected answer and view) exercises, in the round's order."""
    kinds = _kinds_of(question)
    if not kinds:
        return ()
    found: list[str] = []
    for skill in round_skills:
        exercise = SKILL_QUESTIONS.get(skill) if isinstance(skill, str) else None
        if exercise is None or exercise.kinds.isdisjoint(kinds) or skill in found:
            continue
        if exercise.hand is not None and not _shows(question, exercise.hand):
            continue
        found.append(skill)
    return tuple(found)


# Every kind's string (a StrEnum member hashes and compares as its string).
_KINDS = frozenset(kind.value for kind in Kind)


def _kinds_of(question: Mapping[str, Any]) -> tuple[str, ...]:
    """The question's kind, and for a payout in chips the kind of payout it settles."""
    kind = question.get("kind")
    if kind not in _KINDS:
        return ()
    if kind != Kind.PAY_IN_CHIPS:
        return (kind,)
    expected = question.get("expected")
    settles = expected.get("settles") if _is_map(expected) else None
    return (kind, settles) if settles in _KINDS else (kind,)


def _shows(question: Mapping[str, Any], fact: str) -> bool:
    """Whether the question's box (and hand) showed ``fact`` on the table when asked."""
    if fact == PUSHED:
        expected = question.get("expected")
        return _is_map(expected) and expected.get("action") == "push"
    box = _box(question)
    if box is None:
        return False
    hands = box.get("hands")
    if not isinstance(hands, list) or not hands:
        return False
    if fact == SHARED:
        stakes = hands[0].get("stakes") if _is_map(hands[0]) else None
        return _is_map(stakes) and len(stakes) > 1
    number = question.get("hand")
    index = number - 1 if isinstance(number, int) and number >= 1 else 0
    if index >= len(hands) or not _is_map(hands[index]):
        return False
    return bool(hands[index].get(fact))


def _box(question: Mapping[str, Any]) -> Mapping[str, Any] | None:
    view = question.get("view")
    boxes = view.get("boxes") if _is_map(view) else None
    if not isinstance(boxes, list):
        return None
    for box in boxes:
        if _is_map(box) and box.get("box") == question.get("box"):
            return box
    return None


def _is_map(value: object) -> TypeGuard[Mapping[str, Any]]:
    # JSON objects are dicts: checked first, an ABC's isinstance is slow by the million.
    return type(value) is dict or isinstance(value, Mapping)
