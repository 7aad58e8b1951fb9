"""Fresh Casino situations for chosen skills, staged from random legal play (plain Python).

`generate(skills, count=, seed=)` deals hands with the engine and plays them out with random
legal plays (`random.Random(seed)`), then picks a moment of a hand where a question that
exercises the skill can be asked, and writes it as a `casino-scenario/1` document
(`engine.document_of`) with its questions and `skills`. The same arguments give the same
documents; every document is read back by the engine before it is returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from .engine import (
    Build,
    Play,
    State,
    all_legal_plays,
    apply,
    document_of,
    full_pack,
    legal_plays,
    new_hand,
    profile_from,
    read,
)
from .engine.cards import is_court, rank_of, value_of
from .engine.table import key_of
from .generator_rulings import WHO, Asked, misdeal, penalty

SKILLS = (
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
)
MAX_COUNT = 500
MAX_BUILD = 10
REFUSED = 3  # of _ask_build's four forms, the one announcing a value one more
LEGAL_HANDS = 3  # hands dealt looking for a legal raise (say) before asking a refused one
# The most legal plays a "every legal play" question may have: as many as an answer can
# list (grammar.MAX_PLAYS, checked by tests/casino); past it the card is asked another way.
MAX_LISTED_PLAYS = 64
MAX_HANDS = 200  # hands dealt for one situation before giving up (never reached in practice)
RANKS = {
    "A": "ace", "2": "deuce", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
VALUES = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
SETS = ("", "aces", "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines")
SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
Finder = Callable[[State, random.Random], Asked | None]


def card_words(card: str) -> str:
    """A card in a dealer's words: "the seven of hearts"."""
    return f"the {RANKS[card[0]]} of {SUITS[card[1]]}"


def _number(value: int) -> str:
    return VALUES[value] if value < len(VALUES) else str(value)


def _set(value: int) -> str:
    return "multiple tens" if value == len(SETS) else f"multiple {SETS[value]}"


def generate(
    skills: Sequence[str], *, count: int, seed: int, profile: str = "scarne-casino"
) -> list[dict[str, Any]]:
    """``count`` fresh documents, the skills taken in turn; ValueError for an unknown skill
    code, profile or a count out of range."""
    if isinstance(skills, str) or not skills:
        raise ValueError("name the skills as a list of codes, such as ['capture-sum']")
    for code in skills:
        if code not in SKILLS:
            raise ValueError(f"unknown Casino skill {code!r} (known: {', '.join(SKILLS)})")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count is a whole number from 0 to {MAX_COUNT}")
    try:
        profile_from(profile)
    except ValueError as err:
        raise ValueError(f"unknown Casino rules: {err}") from None
    rng = random.Random(seed)  # noqa: S311 (drills, not secrets)
    out = []
    for number in range(count):
        skill = skills[number % len(skills)]
        state, (questions, title) = _stage(skill, rng)
        doc = document_of(
            state,
            questions,
            rules=profile,
            doc_id=f"casino-gen-{seed}-{number + 1:03d}",
            title=title,
            skills=[skill],
        )
        read(doc)  # a generator defect is never handed on
        out.append(doc)
    return out


def _stage(skill: str, rng: random.Random) -> tuple[State, Asked]:
    """A moment of a random hand where the skill's question can be asked; a play the rules
    refuse (FALLBACKS) only when LEGAL_HANDS hands offered no legal one."""
    for hand in range(MAX_HANDS):
        moments = _moments(rng, finished=skill in ("last-take", "scoring"))
        rng.shuffle(moments)
        fallback = [FALLBACKS[skill]] if skill in FALLBACKS and hand >= LEGAL_HANDS else []
        for finder in [FINDERS[skill], *fallback]:
            for state in moments:
                asked = finder(state, rng)
                if asked is not None:
                    return state, asked
    raise RuntimeError(f"no situation for {skill} in {MAX_HANDS} hands")  # pragma: no cover


def _moments(rng: random.Random, *, finished: bool) -> list[State]:
    """Every moment of a hand played at random; with ``finished``, the hand over (before the
    last take: the cards left on the table are still there)."""
    pack = list(full_pack())
    rng.shuffle(pack)
    state = new_hand(pack)
    seen: list[State] = []
    while not state.finished:
        seen.append(state)
        state = apply(state, rng.choice(all_legal_plays(state)))
    if not finished:
        return seen
    return [_before_last_take(state)]


def _before_last_take(state: State) -> State:
    left = state.last_take
    taken = dict(state.taken)
    if left:
        taker = state.last_capturer or "dealer"
        taken[taker] = taken[taker][: len(taken[taker]) - len(left)]
    return replace(state, table=left, taken=taken, last_take=(), finished=False)


