"""Blackjack's rule parameters as the game declares them (trainer.games.authoring.Parameter):
every parameter of the engine's profiles, in the order a table card reads, in the words a
dealer or pit manager uses; the house-rules form, the API's refusals and the round editor
read them here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from trainer import rules
from trainer.games.authoring import Parameter

YES_NO = ((True, "Yes"), (False, "No"))

# Every parameter of the engine's profiles (trainer.rules.PARAMETERS), in the order a table
# card reads, in words a dealer or pit manager uses.
_DECLARED: tuple[Parameter, ...] = (
    Parameter(
        "blackjack_pays",
        "Blackjack pays",
        choices=(("3:2", "3 to 2"), ("6:5", "6 to 5"), ("1:1", "1 to 1 (even money)")),
    ),
    Parameter(
        "dealer_hits_soft_17",
        "Soft 17",
        choices=((True, "Dealer hits soft 17"), (False, "Dealer stands on soft 17")),
    ),
    Parameter(
        "hole_card",
        "Hole card",
        choices=(
            ("peek", "Dealer takes a hole card and peeks under an ace or a ten"),
            ("enhc", "No hole card: the dealer's second card comes after the players"),
        ),
    ),
    Parameter(
        "insurance",
        "Insurance",
        choices=((True, "Offered, pays 2 to 1"), (False, "Not offered")),
    ),
    Parameter(
        "even_money",
        "Even money on a blackjack against an ace",
        choices=((True, "Offered"), (False, "Not offered")),
    ),
    Parameter(
        "surrender",
        "Surrender",
        choices=(("late", "Late surrender: half the stake back"), ("none", "No surrender")),
    ),
    Parameter(
        "double_on",
        "Double down on",
        choices=(
            ("any", "Any first two cards"),
            ("9-11", "A first-two-card 9, 10 or 11"),
            ("10-11", "A first-two-card 10 or 11"),
        ),
    ),
    Parameter("double_after_split", "Double after a split", choices=YES_NO),
    Parameter("double_for_less", "Double for less than the stake", choices=YES_NO),
    Parameter(
        "max_split_hands",
        "Most hands a box may split to",
        kind="int",
        low=1,
        high=52,
        optional=True,
        empty="No limit",
        help="Leave empty for no limit.",
    ),
    Parameter(
        "split_unlike_tens",
        "Splitting tens",
        choices=(
            (True, "Any two ten-value cards"),
            (False, "Only tens of the same rank"),
        ),
    ),
    Parameter(
        "resplit_aces", "Resplitting aces", choices=((True, "Allowed"), (False, "Not allowed"))
    ),
    Parameter(
        "hit_split_aces",
        "Split aces",
        choices=((False, "Take one card each"), (True, "May be hit like any hand")),
    ),
    Parameter(
        "bonus_777",
        "Three sevens bonus (times the stake)",
        kind="amount",
        optional=True,
        empty="No bonus",
        help="Leave empty for no bonus; e.g. 2 pays twice the stake, whatever the result.",
    ),
    Parameter(
        "min_bet",
        "Smallest bet",
        kind="amount",
        refused="must not be above the largest bet ({})",
        beside="max_bet",
    ),
    Parameter("max_bet", "Largest bet (for the whole box)", kind="amount"),
    Parameter(
        "payout_unit",
        "Smallest chip a blackjack is paid in",
        kind="amount",
        help="A blackjack's winnings are rounded down to it.",
    ),
    Parameter("decks", "Decks in the shoe", kind="int", low=1, high=8),
    Parameter("burn", "Cards burned after the shuffle", kind="int", low=0, high=5),
    Parameter("penetration_cards", "Cards left behind the cut card", kind="int", low=0, high=416),
    Parameter("boxes", "Betting boxes on the table", kind="int", low=1, high=7),
    Parameter(
        "settle_order",
        "Settling order",
        choices=(("right-to-left", "Right to left: the box on the dealer's right first"),),
    ),
    Parameter(
        "chip_set",
        "Chips at the table",
        kind="chips",
        help="Every chip value, separated by commas: e.g. 1, 5, 25, 100.",
    ),
    Parameter(
        "chip_rule",
        "Paying in chips",
        choices=(
            ("fewest", "The fewest chips, the larger chips first"),
            ("match", "The bet's colours for each whole bet, then the fewest chips"),
        ),
    ),
    Parameter(
        "change_chip",
        "Largest chip given for cash",
        kind="amount",
        refused="must be one of the table's chips ({})",
        beside="chip_set",
    ),
)

# How the round editor asks for a rule a single round may change, and what a person
# writes for a value the engine spells otherwise.
_ROUND_WORDS = {
    "blackjack_pays": "Blackjack pays (3:2, 6:5 or 1:1)",
    "dealer_hits_soft_17": "Dealer hits soft 17 (yes or no)",
    "insurance": "Insurance offered (yes or no)",
    "even_money": "Even money offered (yes or no)",
    "surrender": "Surrender (none or late)",
    "double_on": "Double on (any, 9-11 or 10-11)",
    "double_after_split": "Double after a split (yes or no)",
    "double_for_less": "Double for less (yes or no)",
    "split_unlike_tens": "Split unlike tens (yes or no)",
    "max_split_hands": "Most hands from splits (a number, or none)",
    "resplit_aces": "Resplit aces (yes or no)",
    "hit_split_aces": "Hit split aces (yes or no)",
    "hole_card": "Hole card (peek, or none for no hole card)",
    "payout_unit": "Smallest payout chip (e.g. 0.50)",
    "bonus_777": "7-7-7 prize, times the stake (or none)",
    "decks": "Decks",
    "burn": "Cards burned",
    "penetration_cards": "Cards behind the cut card",
    "boxes": "Boxes on the layout",
    "min_bet": "Minimum bet",
    "max_bet": "Maximum bet",
}
_NONE: tuple[tuple[str, Any], ...] = (("none", None), ("no limit", None), ("no prize", None))
_WRITTEN: dict[str, tuple[tuple[str, Any], ...]] = {
    "max_split_hands": _NONE,
    "bonus_777": _NONE,
    "hole_card": (("none", "enhc"), ("no hole card", "enhc"), ("enhc", "enhc")),
}
_BASE = rules.profile_to_dict(rules.PROFILES["casino-shoe"])
# The house-rules form's groups, as a pit manager reads a table card.
_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Blackjack, the dealer and side bets",
        ("blackjack_pays", "dealer_hits_soft_17", "hole_card", "insurance", "even_money"),
    ),
    (
        "Doubles, splits and surrender",
        (
            "surrender",
            "double_on",
            "double_after_split",
            "double_for_less",
            "max_split_hands",
            "split_unlike_tens",
            "resplit_aces",
            "hit_split_aces",
            "bonus_777",
        ),
    ),
    (
        "Bets, the shoe and the table",
        ("min_bet", "max_bet", "payout_unit", "decks", "burn", "penetration_cards", "boxes"),
    ),
    ("Settling and chips", ("settle_order", "chip_set", "chip_rule", "change_chip")),
)
_GROUP_OF = {key: legend for legend, keys in _GROUPS for key in keys}
assert sorted(_GROUP_OF) == sorted(p.key for p in _DECLARED)
# Soft 17 posts which way the dealer goes.
_TOKENS = {"dealer_hits_soft_17": ("hits", "stands")}

PARAMETERS: tuple[Parameter, ...] = tuple(
    replace(
        p,
        default=_BASE.get(p.key),
        round_words=_ROUND_WORDS.get(p.key, ""),
        written=_WRITTEN.get(p.key, ()),
        group=_GROUP_OF[p.key],
        tokens=_TOKENS.get(p.key, ("yes", "no")),
    )
    for p in _DECLARED
)
