"""Penalties and misdeals, ruled, not played: a described situation gives a ruling.

Situations (``kind`` and its facts):

- ``faulty_build``: a build made without a card to take it (``offender``).
- ``trail_owning_build``: a trail while owning a build on the table (``offender``).
- ``last_not_announced``: the dealer did not announce "Last"; ``trick_played`` is true when
  a trick was played from the last eight cards (the offender is the dealer).
- ``looked_at_taken``: a player (``offender``) looked through taken cards;
  ``last_trick_only`` and ``opponent_played`` (since that trick) say whether it was allowed.
- ``card_exposed``: a card turned up in the deal; ``belongs_to`` is ``"opponent"`` or
  ``"self"`` (of the player who turned it up, ``offender``); ``within_first_12``.
- ``face_up_in_pack``: ``count`` cards found face up in the pack, dealt to ``receiver``.
- ``wrong_number``: a player (``offender``) has too few or too many cards;
  ``before_first_trick`` is true when found before the first trick is completed.

Rulings (``code``): ``loss_of_game`` (the offender loses, the opponent is credited 11),
``misdeal`` (the deal is void, the same dealer deals again), ``hand_redealt`` (the hands
already dealt stand; the current hand goes back into the stock, shuffled, and is dealt
again), ``play_stands`` (no new deal, no shuffle), ``look_at_opponent`` (play stands; the
receiver looks at ``count`` of the opponent's cards and returns them), ``no_penalty``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .table import Player, other

PENALTY_POINTS = 11
SITUATIONS: Mapping[str, tuple[str, ...]] = {
    "faulty_build": ("offender",),
    "trail_owning_build": ("offender",),
    "last_not_announced": ("trick_played",),
    "looked_at_taken": ("offender", "last_trick_only", "opponent_played"),
    "card_exposed": ("offender", "belongs_to", "within_first_12"),
    "face_up_in_pack": ("receiver", "count"),
    "wrong_number": ("offender", "before_first_trick"),
}
RULINGS = (
    "loss_of_game",
    "misdeal",
    "hand_redealt",
    "play_stands",
    "look_at_opponent",
    "no_penalty",
)


class SituationError(ValueError):
    """A described situation the rulings do not know; `field` names the fact."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Ruling:
    code: str
    offender: Player | None = None
    credited: Player | None = None
    points: int = 0
    count: int | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"ruling": self.code}
        if self.code == "loss_of_game":
            out |= {"offender": self.offender, "credited": self.credited, "points": self.points}
        if self.code == "look_at_opponent":
            out |= {"receiver": self.offender, "count": self.count}
        return out


def _penalty(offender: Player) -> Ruling:
    return Ruling("loss_of_game", offender, other(offender), PENALTY_POINTS)


def rule_on(situation: Mapping[str, object]) -> Ruling:
    """The ruling for a described situation (see the module's list); SituationError if the
    situation is not one of them or lacks a fact."""
    facts = _facts(situation)
    kind = facts["kind"]
    who: Player = facts.get("offender", "dealer")  # type: ignore[assignment]
    if kind in ("faulty_build", "trail_owning_build"):
        return _penalty(who)
    if kind == "last_not_announced":
        return _penalty("dealer") if facts["trick_played"] else Ruling("no_penalty")
    if kind == "looked_at_taken":
        allowed = facts["last_trick_only"] and not facts["opponent_played"]
        return Ruling("no_penalty") if allowed else _penalty(who)
    if kind == "card_exposed":
        if facts["belongs_to"] == "self":
            return Ruling("play_stands")
        return Ruling("misdeal") if facts["within_first_12"] else Ruling("hand_redealt")
    if kind == "face_up_in_pack":
        count = facts["count"]
        receiver: Player = facts["receiver"]  # type: ignore[assignment]
        return Ruling("look_at_opponent", receiver, count=count if isinstance(count, int) else 0)
    return Ruling("misdeal") if facts["before_first_trick"] else _penalty(who)


def _facts(situation: Mapping[str, object]) -> dict[str, object]:
    kind = situation.get("kind")
    if not isinstance(kind, str) or kind not in SITUATIONS:
        raise SituationError("kind", "kind is one of: " + ", ".join(SITUATIONS))
    needed = SITUATIONS[kind]
    for name in situation:
        if name != "kind" and name not in needed:
            raise SituationError(str(name)[:30], f"not a fact of {kind} ({', '.join(needed)})")
    for name in needed:
        if name not in situation:
            raise SituationError(name, f"{kind} needs {name}")
        value = situation[name]
        if name in ("offender", "receiver"):
            if value not in ("dealer", "non_dealer"):
                raise SituationError(name, f"{name} is dealer or non_dealer")
        elif name == "belongs_to":
            if value not in ("opponent", "self"):
                raise SituationError(name, "belongs_to is opponent or self")
        elif name == "count":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 52:
                raise SituationError(name, "count is a number of cards, 1 to 52")
        elif not isinstance(value, bool):
            raise SituationError(name, f"{name} is true or false")
    return dict(situation)
