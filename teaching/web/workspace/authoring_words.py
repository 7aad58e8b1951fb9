"""The scenario form in a dealer's words: cards as rank and suit ("A♥", "10♦"), the host's
actions as a dealer says them ("double for 10"), and the engine's refusals rewritten for the
person at the form ("The 7th card of the shoe is not a card: use a rank and a suit, e.g.
'A♥'"), never its paths ("shoe[6]") or its profile names ("casino-shoe").

The form still writes the engine's own notation into the document
(docs/scenario-format.md is the contract); this module only translates at the edges.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SYMBOL_SUITS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
# The picker's suit buttons: the letter the field takes, the symbol drawn, the name said.
PICKER_SUITS = (
    ("s", "♠", "spades"),
    ("h", "♥", "hearts"),
    ("d", "♦", "diamonds"),
    ("c", "♣", "clubs"),
)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_CARD = re.compile(r"^(10|[2-9TJQKA])([shdc])$", re.IGNORECASE)
_CARD_IN_TEXT = re.compile(r"(?<![\w'])(10|[2-9TJQKA])([shdc])(?![\w])")
_PATH_CARD = re.compile(r"\b(shoe|burn)\[(\d+)\]")
_DOUBLE_FOR = re.compile(r"double:(\d+(?:\.\d+)?)")
EXAMPLE_CARD = "A♥"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def card_code(text: str) -> str | None:
    """A card as the engine writes it ("Ah", "Td") from how a person types or picks it
    ("A♥", "a♥", "10♦", "Ah", "10d"); None when it is not a card."""
    word = text.strip()
    if word and word[-1] in _SYMBOL_SUITS:
        word = word[:-1] + _SYMBOL_SUITS[word[-1]]
    found = _CARD.match(word)
    if found is None:
        return None
    rank = found.group(1).upper()
    return ("T" if rank == "10" else rank) + found.group(2).lower()


def card_words(code: str) -> str:
    """A card code as a dealer reads it: "Th" → "10♥"."""
    rank, suit = code[:-1].upper(), code[-1].lower()
    return ("10" if rank in ("T", "10") else rank) + SUIT_SYMBOLS.get(suit, suit)


def cards_text(codes: list[str]) -> str:
    """The cards as the form shows them, each in rank and suit."""
    return " ".join(card_words(c) for c in codes)


def where_card(field: str, index: int) -> str:
    """Where a card lies, in words: "the 7th card of the shoe", "the 1st burned card"."""
    if field == "burn":
        return f"the {ordinal(index + 1)} burned card"
    return f"the {ordinal(index + 1)} card of the shoe"


def not_a_card(field: str, index: int, shown: str) -> str:
    where = where_card(field, index)
    return (
        f"{where[0].upper()}{where[1:]} ({shown}) is not a card: use a rank and a suit, "
        f"e.g. '{EXAMPLE_CARD}'"
    )


def actions_from_words(words: list[str]) -> list[str]:
    """The host's actions as the engine reads them, from how a person writes them: "double
    for 10" and "double 10" are "double:10" (double for less); other words pass as
    written, for the engine to refuse by name."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word == "double":
            rest = words[i + 1 : i + 3]
            if len(rest) >= 2 and rest[0].lower() == "for" and _is_amount(rest[1]):
                out.append(f"double:{rest[1]}")
                i += 3
                continue
            if rest and _is_amount(rest[0]):
                out.append(f"double:{rest[0]}")
                i += 2
                continue
        out.append(word if word in ("hit", "stand", "double", "split", "surrender") else words[i])
        i += 1
    return out


def _is_amount(word: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d{1,2})?", word) is not None


def actions_text(actions: list[str]) -> str:
    """Stored actions written back as the form takes them ("double:10" → "double for 10")."""
    return " ".join(_DOUBLE_FOR.sub(r"double for \1", a) for a in actions)


