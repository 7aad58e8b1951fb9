"""Staging a Casino situation in a dealer's words (the workspace's "game-fields" editor,
``StagedForm``): the loose cards, the builds (their cards, announced value, single or
multiple, whose), each hand, the cards each has taken, whose turn, which deal, and up to
three questions, each one of the five kinds in plain words with what it needs (the card;
the play: what the card takes or builds; the penalty's facts). The instructor never types an
answer: the engine works it out (the workspace's preview shows it in words before saving).

``document`` turns the posted fields into a `casino-scenario/1` document, refusing at the
field in plain words; ``values`` is its inverse (a stored situation opens filled in, and
saving it unchanged gives the same document); ``refusal`` puts the engine's error at a path
on the field it concerns, in words (editing_words)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from trainer.games.authoring import StagedField
from trainer.games.casino import words
from trainer.games.casino.editing_fields import CARD_KINDS, FIELDS, KINDS, MATCH_GOALS, PLAYERS
from trainer.games.casino.editing_words import BUILD_ROWS, QUESTION_ROWS, field_at, plain
from trainer.games.casino.engine.cards import CardError, parse_card
from trainer.games.casino.engine.profiles import PROFILE_NAME
from trainer.games.casino.engine.rulings import SITUATIONS
from trainer.games.casino.engine.scenario import FORMAT
from trainer.games.casino.engine.table import build_key
from trainer.games.errors import DocumentError

_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_SPLIT = re.compile(r"[\s,]+")


def _cards(values: Mapping[str, Any], name: str) -> list[str]:
    out = []
    for word in (w for w in _SPLIT.split(str(values.get(name) or "").strip()) if w):
        plain_word = "".join(_SUITS.get(ch, ch) for ch in word)
        try:
            out.append(parse_card(plain_word))
        except CardError:
            raise DocumentError(
                f"“{word[:12]}” is not a card: write a rank (A, 2-10, J, Q, K) and a suit "
                "(♠ ♥ ♦ ♣, or the letters s h d c), e.g. 10♦ or A♠",
                field=name,
            ) from None
    return out


def _number(values: Mapping[str, Any], name: str, *, what: str) -> int | None:
    text = str(values.get(name) or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 2:
        raise DocumentError(f"write {what} as a whole number, e.g. 9", field=name)
    return int(text)


def _choice(values: Mapping[str, Any], name: str, allowed: Sequence[str], *, what: str) -> str:
    said = str(values.get(name) or "")
    if said not in allowed:
        raise DocumentError(f"choose {what}", field=name)
    return said


def _builds(values: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """The builds staged, in row order, and each filled row's key."""
    out, keys = [], {}
    for n in BUILD_ROWS:
        cards = _cards(values, f"build_{n}_cards")
        value = _number(values, f"build_{n}_value", what="the value announced")
        if not cards:
            if value is not None:
                raise DocumentError(f"name the cards of build {n}", field=f"build_{n}_cards")
            continue
        if value is None:
            raise DocumentError("say the value announced for this build", field=f"build_{n}_value")
        kind = _choice(values, f"build_{n}_kind", ("single", "multiple"), what="single or multiple")
        owner = _choice(values, f"build_{n}_owner", PLAYERS, what="whose build it is")
        out.append({"build": cards, "value": value, "kind": kind, "owner": owner})
        keys[n] = build_key(cards)
    return out, keys


def _play(values: Mapping[str, Any], n: int, card: str, keys: Mapping[int, str]) -> dict[str, Any]:
    does = _choice(values, f"q{n}_does", ("take", "build", "trail"), what="what the card does")
    if does == "trail":
        return {"card": card, "trail": True}
    loose = _cards(values, f"q{n}_loose")
    picked = values.get(f"q{n}_builds") or []
    taken_builds = []
    for row in [picked] if isinstance(picked, str) else picked:
        if not str(row).isdigit() or int(row) not in keys:
            raise DocumentError(f"build {row} has no cards on the table", field=f"q{n}_builds")
        taken_builds.append(keys[int(row)])
    if does == "take":
        return {"card": card, "take": [*taken_builds, *loose]}
    value = _number(values, f"q{n}_value", what="the value announced")
    if value is None:
        raise DocumentError("say the value the build announces", field=f"q{n}_value")
    play: dict[str, Any] = {"card": card, "build": value, "with": loose}
    on = str(values.get(f"q{n}_on") or "")
    if on:
        if not on.isdigit() or int(on) not in keys:
            raise DocumentError(f"build {on} has no cards on the table", field=f"q{n}_on")
        play["on"] = keys[int(on)]
    return play


