"""The rule a question rests on, as a person reads it: the engine's rule without the
parameters and profile it names for programs, a round's rule change said in a dealer's words
("this table pays 6 to 5 on blackjack"), a shoe with no cut card said plainly."""

from __future__ import annotations

import re

# The engine ends a rule with the parameters and profile it rests on, "(surrender: late,
# casino-shoe)": words for programs. People read the rule without them.
_RULE_SOURCE = re.compile(r"\s*\((?:[a-z_0-9]+: [^()]*|[a-z0-9]+(?:-[a-z0-9]+)+)\)\s*$")


# A round dealt with a rule change names its profile "casino-shoe with blackjack_pays=6:5,
# dealer_hits_soft_17=true" (trainer.rules.profiles): the change, said in words, is what the
# trainee needs to read ("this table pays 6 to 5 on blackjack").
_RULE_CHANGED = re.compile(
    r"\s*\((?:[a-z_0-9]+: [^()]*?, )?[a-z0-9]+(?:-[a-z0-9]+)+ with (?P<changes>[^()]*)\)\s*$"
)
_CHANGE = re.compile(r"([a-z_0-9]+)=([^,]*)(?:, |$)")
_YES_NO = {
    "dealer_hits_soft_17": ("the dealer hits soft 17", "the dealer stands on soft 17"),
    "insurance": ("insurance is offered", "no insurance"),
    "even_money": ("even money is offered", "no even money"),
    "double_after_split": ("doubling after a split is allowed", "no double after a split"),
    "double_for_less": ("doubling for less is allowed", "no doubling for less"),
    "split_unlike_tens": ("any two ten-value cards may be split", "only like tens split"),
    "resplit_aces": ("aces may be resplit", "no resplitting aces"),
    "hit_split_aces": ("split aces may be hit", "split aces take one card each"),
}
_CHANGE_WORDS = {
    "blackjack_pays": lambda v: f"this table pays {v.replace(':', ' to ')} on blackjack",
    "hole_card": lambda v: "no hole card" if v == "enhc" else "the dealer peeks",
    "surrender": lambda v: "late surrender" if v == "late" else "no surrender",
    "decks": lambda v: f"{v} deck{'' if v == '1' else 's'}",
    "burn": lambda v: f"{v} card{'' if v == '1' else 's'} burned",
    "penetration_cards": lambda v: f"the cut card leaves {v} cards behind it",
    "boxes": lambda v: f"{v} boxes",
    "min_bet": lambda v: f"minimum bet {v}",
    "max_bet": lambda v: f"maximum bet {v}",
    "payout_unit": lambda v: f"payouts rounded to {v}",
    "double_on": lambda v: "double on any two cards" if v == "any" else f"double on {v}",
    "max_split_hands": lambda v: "split without limit" if v == "null" else f"split to {v} hands",
    "bonus_777": lambda v: "no 7-7-7 prize" if v == "null" else f"three sevens pay {v} × the stake",
    "settle_order": lambda v: "settle right to left",
    "chip_set": lambda v: f"chips {v.replace('/', ', ')}",
    "chip_rule": lambda v: "paid in the bet's colours" if v == "match" else "paid in fewest chips",
    "change_chip": lambda v: f"cash changed into chips no larger than {v}",
}
# Said plainly: a shoe with no cut card is simply dealt on.
_NO_CUT_CARD = "No cut card was reached: this scenario places none"
NO_CUT_CARD_WORDS = "This shoe has no cut card: keep dealing"


def rule_change_words(changes: str) -> str:
    """A profile's rule changes as the engine names them ("blackjack_pays=6:5,
    dealer_hits_soft_17=true") in a dealer's words."""
    said = []
    for name, value in _CHANGE.findall(changes):
        if name in _YES_NO:
            said.append(_YES_NO[name][0 if value == "true" else 1])
        elif name in _CHANGE_WORDS:
            said.append(_CHANGE_WORDS[name](value))
        else:
            said.append(f"{name.replace('_', ' ')} {value}")
    return "; ".join(said)


def rule_text(rule: str) -> str:
    """The rule a question rests on, as a person reads it (without the engine's parameter
    names and profile; a rule change of the round said in words)."""
    rule = (rule or "").strip()
    if rule == _NO_CUT_CARD:
        return NO_CUT_CARD_WORDS
    changed = _RULE_CHANGED.search(rule)
    if changed:
        words = rule_change_words(changed.group("changes"))
        return f"{rule[: changed.start()].strip()} (rule change: {words})"
    return _RULE_SOURCE.sub("", rule).strip()