_NOT_A_CARD = re.compile(r"^(shoe|burn)\[(\d+)\] is not a card: ([^;]*);")
_TOO_MANY = re.compile(r"^(shoe|burn)\[(\d+)\] is (\w+) number (\d+), but .*?(\d+) deck\(s\)")
_RAN_OUT = re.compile(r"card (\d+) was needed but the shoe holds (\d+)")
_BURN = re.compile(r"^burn has (\d+) cards?; .* burns (\d+)")
_UNKNOWN_ACTION = re.compile(r"unknown action (.+?); actions are")


def error_words(message: str, *, reason: str = "", tables: Mapping[str, str] | None = None) -> str:
    """An engine or library refusal as the person at the form reads it: positions counted
    from 1 in words, cards in rank and suit, tables by their names, actions as said."""
    box = ""
    found_box = re.match(r"^box (\d+): ", message)
    if found_box:
        box, message = f"Box {found_box.group(1)}: ", message[found_box.end() :]
    text = _rewritten(message, reason)
    if text is None:
        text = _RULE_PREFIX.sub("the value ", message)
        for path, words in _PATHS:
            text = path.sub(words, text)
        text = text.replace("a decimal string", "an amount in money")
        text = _SOME.sub(lambda m: _counted(int(m.group(1)), m.group(2)), text)
        text = _PATH_CARD.sub(lambda m: where_card(m.group(1), int(m.group(2))), text)
        text = text.replace("double:AMOUNT", "double for less")
        text = _DOUBLE_FOR.sub(r"double for \1", text)
        text = _CARD_IN_TEXT.sub(lambda m: card_words(m.group(1) + m.group(2)), text)
    for name, title in sorted((tables or {}).items(), key=lambda item: -len(item[0])):
        text = text.replace(f"{name}'s", f"the {title} table's")
        text = text.replace(f"under {name}", f"at the {title} table")
        text = text.replace(f"of {name}", f"of the {title} table")
        text = text.replace(name, f"the {title} table")
    if not box:
        return text[:1].upper() + text[1:]
    return box + text


# The engine's paths into the document, as the person at the form names those places.
_RULE_PREFIX = re.compile(r"^rules\.overrides\.\w+: ")
_PATHS = (
    (re.compile(r"\bboxes\[\d+\]\.stakes\[\d+\]\.amount\b"), "the stake"),
    (re.compile(r"\bboxes\[\d+\]\.stakes\[\d+\]\.player\b"), "the player's name"),
    (re.compile(r"\bboxes\[\d+\]\.insurance\.\w+"), "the insurance"),
    (re.compile(r"\bboxes\[\d+\]\.actions\[\d+\]"), "the action"),
    (re.compile(r"\bboxes\[\d+\]"), "the box"),
)
_SOME = re.compile(r"\b(\d+) (action|card|hand)\(s\)")


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _rewritten(message: str, reason: str) -> str | None:
    """The refusals a person meets most, in full sentences of their own."""
    found = _NOT_A_CARD.match(message)
    if found:
        return not_a_card(found.group(1), int(found.group(2)), found.group(3))
    found = _TOO_MANY.match(message)
    if found:
        where, card, count, decks = (
            where_card(found.group(1), int(found.group(2))),
            card_words(found.group(3)),
            int(found.group(4)),
            int(found.group(5)),
        )
        held = "one deck holds only one" if decks == 1 else f"{decks} decks hold only {decks}"
        return (
            f"{where[0].upper()}{where[1:]} is {card} number {count}, but the table's {held}: "
            "choose another card"
        )
    found = _RAN_OUT.search(message)
    if found and reason in ("", "shoe_exhausted"):
        return (
            f"The shoe runs out: the round needs a {ordinal(int(found.group(1)))} card but the "
            f"shoe holds {found.group(2)}; add the cards the round still deals"
        )
    found = _BURN.match(message)
    if found:
        return (
            f"{found.group(1)} burned card(s) given, but this table burns {found.group(2)}: "
            "give exactly that many, or none for the table's own"
        )
    found = _UNKNOWN_ACTION.search(message)
    if found:
        return (
            f"{found.group(1)} is not an action: use hit, stand, double, "
            "double for an amount (e.g. double for 10), split or surrender"
        )
    return None