def _situation(values: Mapping[str, Any], n: int) -> dict[str, Any]:
    kind = _choice(values, f"q{n}_situation", tuple(SITUATIONS), what="what happened")
    out: dict[str, Any] = {"kind": kind}
    for fact in SITUATIONS[kind]:
        name = f"q{n}_{'who' if fact in ('offender', 'receiver') else fact}"
        if fact in ("offender", "receiver"):
            out[fact] = _choice(values, name, PLAYERS, what="who it was")
        elif fact == "belongs_to":
            out[fact] = _choice(values, name, ("opponent", "self"), what="whose card it was")
        elif fact == "count":
            count = _number(values, name, what="how many cards")
            if count is None:
                raise DocumentError("say how many cards were found face up", field=name)
            out[fact] = count
        else:
            out[fact] = _choice(values, name, ("yes", "no"), what="yes or no") == "yes"
    return out


def _question(values: Mapping[str, Any], n: int, keys: Mapping[int, str]) -> dict[str, Any] | None:
    kind = str(values.get(f"q{n}_kind") or "")
    if not kind:
        if n == 1:
            raise DocumentError("choose the question asked", field="q1_kind")
        return None
    _choice(values, f"q{n}_kind", [k for k, _ in KINDS], what="the question asked")
    if kind in CARD_KINDS:
        cards = _cards(values, f"q{n}_card")
        if len(cards) != 1:
            raise DocumentError("name one card", field=f"q{n}_card")
        if kind == "is_legal":
            return {"kind": kind, "play": _play(values, n, cards[0], keys)}
        return {"kind": kind, "card": cards[0]}
    if kind == "rule_on":
        return {"kind": kind, "situation": _situation(values, n)}
    return {"kind": kind}


def _overrides(values: Mapping[str, Any]) -> dict[str, Any]:
    """The rules this situation changes from its table's (sweeps, the match's goal)."""
    out: dict[str, Any] = {}
    sweeps = _choice(values, "sweeps_rule", ("", "yes", "no"), what="how sweeps score")
    if sweeps:
        out["sweeps"] = sweeps == "yes"
    goal = _choice(
        values, "match_rule", [v for v, _ in MATCH_GOALS], what="what a match is played to"
    )
    if goal:
        out["match_goal"] = None if goal == "none" else int(goal)
    return out


def staged_document(
    values: Mapping[str, Any], *, title: str, skills: Sequence[str], profile: str
) -> dict[str, Any]:
    deal = _choice(values, "deal", [str(n) for n in range(1, 7)], what="which deal")
    turn = _choice(values, "turn", PLAYERS, what="whose turn it is")
    builds, keys = _builds(values)
    rules: Any = profile
    overrides = _overrides(values)
    if overrides:
        rules = {"profile": profile, "overrides": overrides}
    document: dict[str, Any] = {
        "format": FORMAT,
        "title": title,
        "skills": list(skills),
        "rules": rules,
        "deal": int(deal),
        "turn": turn,
        "table": [*builds, *_cards(values, "loose")],
        "hands": {who: _cards(values, f"hand_{who}") for who in PLAYERS},
        "taken": {who: _cards(values, f"taken_{who}") for who in PLAYERS},
        "last_capturer": _choice(values, "last_capturer", ("", *PLAYERS), what="who took last")
        or None,
        "questions": [],
    }
    sweeps = {who: _number(values, f"sweeps_{who}", what="the sweeps") for who in PLAYERS}
    if any(count is not None for count in sweeps.values()):
        document["sweeps"] = {who: count or 0 for who, count in sweeps.items()}
    asked = [_question(values, n, keys) for n in QUESTION_ROWS]
    document["questions"] = [question for question in asked if question is not None]
    return document


def _said(cards: Sequence[str]) -> str:
    return words.cards_words([parse_card(card) for card in cards])


