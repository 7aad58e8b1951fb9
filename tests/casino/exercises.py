"""What a document that names a skill must ask: each skill's check, shared by the tests of
the library and of the generator (a `court-cards` document asks about a court card, ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from trainer.games.casino.engine import answer_key, value_of
from trainer.games.casino.engine.cards import is_court, rank_of
from trainer.games.casino.engine.table import build_key

Doc = dict[str, Any]
PENALTY_SITUATIONS = {"faulty_build", "trail_owning_build", "last_not_announced", "looked_at_taken"}
MISDEAL_SITUATIONS = {"card_exposed", "face_up_in_pack", "wrong_number"}


def _loose(doc: Doc) -> list[str]:
    return [item for item in doc["table"] if isinstance(item, str)]


def _builds(doc: Doc) -> list[Doc]:
    return [item for item in doc["table"] if isinstance(item, dict)]


def _questions(doc: Doc) -> Iterator[tuple[Doc, dict[str, Any]]]:
    """Each question with its expected answer."""
    for question, key in zip(doc["questions"], answer_key(doc), strict=True):
        yield question, key["expected"]


def _plays(doc: Doc, kind: str) -> list[Doc]:
    """The plays of the is_legal questions of one kind (take, build, trail)."""
    return [q["play"] for q, _ in _questions(doc) if q["kind"] == "is_legal" and kind in q["play"]]


def _asked_cards(doc: Doc) -> list[str]:
    return [
        q["card"] if "card" in q else q["play"]["card"]
        for q in doc["questions"]
        if "card" in q or "play" in q
    ]


def _pairs(doc: Doc) -> bool:
    alone = any(
        (len(p["take"]) == 1 and p["take"][0] in _loose(doc))  # one card: its pair, or not
        or (p["take"] and all(rank_of(item) == rank_of(p["card"]) for item in p["take"]))
        for p in _plays(doc, "take")
    )
    ranks = {rank_of(card) for card in _loose(doc)}
    asked = [q["card"] for q in doc["questions"] if q["kind"] in ("may_take", "legal_plays")]
    return alone or any(not is_court(card) and rank_of(card) in ranks for card in asked)


def _sums(doc: Doc) -> bool:
    named = any(len(p["take"]) != 1 for p in _plays(doc, "take"))
    values = [value_of(card) for card in _loose(doc) if not is_court(card)]
    asked = [q["card"] for q in doc["questions"] if q["kind"] in ("may_take", "legal_plays")]
    return named or any(
        sum(group) == value_of(card)  # type: ignore[arg-type]
        for card in asked
        if not is_court(card)
        for size in range(2, len(values) + 1)
        for group in combinations(values, size)
    )


def _courts(doc: Doc) -> bool:
    named = [item for p in _plays(doc, "take") for item in p["take"]]
    return any(is_court(card) for card in [*_asked_cards(doc), *named])


def _single_builds(doc: Doc) -> bool:
    answered = any(
        "build" in play
        for q, got in _questions(doc)
        if q["kind"] == "legal_plays"
        for play in got["plays"]
    )
    return (
        answered or bool(_plays(doc, "build")) or any(b["kind"] == "single" for b in _builds(doc))
    )


def _key(cards: list[str]) -> str:
    return build_key(card for name in cards for card in name.split("+"))


def _build_total(doc: Doc, play: Doc) -> int:
    target = [
        b
        for b in _builds(doc)
        if "+".join(sorted(b["build"])) == "+".join(sorted(play.get("on", "").split("+")))
    ]
    cards = [play["card"], *play["with"], *(target[0]["build"] if target else [])]
    return sum(value_of(card) or 0 for card in cards)


def _multiple_builds(doc: Doc) -> bool:
    made = any(_build_total(doc, p) > p["build"] for p in _plays(doc, "build"))
    answered = any(
        "build" in play and _build_total(doc, play) > play["build"]
        for q, got in _questions(doc)
        if q["kind"] == "legal_plays"
        for play in got["plays"]
    )
    return made or answered or any(b["kind"] == "multiple" for b in _builds(doc))


def _raises(doc: Doc) -> bool:
    on = {_key(b["build"]): b["value"] for b in _builds(doc)}
    asked = any("on" in p and p["build"] != on[_key([p["on"]])] for p in _plays(doc, "build"))
    answered = any(
        "on" in play and play["build"] != on[play["on"]]
        for q, got in _questions(doc)
        if q["kind"] == "legal_plays"
        for play in got["plays"]
    )
    return asked or answered


def _trails(doc: Doc) -> bool:
    refused = any(
        q["kind"] == "legal_plays" and all("trail" not in play for play in got["plays"])
        for q, got in _questions(doc)
    )
    only = any(
        q["kind"] == "legal_plays" and [play.get("trail") for play in got["plays"]] == [True]
        for q, got in _questions(doc)
    )
    ruled = any(
        q["kind"] == "rule_on" and q["situation"]["kind"] == "trail_owning_build"
        for q in doc["questions"]
    )
    return bool(_plays(doc, "trail")) or refused or only or ruled


def _last_take(doc: Doc) -> bool:
    scored = any(q["kind"] == "score_hand" for q in doc["questions"]) and bool(doc["table"])
    last_deal = doc["deal"] == 6 and any(q["kind"] != "score_hand" for q in doc["questions"])
    return scored or last_deal


def _situations(doc: Doc) -> set[str]:
    return {q["situation"]["kind"] for q in doc["questions"] if q["kind"] == "rule_on"}


def _forfeits(doc: Doc) -> bool:
    """A ruling that the offender loses the game (the penalty of a wrong count after play)."""
    return any(
        q["kind"] == "rule_on" and got["ruling"] == "loss_of_game" for q, got in _questions(doc)
    )


EXERCISES: dict[str, Callable[[Doc], bool]] = {
    "capture-pair": _pairs,
    "capture-sum": _sums,
    "court-cards": _courts,
    "single-build": _single_builds,
    "multiple-build": _multiple_builds,
    "raise-build": _raises,
    "trailing": _trails,
    "last-take": _last_take,
    "scoring": lambda doc: any(q["kind"] == "score_hand" for q in doc["questions"]),
    "penalties": lambda doc: bool(_situations(doc) & PENALTY_SITUATIONS) or _forfeits(doc),
    "misdeals": lambda doc: bool(_situations(doc) & MISDEAL_SITUATIONS),
}


def check_scores(doc: Doc) -> None:
    """Each score_hand answer accounts for the hand: 11 points (8 on a card tie), every
    card taken by someone after the last take, the lines adding up to each total."""
    taken = sum(len(doc.get("taken", {}).get(who, [])) for who in ("dealer", "non_dealer"))
    table = sum(1 if isinstance(item, str) else len(item["build"]) for item in doc["table"])
    for question, got in _questions(doc):
        if question["kind"] != "score_hand":
            continue
        assert taken + table == 52
        assert len(got["last_take"]["cards"]) == table
        lines = {who: got[who] for who in ("dealer", "non_dealer")}
        for row in lines.values():
            assert row["total"] == sum(points for line, points in row.items() if line != "total")
        tie = lines["dealer"]["cards"] == lines["non_dealer"]["cards"] == 0
        assert sum(row["total"] for row in lines.values()) == (8 if tie else 11)
        totals = sorted((row["total"], who) for who, row in lines.items())
        assert got["margin"] == totals[1][0] - totals[0][0]
        assert got["winner"] == (None if got["margin"] == 0 else totals[1][1])
