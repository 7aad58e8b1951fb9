"""Scarne's Casino at the trainee's table page: the page's context (``table_page``) and the
answer form's model (``answer_form``: what each kind of question is answered with, in
words, refilled from a refused post), drawn by templates/games/casino/_answer.html inside
the shell's answer form (the shell includes ``answer_template`` there, and shows
``keys_legend`` as the page's keys).

The form posts what `reading.form_answer` reads, whatever draws it (a script may build the
same fields): ``casino`` names the shape, then

- ``verdict``: ``legal`` = legal | illegal, and ``reason`` (a code of legality.REASONS);
- ``takes``: one ``takes`` field per item taken (its key: "7h", "2c+3h"); none = nothing;
- ``plays``: ``plays``, one play a line (or one field a play), in `grammar`'s words;
- ``score``: a field per player per line (``reading.line_field``: "dealer_aces"), empty
  fields left out, and ``winner`` = non_dealer | dealer | tie;
- ``ruling``: ``ruling`` (a code of rulings.RULINGS).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trainer.games.casino import display, words
from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.rulings import RULINGS
from trainer.games.casino.engine.scoring import LINES
from trainer.games.casino.reading import FORM_SHAPES, line_field

SHAPE_OF_KIND = {kind: shape for shape, kind in FORM_SHAPES.items()}
ANSWER_TEMPLATE = "games/casino/_answer.html"
PLAY_HELP = (
    "One play a line: take 7h 3h+6s · build 9 with 3h · build 6 on 2c+3h · trail "
    "(a card as 7h or 10d; a build as its cards joined by +)."
)


def _posted_list(posted: Mapping[str, Any] | None, name: str) -> list[str]:
    if not posted:
        return []
    getlist = getattr(posted, "getlist", None)
    raw = getlist(name) if getlist is not None else posted.get(name, [])
    return [str(value) for value in ([raw] if isinstance(raw, str) else raw or [])]


def score_lines(view: Mapping[str, Any], posted: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The score's lines, each with both players' fields (sweeps only where scored)."""
    lines = [line for line in LINES if line != "sweeps" or view.get("sweeps_scored")]
    return [
        {
            "line": line,
            "label": words.LINE_WORDS[line],
            "help": words.LINE_HELP[line],
            "fields": [
                {
                    "name": line_field(who, line),
                    "player": words.player_words(who, title=True),
                    "value": (posted or {}).get(line_field(who, line), ""),
                }
                for who in words.PLAYERS
            ],
        }
        for line in lines
    ]


def answer_form(question: Mapping[str, Any], posted: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the answer form asks for a public question, in words."""
    view = question.get("view") or {}
    kind = str(question.get("kind"))
    posted = posted or {}
    chosen = set(_posted_list(posted, "takes"))
    return {
        "shape": SHAPE_OF_KIND.get(kind, ""),
        "kind_words": words.KIND_WORDS.get(kind, ""),
        "verdicts": [("legal", "Legal"), ("illegal", "Illegal")],
        "legal": posted.get("legal", ""),
        "reasons": [(code, words.REASON_WORDS[code]) for code in REASONS],
        "reason": posted.get("reason", ""),
        "items": [{**item, "checked": item["key"] in chosen} for item in display.felt_items(view)],
        "plays_text": "\n".join(_posted_list(posted, "plays")),
        "play_help": PLAY_HELP,
        "lines": score_lines(view, posted) if kind == "score_hand" else [],
        "winners": [
            ("non_dealer", "The non-dealer"),
            ("dealer", "The dealer"),
            ("tie", "Nobody: a tie"),
        ],
        "winner": posted.get("winner", ""),
        "rulings": [(code, words.RULING_NAMES[code]) for code in RULINGS],
        "ruling": posted.get("ruling", ""),
    }


def table_page(
    question: Mapping[str, Any],
    prompt: str,
    *,
    posted: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The game's part of the trainee's table page (Presenting.table_page)."""
    view = question.get("view") or {}
    return {
        "question_text": prompt,
        "table": display.table_model(view, prompt=prompt),
        "work": None,
        "work_rule": "",
        "rack_fields": [],
        "buttons": [],
        "settlement_choices": (),
        "vocabulary": "{}",
        "chips": [],
        "answer_template": ANSWER_TEMPLATE,
        "answer_form": answer_form(question, posted),
        "keys_legend": "Tab moves between the choices · Space ticks one · Enter answers",
    }