# --- the questions each skill asks ------------------------------------------------------


def _mover(state: State) -> str:
    return WHO[state.turn]


def _numbers(state: State) -> list[str]:
    return [card for card in state.hands[state.turn] if not is_court(card)]


def _loose(state: State) -> list[str]:
    return [item for item in state.table if isinstance(item, str)]


def _listable(state: State, card: str) -> bool:
    """Whether every legal play of the card can be listed in an answer."""
    return len(legal_plays(state, card)) <= MAX_LISTED_PLAYS


def _ask_take(state: State, rng: random.Random, card: str, takes: list[Play], what: str) -> Asked:
    """may_take, legal_plays, or is this take legal (one of ``takes``, when there are any)."""
    form = rng.randrange(3 if takes else 2)
    if form == 1 and not _listable(state, card):
        form = 0
    if form == 0:
        return [{"kind": "may_take", "card": card}], f"{what}: what may {card_words(card)} take?"
    if form == 1:
        title = f"{what}: every legal play of {card_words(card)}"
        return [{"kind": "legal_plays", "card": card}], title
    play = rng.choice(takes)
    title = f"{what}: is this take with {card_words(card)} legal?"
    return [{"kind": "is_legal", "play": play.to_dict()}], title


def _pair(state: State, rng: random.Random) -> Asked | None:
    ranks = {rank_of(card) for card in _loose(state)}
    cards = [card for card in _numbers(state) if rank_of(card) in ranks]
    if not cards:
        return None
    card = rng.choice(cards)
    takes = [
        p
        for p in legal_plays(state, card)
        if p.kind == "take" and all(rank_of(item) == rank_of(card) for item in p.items)
    ]
    return _ask_take(state, rng, card, takes, "A card of the same rank on the table")


def _sum_takes(state: State, card: str) -> list[Play]:
    loose = set(_loose(state))
    return [
        p
        for p in legal_plays(state, card)
        if p.kind == "take" and any(i in loose and rank_of(i) != rank_of(card) for i in p.items)
    ]


def _sum(state: State, rng: random.Random) -> Asked | None:
    found = [(card, takes) for card in _numbers(state) if (takes := _sum_takes(state, card))]
    if not found:
        return None
    card, takes = rng.choice(found)
    if rng.randrange(4) == 0:  # a take that does not add up
        wrong = [item for item in _loose(state) if not is_court(item)]
        play = Play(card, "take", tuple(wrong)).canonical()
        if play not in takes and len(wrong) > 1:
            title = f"Loose cards adding up: may {card_words(card)} take every loose number card?"
            return [{"kind": "is_legal", "play": play.to_dict()}], title
    return _ask_take(state, rng, card, takes, "Loose cards adding up")


def _court(state: State, rng: random.Random) -> Asked | None:
    courts = [card for card in state.hands[state.turn] if is_court(card)]
    if not courts:
        return None
    card = rng.choice(courts)
    same = [item for item in _loose(state) if rank_of(item) == rank_of(card)]
    if same:
        takes = [p for p in legal_plays(state, card) if p.kind == "take"]
        if len(same) > 1 and rng.randrange(2) == 0:
            play = Play(card, "take", tuple(same[:2])).canonical()
            title = f"A court card: may {card_words(card)} take two of its rank?"
            return [{"kind": "is_legal", "play": play.to_dict()}], title
        return _ask_take(state, rng, card, takes, "A court card")
    return None


def _court_refused(state: State, rng: random.Random) -> Asked | None:
    courts = [card for card in state.hands[state.turn] if is_court(card)]
    other = [key_of(item) for item in state.table]
    if not courts or not other:
        return None
    card = rng.choice(courts)
    play = Play(card, "take", (rng.choice(other),)).canonical()
    title = f"A court card: may {card_words(card)} take what is on the table?"
    return [{"kind": "is_legal", "play": play.to_dict()}], title


def _builds(state: State, test: Callable[[Play], bool]) -> list[Play]:
    return [p for p in all_legal_plays(state) if p.kind == "build" and test(p)]


def _made_total(state: State, play: Play) -> int:
    keys = [*play.items, *([play.target] if play.target else [])]
    cards = [play.card] + [c for key in keys for c in key.split("+")]
    return sum(value_of(card) or 0 for card in cards)


