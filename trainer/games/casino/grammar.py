"""The written grammar of a Casino answer's items and plays (docs/api.md, *Scarne's Casino*).

An **item** on the table is a card ("7h", "10d", case-insensitive) or a build, its cards
joined by "+" in any order ("3h+6s"). A **play** of the question's card is one of:

- ``take ITEM ...``: the items taken ("take 7h 3h+6s");
- ``build N with ITEM ...``: a new build worth N with loose cards ("build 9 with 3h");
- ``build N on BUILD [with ITEM ...]``: raise or add to a build ("build 6 on 2c+3h");
- ``trail``.

Words are separated by spaces; the canonical text (what is stored and compared) writes
every card as the engine does ("Th"), a build's cards in order, and the items in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import ProductError, echo
from trainer.games.casino.engine.cards import CardError, parse_card
from trainer.games.casino.engine.table import build_key, sort_keys

MAX_ITEMS = 16
MAX_PLAYS = 64
MAX_PLAY_CHARS = 200  # a play names at most 16 items: far less than this
# The most a written build may announce (the format's limit: over 10 is refused as a play,
# build_over_ten, not as a sentence).
MAX_VALUE = 99


def item_key(text: object, *, field: str) -> str:
    """An item's canonical key; ProductError naming ``field`` when it is not one."""
    if not isinstance(text, str) or not text.strip():
        raise ProductError(
            'an item is a card such as "7h" or a build\'s cards joined by + such as "3h+6s"',
            field=field,
        )
    try:
        return build_key(parse_card(part.strip()) for part in text.strip().split("+"))
    except CardError:
        raise ProductError(
            f"{echo(text.strip())} is not a card (rank then suit, such as 7h or 10d) "
            "nor a build's cards joined by +",
            field=field,
        ) from None


def play_text(play: Mapping[str, Any]) -> str:
    """A play as the engine writes it ({"card", "take"|"build"|"trail", ...}) in the
    canonical grammar, without its card (the question names it)."""
    if play.get("trail"):
        return "trail"
    if "take" in play:
        return " ".join(["take", *sort_keys(play.get("take") or [])])
    words = ["build", str(play.get("build"))]
    if play.get("on"):
        words += ["on", str(play["on"])]
    joined = list(sort_keys(play.get("with") or []))
    if joined:
        words += ["with", *joined]
    return " ".join(words)


def parse_play(text: object, *, field: str) -> str:
    """A written play in its canonical text; ProductError naming ``field`` otherwise."""
    if not isinstance(text, str):
        raise ProductError("a play is written as text, such as take 7h or trail", field=field)
    if len(text) > MAX_PLAY_CHARS:
        raise ProductError(f"a play is at most {MAX_PLAY_CHARS} characters", field=field)
    words = text.split()
    if not words:
        raise ProductError("a play is empty: write take, build or trail", field=field)
    head = words[0].lower()
    if head == "trail":
        if len(words) > 1:
            raise ProductError("trail names nothing else: write trail alone", field=field)
        return "trail"
    if head == "take":
        items = [item_key(word, field=field) for word in words[1:]]
        if not items:
            raise ProductError("take names what it takes: take 7h 3h+6s", field=field)
        _few(items, field)
        _once(items, field)
        return " ".join(["take", *sort_keys(items)])
    if head == "build":
        return _build(words[1:], field=field)
    raise ProductError(
        f"a play starts with take, build or trail, not {echo(words[0])}", field=field
    )


def _build(words: list[str], *, field: str) -> str:
    if not words or not words[0].isascii() or not words[0].isdigit():
        raise ProductError("build says its value first: build 9 with 3h", field=field)
    value = int(words[0]) if len(words[0]) <= len(str(MAX_VALUE)) else MAX_VALUE + 1
    if not 1 <= value <= MAX_VALUE:
        raise ProductError(
            f"a build's value is a whole number from 1 to {MAX_VALUE}, not {echo(words[0])}",
            field=field,
        )
    rest = [word.lower() if word.lower() in ("on", "with") else word for word in words[1:]]
    on = None
    if rest[:1] == ["on"]:
        if len(rest) < 2 or rest[1] == "with":
            raise ProductError("on names the build: build 6 on 2c+3h", field=field)
        on = item_key(rest[1], field=field)
        if "+" not in on:
            raise ProductError(
                f"on names a build (its cards joined by +), not the card {echo(rest[1])}",
                field=field,
            )
        rest = rest[2:]
    joined: list[str] = []
    if rest[:1] == ["with"]:
        joined = [item_key(word, field=field) for word in rest[1:]]
        if not joined:
            raise ProductError("with names the cards built with: build 9 with 3h", field=field)
    elif rest:
        raise ProductError(
            f"after build {value} comes on or with, not {echo(rest[0])}", field=field
        )
    if on is None and not joined:
        raise ProductError(
            "a new build names the cards it is made with: build 9 with 3h", field=field
        )
    _few(joined, field)
    _once([*joined, *([on] if on else [])], field)
    out = ["build", str(value)]
    if on:
        out += ["on", on]
    if joined:
        out += ["with", *sort_keys(joined)]
    return " ".join(out)


def _few(items: list[str], field: str) -> None:
    if len(items) > MAX_ITEMS:
        raise ProductError(f"a play names at most {MAX_ITEMS} items", field=field)


def _once(items: list[str], field: str) -> None:
    twice = next((key for k, key in enumerate(items) if key in items[:k]), None)
    if twice is not None:
        raise ProductError(f"{twice} is named twice", field=field)
