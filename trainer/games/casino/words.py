"""Scarne's Casino in a dealer's words: cards ("10♦"), table items ("building 9 (3♥ 6♠),
the dealer's"), the players ("the dealer", "the non-dealer"), every question kind, every
refusal reason (legality.REASONS), every ruling (rulings.RULINGS) and situation, and every
scoring line (scoring.LINES). Nothing here is an internal name: no underscore reaches a
person (tests/trainer/test_casino_game.py checks every word)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trainer.games.casino.engine.legality import REASONS
from trainer.games.casino.engine.rulings import RULINGS, SITUATIONS
from trainer.games.casino.engine.scoring import LINES

SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
PLAYERS = ("non_dealer", "dealer")  # in playing order, as the engine names them
PLAYER_WORDS = {"dealer": "the dealer", "non_dealer": "the non-dealer"}
# Capitalised, for a line's start and a column ("Non-dealer", never non_dealer).
PLAYER_TITLES = {"dealer": "Dealer", "non_dealer": "Non-dealer"}
WINNER_WORDS = {"dealer": "The dealer", "non_dealer": "The non-dealer", "tie": "Nobody: a tie"}

KIND_WORDS = {
    "is_legal": "Is this play legal?",
    "may_take": "What may this card take?",
    "legal_plays": "Every legal play of this card",
    "score_hand": "Score the hand",
    "rule_on": "Rule on this",
}

REASON_WORDS = {
    "not_in_hand": "The card is not in the player's hand",
    "not_on_table": "Something named is not on the table",
    "court_takes_one": "A court card takes one card of its rank (all three only with the fourth)",
    "court_in_build": "A court card takes only a loose card of its rank and never builds",
    "build_split": "A build is taken whole, and only by a card of its value",
    "multiple_is_fixed": "A multiple build cannot be raised or taken by another value",
    "increase_from_hand": "A build is raised only with a card from the hand",
    "build_over_ten": "No build is worth more than 10",
    "wrong_sum": "The cards do not make the value",
    "no_card_to_take": "The player would hold no card to take their build",
    "must_not_trail": "A player who owns a build may not trail",
}
assert set(REASON_WORDS) == set(REASONS)

RULING_WORDS = {
    "loss_of_game": "Loss of game: the offender loses, the opponent is credited 11 points",
    "misdeal": "Misdeal: the same dealer deals again",
    "hand_redealt": "The hands dealt stand; this hand goes back in the stock and is dealt again",
    "play_stands": "Play stands: no new deal",
    "look_at_opponent": "Play stands; the other player looks at as many of the opponent's cards",
    "no_penalty": "No penalty",
}
assert set(RULING_WORDS) == set(RULINGS)
# A ruling's short name, for a button or a column.
RULING_NAMES = {
    "loss_of_game": "Loss of game",
    "misdeal": "Misdeal",
    "hand_redealt": "Hand dealt again",
    "play_stands": "Play stands",
    "look_at_opponent": "Look at the opponent's cards",
    "no_penalty": "No penalty",
}

LINE_WORDS = {
    "cards": "Cards",
    "spades": "Spades",
    "big_casino": "Big casino",
    "little_casino": "Little casino",
    "aces": "Aces",
    "sweeps": "Sweeps",
}
assert set(LINE_WORDS) == set(LINES)
LINE_HELP = {
    "cards": "3 for 27 cards or more; nobody at 26 each",
    "spades": "1 for 7 spades or more",
    "big_casino": "2 for the 10♦",
    "little_casino": "1 for the 2♠",
    "aces": "1 for each ace",
    "sweeps": "1 for each sweep",
}

SITUATION_WORDS = {
    "faulty_build": "made a build without a card in hand to take it",
    "trail_owning_build": "trailed while owning a build on the table",
    "last_not_announced": "did not announce “Last” when dealing the last eight cards",
    "looked_at_taken": "looked through taken cards",
    "card_exposed": "turned up a card while dealing",
    "face_up_in_pack": "cards found face up in the pack",
    "wrong_number": "holds the wrong number of cards",
}
assert set(SITUATION_WORDS) == set(SITUATIONS)


def card_words(card: str) -> str:
    """ "Td" as "10♦", "As" as "A♠"."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS.get(card[1:2], card[1:])


def cards_words(cards: Sequence[str]) -> str:
    return " ".join(card_words(card) for card in cards)


def player_words(player: object, *, title: bool = False) -> str:
    names = PLAYER_TITLES if title else PLAYER_WORDS
    return names.get(str(player), str(player))


def key_words(key: str) -> str:
    """An item's key as a person reads it: a card ("7♥") or a build's cards ("3♥ 6♠")."""
    if "+" not in key:
        return card_words(key)
    return f"the build ({cards_words(key.split('+'))})"


