"""Reading Scarne's Casino's answers: one grammar for the table page's form and the API's
JSON (docs/api.md, *Scarne's Casino*).

| kind | answer (JSON) | stored as |
| --- | --- | --- |
| is_legal | {"legal": true} or {"legal": false, "reason": REASON} | the same |
| may_take | {"takes": [ITEM, ...]} ([] takes nothing) | canonical keys, in order |
| legal_plays | {"plays": [PLAY, ...]} (trainer.games.casino.grammar) | canonical plays, sorted |
| score_hand | {"non_dealer_cards": 3, ..., "winner": "dealer"} | {"non_dealer": {LINE: n}, |
|  |  | "dealer": {...}, "winner"} |
| rule_on | {"ruling": RULING} | the same |

The form posts ``casino`` naming the answer's shape (verdict, takes, plays, score, ruling)
and the same fields; a checkbox list posts each item (``takes``) and the plays one a line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import ProductError, clip, echo
from trainer.games.casino import grammar, words
from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.profiles import ProfileError, profile_from
from trainer.games.casino.engine.rulings import RULINGS
from trainer.games.casino.engine.scoring import LINES
from trainer.games.reading import AnswerField

WINNERS = ("non_dealer", "dealer", "tie")
MOST_POINTS = 26  # no line of one hand scores more (sweeps: at most 26 captures each)


def line_field(player: str, line: str) -> str:
    """The answer field of one player's line of a score ("non_dealer_big_casino")."""
    return f"{player}_{line}"


SCORE_FIELDS = tuple(line_field(who, line) for who in words.PLAYERS for line in LINES)
KIND_FIELDS: Mapping[str, tuple[str, ...]] = {
    "is_legal": ("legal", "reason"),
    "may_take": ("takes",),
    "legal_plays": ("plays",),
    "score_hand": (*SCORE_FIELDS, "winner"),
    "rule_on": ("ruling",),
}

ANSWER_FIELDS: tuple[AnswerField, ...] = (
    AnswerField("legal", "boolean", "Casino, is this play legal: true or false."),
    AnswerField(
        "reason",
        "word",
        "Casino, is this play legal, when it is not: the reason it is refused.",
        choices=REASONS,
    ),
    AnswerField(
        "takes",
        "word_list",
        'Casino, what may this card take: the table items it takes, each a card ("7h") or a '
        'build\'s cards joined by + ("3h+6s"); [] when it takes nothing.',
        most=grammar.MAX_ITEMS,
    ),
    AnswerField(
        "plays",
        "word_list",
        'Casino, every legal play of this card: each play written "take 7h 3h+6s", '
        '"build 9 with 3h", "build 6 on 2c+3h" or "trail".',
        most=grammar.MAX_PLAYS,
    ),
    *(
        AnswerField(
            name,
            "integer",
            f"Casino, score the hand: the points of this line (0 to {MOST_POINTS}).",
            minimum=0,
            maximum=MOST_POINTS,
        )
        for name in SCORE_FIELDS
    ),
    AnswerField(
        "winner",
        "word",
        "Casino, score the hand: who wins the hand (tie: nobody).",
        choices=WINNERS,
    ),
    AnswerField("ruling", "word", "Casino, rule on this: the ruling.", choices=RULINGS),
)

# The form's answer shapes (its hidden ``casino`` field) and the kinds they answer.
FORM_SHAPES = {
    "verdict": "is_legal",
    "takes": "may_take",
    "plays": "legal_plays",
    "score": "score_hand",
    "ruling": "rule_on",
}


def sweeps_scored(document: Mapping[str, Any] | None) -> bool:
    """Whether the round's rules score sweeps (the engine refused bad rules at the deal)."""
    if document is None:
        return False
    try:
        return profile_from(document.get("rules")).sweeps
    except ProfileError:
        return False


def _table_keys(document: Mapping[str, Any] | None) -> set[str] | None:
    if document is None or not isinstance(document.get("table"), list):
        return None
    keys = set()
    for item in document["table"]:
        try:
            if isinstance(item, str):
                keys.add(grammar.item_key(item, field="takes"))
            elif isinstance(item, Mapping):
                keys.add(grammar.item_key("+".join(item.get("build") or []), field="takes"))
        except ProductError:
            continue
    return keys


def _on_table(key: str, keys: set[str] | None, field: str) -> None:
    if keys is not None and key not in keys:
        raise ProductError(f"{words.key_words(key)} is not on the table", field=field)


def _strings(answer: Mapping[str, Any], name: str, most: int) -> list[Any]:
    value = answer.get(name)
    if not isinstance(value, list):
        raise ProductError(f"{name} must be a list (an empty list for none)", field=name)
    if len(value) > most:
        raise ProductError(f"{name} holds at most {most} entries", field=name)
    return value


def _verdict(answer: Mapping[str, Any]) -> dict[str, Any]:
    legal = answer.get("legal")
    if not isinstance(legal, bool):
        raise ProductError("say whether the play is legal: legal is true or false", field="legal")
    if legal:
        if "reason" in answer:
            raise ProductError("a legal play has no reason: leave the reason out", field="reason")
        return {"legal": True}
    reason = answer.get("reason")
    if reason not in REASONS:
        raise ProductError("an illegal play needs its reason: choose one", field="reason")
    return {"legal": False, "reason": reason}


