"""What a blackjack table test must deal: the skills a dealer needs at one rule profile's
table. The list follows the profile's own rules: the 6:5 table asks for 6:5 rounding, the
European table for no-hole-card insurance and the doubles and splits a dealer natural
takes, surrender only where it is offered, the 7-7-7 prize only where it is paid."""

from __future__ import annotations

from trainer import rules
from trainer.games.blackjack.skills import Skill


def table_test_skills(profile: rules.Profile) -> dict[str, int]:
    """Each skill the profile's table needs, with the least number of rounds to deal."""
    needed: dict[str, int] = {}
    if profile.blackjack_pays == "6:5":
        needed[Skill.NATURAL_6_5] = 3
        needed[Skill.ROUNDING] = 2
    else:
        needed[Skill.NATURAL_3_2] = 3
    needed[Skill.DEALER_NATURAL] = 2
    if profile.hole_card == "peek":
        needed[Skill.DEALER_PEEK] = 1
    else:
        needed[Skill.ENHC] = 3
    if profile.insurance:
        needed[Skill.INSURANCE] = 2
    if profile.even_money:
        needed[Skill.EVEN_MONEY] = 1
    needed[Skill.PUSH] = 2
    needed[Skill.PLAYER_BUST] = 2
    needed[Skill.DEALER_BUST] = 2
    needed[Skill.SOFT_17] = 2
    needed[Skill.SPLIT] = 2
    needed[Skill.SPLIT_ACES] = 1
    if (profile.max_split_hands or 99) >= 3:
        needed[Skill.RESPLIT] = 1
    needed[Skill.DOUBLE] = 2
    if profile.double_after_split:
        needed[Skill.DOUBLE_AFTER_SPLIT] = 1
    if profile.double_for_less:
        needed[Skill.DOUBLE_FOR_LESS] = 1
    if profile.surrender != "none":
        needed[Skill.SURRENDER] = 2
    if profile.bonus_777 is not None:
        needed[Skill.BONUS_777] = 1
    needed[Skill.SHARED_BOX] = 2
    needed[Skill.CUT_CARD] = 1
    return {str(skill): count for skill, count in needed.items()}