def build_words(item: Mapping[str, Any]) -> str:
    """A build on the table: "building 9 (3♥ 6♠), the dealer's"."""
    owner = player_words(item.get("owner"))
    cards = cards_words(item.get("cards") or [])
    what = f"building {item.get('value')}"
    if item.get("kind") == "multiple":
        what = f"building {item.get('value')}s, a multiple build"
    return f"{what} ({cards}), {owner}'s"


def item_words(item: Mapping[str, Any]) -> str:
    """A table item of a question's view: a loose card or a build."""
    if item.get("kind") == "card":
        return card_words(str(item.get("key")))
    return build_words(item)


def play_words(
    play: Mapping[str, Any],
    items: Mapping[str, str] | None = None,
    values: Mapping[str, int] | None = None,
) -> str:
    """A play as the format writes it ({"card", "take"|"build"|"trail", ...}) in words:
    "10♠ takes 10♥ and the build (A♥ 3♣ 6♠)", "A♦ raises building 5 (3♥ 2♣), the dealer's,
    to 6", "9♥ adds to building 9 (6♠ 3♥), the non-dealer's"; ``items`` names a key as the
    table shows it, ``values`` gives a build's announced value (else read from its cards,
    `build_value`)."""
    card = card_words(str(play.get("card")))
    named = items or {}

    def said(key: str) -> str:
        return named.get(key) or key_words(key)

    if play.get("trail"):
        return f"{card} trails"
    if "take" in play:
        taken = [said(str(key)) for key in play.get("take") or []]
        return f"{card} takes {and_list(taken) if taken else 'nothing'}"
    value = play.get("build")
    joined = [said(str(key)) for key in play.get("with") or []]
    on = play.get("on")
    text = f"{card} builds {value}"
    if on:
        key = str(on)
        announced = value if isinstance(value, int) else None
        worth = (values or {}).get(key)
        old = worth if worth is not None else build_value(key, announced)
        if old is not None and old == announced:
            text = f"{card} adds to {said(key)}"
        else:
            # "building 5 (3♥ 2♣), the dealer's, to 6": the owner's clause closed.
            pause = "," if "," in said(key) else ""
            text = f"{card} raises {said(key)}{pause} to {value}"
    if joined:
        text += f"{',' if on else ''} with {and_list(joined)}"
    return text


def written_play_words(
    text: str,
    names: Mapping[str, str] | None = None,
    values: Mapping[str, int] | None = None,
) -> str:
    """A play in the canonical grammar ("build 9 on 3h+6s with 5d", trainer.games.casino.
    grammar) as the felt's composer says it, the one voice of every written play: "Take 7♥
    and the build (3♥ 6♠)", "Build 9 with 2♦ and 6♠", and a play on a build as a dealer says
    it: "Raise the 5 build (2♣ 3♥) to 6" (a new value), "Add to the build of 9 (3♥ 6♠), with
    5♦" (its own value). Each item taken or built with is named as the table shows it when
    ``names`` has it; the build's own cards are said in rank order.

    ``values`` (key -> announced value) says what each build on the table is worth, where the
    table is known (the composer, a refused form). A stored answer is read without its table:
    the build's value is then read from its cards (`build_value`), which is the build's own
    for every legal play; only a wrong play on an ambiguous build (4♥ 4♠: an 8, or two 4s)
    may be said with the other value."""
    named = names or {}
    head, *rest = text.split() or [""]

    def said(keys: Sequence[str]) -> str:
        return and_list([named.get(key) or key_words(key) for key in keys])

    if head == "trail":
        return "Trail"
    if head == "take":
        return f"Take {said(rest)}" if rest else "Take nothing"
    if head != "build" or not rest:
        return text
    value, rest = rest[0], rest[1:]
    out = f"Build {value}"
    if rest[:2] and rest[0] == "on":
        base = rest[1]
        out = on_build_words(base, value, (values or {}).get(base))
        rest = rest[2:]
    if rest[:1] == ["with"]:
        out += f"{',' if out != f'Build {value}' else ''} with {said(rest[1:])}"
    return out


def on_build_words(key: str, value: str, worth: int | None = None) -> str:
    """A play on the build ``key`` announcing ``value``: "Raise the 5 build (2♣ 3♥) to 6", or
    "Add to the build of 9 (3♥ 6♠)" when the value is the build's own. ``worth``: the build's
    announced value when the table is known; else read from its cards (`build_value`)."""
    cards = cards_words(sorted(key.split("+"), key=_rank_order))
    announced = int(value) if value.isdigit() else None
    old = worth if worth is not None else build_value(key, announced)
    if old is not None and old == announced:
        return f"Add to the build of {value} ({cards})"
    if old is None:
        return f"Raise the build ({cards}) to {value}"
    return f"Raise the {old} build ({cards}) to {value}"


