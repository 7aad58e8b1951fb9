"""Blackjack's table card and placard: a rule profile's parameters in the words of the card
on the table (the whole house rule, a line each) and of the placard (one line)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from trainer.rules.profiles import PROFILES


def house_rules(p: Mapping[str, Any], *, profile: str) -> list[str]:
    """The whole house rule, a line each, in the words of a table card: what a dealer
    needs to deal and settle this table (docs/scenario-format.md's parameters)."""
    money = _chip_text
    rules = [f"Blackjack pays {str(p['blackjack_pays']).replace(':', ' to ')}"]
    unit = money(p.get("payout_unit"))
    if unit:
        rules.append(f"Winnings on a blackjack are rounded down to the {unit} chip")
    rules.append("Dealer hits soft 17" if p["dealer_hits_soft_17"] else "Dealer stands on all 17s")
    if p.get("hole_card") == "enhc":
        rules.append(
            "No hole card: the dealer draws a second card after the players; a dealer "
            "blackjack takes every stake, doubles and splits included"
        )
    else:
        rules.append("Dealer peeks for blackjack under an ace or a ten")
    if p["insurance"]:
        rules.append("Insurance up to half the stake, pays 2 to 1")
    else:
        rules.append("No insurance")
    if p.get("even_money"):
        rules.append("Even money offered on a blackjack against an ace")
    if p.get("surrender") == "late":
        rules.append("Late surrender on the first two cards: half the stake back")
    else:
        rules.append("No surrender")
    double_on = {
        "any": "any first two cards",
        "9-11": "a first-two-card 9, 10 or 11",
        "10-11": "a first-two-card 10 or 11",
    }.get(str(p.get("double_on")), str(p.get("double_on")))
    rules.append(f"Double on {double_on}")
    rules.append(
        "Double after a split" if p.get("double_after_split") else "No double after a split"
    )
    if p.get("double_for_less"):
        rules.append("Double for less: any amount up to the stake")
    most = p.get("max_split_hands")
    rules.append(f"Split to {most} hands" if most else "Split without limit")
    rules.append(
        "Any two ten-value cards may be split"
        if p.get("split_unlike_tens")
        else "Only tens of the same rank may be split"
    )
    rules.append("Aces may be resplit" if p.get("resplit_aces") else "No resplitting aces")
    if not p.get("hit_split_aces"):
        rules.append("Split aces take one card each")
    if p.get("bonus_777"):
        rules.append(f"Three sevens pay {p['bonus_777']} × the stake, whatever the result")
    low, high = money(p.get("min_bet")), money(p.get("max_bet"))
    if low and high:
        rules.append(f"Bets {low} to {high} (the maximum for the whole box)")
    rules.append(
        f"{p['decks']} deck{'s' if p['decks'] != 1 else ''}, {p.get('burn', 0)} burned; "
        f"the cut card leaves {p.get('penetration_cards', 0)} cards behind it"
    )
    rules.append("Settle right to left: the box on the dealer's right first")
    rules += _chip_rules(p, profile=profile)
    return rules


def _chip_rules(p: Mapping[str, Any], *, profile: str) -> list[str]:
    """The table's chips and how it pays in them, in words. A version recorded before
    chips were rules plays with its profile's shipped chips (trainer.games.blackjack)."""
    if "chip_set" in p:
        chips = [str(c) for c in p["chip_set"]]
        rule, largest = p.get("chip_rule", "fewest"), p.get("change_chip")
    else:
        shipped = PROFILES.get(profile)
        if shipped is None:
            return []
        chips = [str(c) for c in shipped.chip_set]
        rule, largest = shipped.chip_rule, shipped.change_chip
    said = [f"Chips: {', '.join(_chip_text(c) for c in chips)}"]
    said.append(
        "Paid in the bet's colours for each whole bet, then the fewest chips"
        if rule == "match"
        else "Paid in the fewest chips, the larger chips first"
    )
    if largest is not None:
        said.append(f"Cash is changed into chips no larger than {_chip_text(largest)}")
    return said


def placard(p: Mapping[str, Any]) -> str:
    """The table placard: 'Blackjack pays 6 to 5 · Dealer hits soft 17 · ...'."""
    parts = [f"Blackjack pays {str(p['blackjack_pays']).replace(':', ' to ')}"]
    unit = _chip_text(p.get("payout_unit"))
    if unit:
        # The change chip: the house rules' rounding, on the placard too (issue #24).
        parts.append(f"Blackjack winnings rounded down to the {unit} chip")
    parts.append("Dealer hits soft 17" if p["dealer_hits_soft_17"] else "Dealer stands on all 17s")
    if p["insurance"]:
        parts.append("Insurance pays 2 to 1")
    if p.get("hole_card") == "enhc":
        parts.append("No hole card")
    if p.get("bonus_777"):
        parts.append(f"Three sevens pay {p['bonus_777']} × the stake")
    return " · ".join(parts)


def _chip_text(value: object) -> str:
    """An amount from the parameters as a table card writes it: 0.50, 5, 500."""
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    return f"{amount:.2f}" if amount != amount.to_integral_value() else f"{amount:.0f}"