def _ask_build(state: State, rng: random.Random, plays: list[Play], what: str) -> Asked:
    """legal_plays of the card, or is this build legal: one of ``plays``, or (one time in
    four) the same announcing one more, which the rules mostly refuse."""
    play = rng.choice(plays)
    form = rng.randrange(4)
    if form < 2 and _listable(state, play.card):
        title = f"{what}: every legal play of {card_words(play.card)}"
        return [{"kind": "legal_plays", "card": play.card}], title
    if form == REFUSED and _made_total(state, play) != (play.value or 0) + 1:
        play = replace(play, value=(play.value or 0) + 1)  # aces doubled stay aces doubled
    value = _number(play.value or 0)
    title = f"{what}: may {_mover(state)} build {value} with {card_words(play.card)}?"
    return [{"kind": "is_legal", "play": play.to_dict()}], title


def _single(state: State, rng: random.Random) -> Asked | None:
    plays = _builds(state, lambda p: p.target is None and _made_total(state, p) == (p.value or 0))
    return _ask_build(state, rng, plays, "A single build") if plays else None


def _multiple(state: State, rng: random.Random) -> Asked | None:
    plays = _builds(state, lambda p: _made_total(state, p) > (p.value or 0))
    if plays:
        return _ask_build(state, rng, plays, "A multiple build")
    return None


def _multiple_refused(state: State, rng: random.Random) -> Asked | None:
    fixed = [i for i in state.table if isinstance(i, Build) and i.multiple]
    cards = _numbers(state)
    if not fixed or not cards:
        return None
    build, card = rng.choice(fixed), rng.choice(cards)
    play = Play(card, "build", (), build.key, build.value + (value_of(card) or 0))
    title = f"A multiple build: may {_mover(state)} raise the {_set(build.value)}?"
    return [{"kind": "is_legal", "play": play.to_dict()}], title


def _raise(state: State, rng: random.Random) -> Asked | None:
    singles = {i.key: i.value for i in state.table if isinstance(i, Build) and not i.multiple}
    plays = _builds(state, lambda p: p.target in singles and p.value != singles[p.target])
    if plays:
        return _ask_build(state, rng, plays, "Raising a build")
    return None


def _raise_refused(state: State, rng: random.Random) -> Asked | None:
    singles = {i.key: i.value for i in state.table if isinstance(i, Build) and not i.multiple}
    cards = _numbers(state)
    if not singles or not cards:
        return None
    below = sorted(key for key, value in singles.items() if value < MAX_BUILD)
    target = rng.choice(below or sorted(singles))
    within = [c for c in cards if singles[target] + (value_of(c) or 0) <= MAX_BUILD]
    card = rng.choice(within or cards)  # mostly a raise that stays within ten
    raised = singles[target] + (value_of(card) or 0)
    # Off by one at most, never the build's own value: that would be no raise at all.
    value = rng.choice([v for v in (raised - 1, raised, raised + 1) if v != singles[target]])
    play = Play(card, "build", (), target, value)
    was = VALUES[singles[target]]
    title = f"Raising a build: may {_mover(state)} raise the {was} to {_number(value)}?"
    return [{"kind": "is_legal", "play": play.to_dict()}], title


def _trail(state: State, rng: random.Random) -> Asked | None:
    owns = any(isinstance(i, Build) and i.owner == state.turn for i in state.table)
    if not owns and rng.randrange(3):
        return None
    card = rng.choice(state.hands[state.turn])
    if owns and rng.randrange(2) == 0 and _listable(state, card):
        title = f"Owning a build: every legal play of {card_words(card)}"
        return [{"kind": "legal_plays", "card": card}], title
    title = f"May {_mover(state)} trail {card_words(card)}?"
    return [{"kind": "is_legal", "play": {"card": card, "trail": True}}], title


def _scored(state: State, *, left: bool) -> Asked | None:
    if bool(state.table) != left or (state.table and state.last_capturer is None):
        return None
    if left:
        count = len(state.table)
        title = f"Score the hand: {count} card{'s' if count > 1 else ''} left on the table"
    else:
        title = "Score the hand: the table cleared by the last card"
    return [{"kind": "score_hand"}], title


def _last_take(state: State, rng: random.Random) -> Asked | None:
    return _scored(state, left=True)


def _scoring(state: State, rng: random.Random) -> Asked | None:
    return _scored(state, left=bool(state.table))


FINDERS: dict[str, Finder] = {
    "capture-pair": _pair,
    "capture-sum": _sum,
    "court-cards": _court,
    "single-build": _single,
    "multiple-build": _multiple,
    "raise-build": _raise,
    "trailing": _trail,
    "last-take": _last_take,
    "scoring": _scoring,
    "penalties": penalty,
    "misdeals": misdeal,
}
FALLBACKS: dict[str, Finder] = {
    "court-cards": _court_refused,
    "multiple-build": _multiple_refused,
    "raise-build": _raise_refused,
}