_RANKS = "A23456789TJQK"
_SUIT_ORDER = "shdc"


def _rank_order(card: str) -> tuple[int, int]:
    return (_RANKS.find(card[:1].upper()), _SUIT_ORDER.find(card[1:2].lower()))


def _pip(card: str) -> int:
    rank = _RANKS.find(card[:1].upper()) + 1
    return rank if 1 <= rank <= 10 else 0


def build_value(key: str, announced: int | None) -> int | None:
    """A build's value from its cards alone, reading it as a legal play on it would: the
    announced value when the cards split into groups of it (adding to a build of its own
    value), else their sum when a single build may be worth it (raising it); None when no
    build of these cards is worth either."""
    pips = [_pip(card) for card in key.split("+")]
    total = sum(pips)
    if announced and 0 < announced <= total and _splits(pips, announced):
        return announced
    return total if 0 < total <= 10 else None


def _splits(pips: list[int], value: int) -> bool:
    """Whether the cards split into groups each worth ``value``."""
    if sum(pips) % value or any(pip <= 0 or pip > value for pip in pips):
        return False

    def fill(rest: list[int], open_sum: int) -> bool:
        if not rest:
            return open_sum == 0
        for i, pip in enumerate(rest):
            if open_sum + pip <= value and fill(rest[:i] + rest[i + 1 :], (open_sum + pip) % value):
                return True
            if open_sum == 0:
                return False  # the first card of a new group: any of them would do
        return False

    return fill(sorted(pips, reverse=True), 0)


def and_list(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def situation_words(situation: Mapping[str, Any]) -> str:
    """A described penalty or misdeal situation as a floor person tells it."""
    kind = str(situation.get("kind"))
    offender = player_words(situation.get("offender", "dealer"))
    what = SITUATION_WORDS.get(kind, kind)
    if kind == "last_not_announced":
        played = situation.get("trick_played")
        after = (
            "a trick has been played from them" if played else "no trick has been played from them"
        )
        return f"The dealer {what}; {after}."
    if kind == "looked_at_taken":
        which = "only the last trick" if situation.get("last_trick_only") else "earlier tricks"
        when = (
            "after the opponent played"
            if situation.get("opponent_played")
            else "before the opponent played"
        )
        return f"{_cap(offender)} {what}: {which}, {when}."
    if kind == "card_exposed":
        whose = "their own card" if situation.get("belongs_to") == "self" else "the opponent's card"
        when = (
            "among the first 12 cards dealt"
            if situation.get("within_first_12")
            else "after the first 12 cards dealt"
        )
        return f"{_cap(offender)} {what}: {whose}, {when}."
    if kind == "face_up_in_pack":
        count = situation.get("count")
        receiver = player_words(situation.get("receiver"))
        noun = "card" if count == 1 else "cards"
        return f"{count} {noun} found face up in the pack, dealt to {receiver}."
    if kind == "wrong_number":
        when = (
            "found before the first trick was completed"
            if situation.get("before_first_trick")
            else "found after a card was played"
        )
        return f"{_cap(offender)} {what}, {when}."
    return f"{_cap(offender)} {what}."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def ruling_words(expected: Mapping[str, Any]) -> str:
    """A ruling (expected or given) in words; a loss of game names who loses and who is
    credited when the ruling says so."""
    code = str(expected.get("ruling"))
    if code == "loss_of_game" and expected.get("offender"):
        loser = player_words(expected.get("offender"))
        credited = player_words(expected.get("credited"))
        return f"Loss of game: {loser} loses, {credited} is credited {expected.get('points', 11)}"
    if code == "look_at_opponent" and expected.get("receiver"):
        count = expected.get("count")
        receiver = player_words(expected.get("receiver"))
        return f"Play stands; {receiver} looks at {count} of the opponent's cards"
    return RULING_NAMES.get(code, code)


def score_words(score: Mapping[str, Any]) -> str:
    """A score by line, the given or the expected: "Non-dealer: cards 3, spades 1, ... (7) ·
    Dealer: ... (4) · The non-dealer wins"."""
    parts = []
    for who in PLAYERS:
        lines = score.get(who)
        if not isinstance(lines, Mapping):
            continue
        said = ", ".join(
            f"{LINE_WORDS[line].lower()} {lines[line]}"
            for line in LINES
            if line in lines and (line != "sweeps" or lines[line])
        )
        total = lines.get("total")
        if total is None:
            total = sum(int(lines.get(line) or 0) for line in LINES)
        parts.append(f"{PLAYER_TITLES[who]}: {said} ({total})")
    winner = score.get("winner")
    if winner in (None, "tie"):
        parts.append("Nobody wins: a tie")
    else:
        parts.append(f"{WINNER_WORDS.get(str(winner), str(winner))} wins")
    return " · ".join(parts)
