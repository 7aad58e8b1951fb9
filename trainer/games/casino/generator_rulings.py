"""The generator's penalty and misdeal situations: a ruling asked at a moment of play, the
facts drawn at random, the title in a pit boss's words (see `generator`)."""

from __future__ import annotations

import random
from typing import Any

from .engine import State
from .engine.table import PLAYERS

WHO = {"dealer": "the dealer", "non_dealer": "the non-dealer"}

Doc = dict[str, Any]
Asked = tuple[list[Doc], str]  # the questions, and the title


def _offender(rng: random.Random) -> str:
    return rng.choice(PLAYERS)


def penalty(state: State, rng: random.Random) -> Asked | None:
    who = _offender(rng)
    kind = rng.choice(("faulty_build", "trail_owning_build", "last_not_announced", "looked"))
    if kind == "faulty_build":
        facts: Doc = {"offender": who}
        title = f"{WHO[who].capitalize()} made a build without a card to take it"
    elif kind == "trail_owning_build":
        facts = {"offender": who}
        title = f"{WHO[who].capitalize()} trailed while owning a build"
    elif kind == "last_not_announced":
        played = rng.choice((True, False))
        facts = {"trick_played": played}
        when = "after a trick was played" if played else "before any trick"
        title = f"The dealer did not announce Last, found {when}"
    else:
        kind = "looked_at_taken"
        last, played = rng.choice((True, False)), rng.choice((True, False))
        facts = {"offender": who, "last_trick_only": last, "opponent_played": played}
        what = "the last trick" if last else "the cards taken earlier"
        when = "after" if played else "before"
        title = f"{WHO[who].capitalize()} looked at {what}, {when} the opponent played"
    return [{"kind": "rule_on", "situation": {"kind": kind, **facts}}], title


def misdeal(state: State, rng: random.Random) -> Asked | None:
    who = _offender(rng)
    kind = rng.choice(("card_exposed", "face_up_in_pack", "wrong_number"))
    if kind == "card_exposed":
        whose, early = rng.choice(("opponent", "self")), rng.choice((True, False))
        facts: Doc = {"offender": who, "belongs_to": whose, "within_first_12": early}
        card = "an opponent's card" if whose == "opponent" else "their own card"
        when = "within" if early else "after"
        title = f"{WHO[who].capitalize()} turned up {card} {when} the first twelve dealt"
    elif kind == "face_up_in_pack":
        count = rng.randint(1, 3)
        facts = {"receiver": who, "count": count}
        cards = "card" if count == 1 else "cards"
        title = f"{count} {cards} found face up in the pack, dealt to {WHO[who]}"
    else:
        before = rng.choice((True, False))
        facts = {"offender": who, "before_first_trick": before}
        when = "before the first trick" if before else "after a card was played"
        title = f"{WHO[who].capitalize()} holds the wrong number of cards, found {when}"
    return [{"kind": "rule_on", "situation": {"kind": kind, **facts}}], title