def _yes_no(value: object) -> str:
    return "yes" if value else "no"


def _question_values(
    question: Mapping[str, Any], n: int, rows: Mapping[str, int]
) -> dict[str, Any]:
    out: dict[str, Any] = {f"q{n}_kind": question.get("kind", "")}
    play = question.get("play")
    if isinstance(play, Mapping):
        out[f"q{n}_card"] = _said([play["card"]])
        items = [*(play.get("take") or []), *(play.get("with") or [])]
        out[f"q{n}_builds"] = [
            str(rows[build_key(i.split("+"))])
            for i in items
            if "+" in i and build_key(i.split("+")) in rows
        ]
        out[f"q{n}_loose"] = _said([i for i in items if "+" not in i])
        if play.get("trail"):
            out[f"q{n}_does"] = "trail"
        elif "take" in play:
            out[f"q{n}_does"] = "take"
        else:
            out[f"q{n}_does"] = "build"
            out[f"q{n}_value"] = str(play.get("build", ""))
            on = play.get("on")
            out[f"q{n}_on"] = str(rows.get(build_key(str(on).split("+")), "")) if on else ""
    if question.get("card"):
        out[f"q{n}_card"] = _said([question["card"]])
    situation = question.get("situation")
    if isinstance(situation, Mapping):
        out[f"q{n}_situation"] = situation.get("kind", "")
        for fact, value in situation.items():
            if fact in ("offender", "receiver"):
                out[f"q{n}_who"] = value
            elif fact in ("belongs_to", "count"):
                out[f"q{n}_{fact}"] = str(value)
            elif fact != "kind":
                out[f"q{n}_{fact}"] = _yes_no(value)
    return out


def staged_values(document: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a stored document (``staged_document``'s inverse)."""
    out: dict[str, Any] = {
        "deal": str(document.get("deal", "")),
        "turn": document.get("turn", ""),
        "last_capturer": document.get("last_capturer") or "",
    }
    rules = document.get("rules")
    overrides = rules.get("overrides") or {} if isinstance(rules, Mapping) else {}
    out["sweeps_rule"] = _yes_no(overrides["sweeps"]) if "sweeps" in overrides else ""
    goal = overrides.get("match_goal", "")
    out["match_rule"] = "none" if goal is None else str(goal)
    rows: dict[str, int] = {}
    loose = []
    for item in document.get("table") or []:
        if isinstance(item, Mapping):
            n = len(rows) + 1
            rows[build_key(parse_card(card) for card in item.get("build") or [])] = n
            out[f"build_{n}_cards"] = _said(item.get("build") or [])
            out[f"build_{n}_value"] = str(item.get("value", ""))
            out[f"build_{n}_kind"] = item.get("kind", "")
            out[f"build_{n}_owner"] = item.get("owner", "")
        else:
            loose.append(str(item))
    out["loose"] = _said(loose)
    for who in PLAYERS:
        out[f"hand_{who}"] = _said((document.get("hands") or {}).get(who) or [])
        out[f"taken_{who}"] = _said((document.get("taken") or {}).get(who) or [])
        sweeps = document.get("sweeps")
        out[f"sweeps_{who}"] = str(sweeps.get(who, 0)) if isinstance(sweeps, Mapping) else ""
    for n, question in zip(QUESTION_ROWS, document.get("questions") or [], strict=False):
        out |= _question_values(question, n, rows)
    return out


class CasinoStagedForm:
    """Casino's ``StagedForm``: the fields above, a document from them and back, and the
    engine's refusals at the field in words."""

    fields: Sequence[StagedField] = FIELDS

    def values(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return staged_values(document)

    def document(
        self, values: Mapping[str, Any], *, title: str, skills: Sequence[str], profile: str
    ) -> dict[str, Any]:
        return staged_document(values, title=title, skills=skills, profile=profile or PROFILE_NAME)

    def refusal(self, error: DocumentError, values: Mapping[str, Any]) -> tuple[str | None, str]:
        path = str(error.field or "")
        # A hand scored before it is over: the deal is what is wrong.
        at = "deal" if error.reason == "hand_not_over" else field_at(path, values)
        return at, plain(error.message, error.reason)


STAGED_FORM = CasinoStagedForm()