def _takes(answer: Mapping[str, Any], document: Mapping[str, Any] | None) -> dict[str, Any]:
    keys = _table_keys(document)
    taken = []
    for i, text in enumerate(_strings(answer, "takes", grammar.MAX_ITEMS)):
        key = grammar.item_key(text, field=f"takes[{i}]")
        _on_table(key, keys, f"takes[{i}]")
        if key in taken:
            raise ProductError(f"{words.key_words(key)} is named twice", field=f"takes[{i}]")
        taken.append(key)
    return {"takes": list(grammar.sort_keys(taken))}


def _plays(answer: Mapping[str, Any], document: Mapping[str, Any] | None) -> dict[str, Any]:
    keys = _table_keys(document)
    plays: list[str] = []
    for i, text in enumerate(_strings(answer, "plays", grammar.MAX_PLAYS)):
        play = grammar.parse_play(text, field=f"plays[{i}]")
        for word in play.split()[1:]:
            if not word.isdigit() and word not in ("on", "with"):
                _on_table(word, keys, f"plays[{i}]")
        if play in plays:
            raise ProductError(f"{echo(str(text))} is listed twice", field=f"plays[{i}]")
        plays.append(play)
    return {"plays": sorted(plays)}


def _score(answer: Mapping[str, Any], document: Mapping[str, Any] | None) -> dict[str, Any]:
    sweeps = sweeps_scored(document)
    out: dict[str, Any] = {}
    for who in words.PLAYERS:
        lines: dict[str, int] = {}
        for line in LINES:
            name = line_field(who, line)
            said = f"{words.PLAYER_TITLES[who]}'s {words.LINE_WORDS[line].lower()}"
            if line == "sweeps" and not sweeps:
                if name in answer:
                    raise ProductError(
                        f"{said}: this table scores no sweeps; leave the line out", field=name
                    )
                continue
            value = answer.get(name)
            if name not in answer:
                raise ProductError(f"{said}: write the points, 0 for none", field=name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProductError(f"{said}: a whole number of points", field=name)
            if not 0 <= value <= MOST_POINTS:
                raise ProductError(f"{said}: from 0 to {MOST_POINTS} points", field=name)
            lines[line] = value
        out[who] = lines
    winner = answer.get("winner")
    if winner not in WINNERS:
        raise ProductError("say who wins the hand (or a tie)", field="winner")
    out["winner"] = winner
    return out


def _ruling(answer: Mapping[str, Any]) -> dict[str, Any]:
    ruling = answer.get("ruling")
    if ruling not in RULINGS:
        raise ProductError("choose the ruling", field="ruling")
    return {"ruling": ruling}


def parse_answer(
    kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The answer in the shape ``compare`` reads, or a ProductError naming the field."""
    if not isinstance(answer, Mapping):
        raise ProductError("answer must be an object", field="answer")
    allowed = KIND_FIELDS.get(kind)
    if allowed is None:
        raise ProductError(f"question kind {echo(kind)} cannot be answered here", field="question")
    unknown = [str(key) for key in answer if key not in allowed]
    if unknown:
        raise ProductError(
            f"this question does not take {echo(unknown[0])} in its answer",
            field=f"answer.{clip(unknown[0])}",
            code="unknown_field",
        )
    if kind == "is_legal":
        return _verdict(answer)
    if kind == "may_take":
        return _takes(answer, document)
    if kind == "legal_plays":
        return _plays(answer, document)
    if kind == "score_hand":
        return _score(answer, document)
    return _ruling(answer)


def _list(post: Mapping[str, Any], name: str) -> list[str]:
    getlist = getattr(post, "getlist", None)
    raw = getlist(name) if getlist is not None else post.get(name, [])
    if isinstance(raw, str):
        raw = [raw]
    return [str(value) for value in raw or []]


def _form_integer(text: str, name: str) -> int | str:
    said = text.strip()
    return int(said) if said.isascii() and said.isdigit() and len(said) < 4 else said


def form_answer(post: Mapping[str, Any]) -> dict[str, Any]:
    """The table page's posted form as the API's JSON answer (``casino`` names its shape)."""
    shape = post.get("casino")
    if shape not in FORM_SHAPES:
        raise ProductError("choose an answer", field="answer")
    if shape == "verdict":
        said = post.get("legal")
        if said not in ("legal", "illegal"):
            raise ProductError("say whether the play is legal", field="legal")
        out: dict[str, Any] = {"legal": said == "legal"}
        if said == "illegal" and post.get("reason"):
            out["reason"] = str(post.get("reason"))
        return out
    if shape == "takes":
        return {"takes": [text for text in _list(post, "takes") if text.strip()]}
    if shape == "plays":
        lines = [line for text in _list(post, "plays") for line in text.splitlines()]
        return {"plays": [line.strip() for line in lines if line.strip()]}
    if shape == "ruling":
        return {"ruling": str(post.get("ruling") or "")}
    score: dict[str, Any] = {}
    for name in SCORE_FIELDS:
        text = str(post.get(name) or "")
        if text.strip():
            score[name] = _form_integer(text, name)
    if post.get("winner"):
        score["winner"] = str(post.get("winner"))
    return score


class CasinoReading:
    answer_fields = ANSWER_FIELDS

    def parse_answer(
        self, kind: str, answer: Mapping[str, Any], *, document: Mapping[str, Any]
    ) -> dict[str, Any]:
        return parse_answer(kind, answer, document=document)

    def form_answer(self, post: Mapping[str, Any]) -> dict[str, Any]:
        return form_answer(post)
