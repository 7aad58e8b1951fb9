"""Authoring: validating a staged document, generating rounds for chosen skills, the rule
parameters a table is set with (and how its table card and placard say them), and the
skills the game teaches.

A game's rule profile is its own object (``rule_profile``): the shell stores a profile's
parameters as a dict and hands them back to the game; it reads only the name, stakes and boxes
every table has (``name``, ``min_bet``, ``max_bet``, ``boxes``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol


@dataclass(frozen=True)
class Parameter:
    """One rule a table is set with: its name (the key in a profile's parameters), its
    type ("bool", "int", "amount", "choice", "text"...), its words on a form, and its
    default."""

    name: str
    type: str
    words: str
    default: Any = None


class TableProfile(Protocol):
    """What the shell reads of any game's rule profile: its name, the stakes and the boxes."""

    @property
    def name(self) -> str: ...

    @property
    def min_bet(self) -> Decimal: ...

    @property
    def max_bet(self) -> Decimal: ...

    @property
    def boxes(self) -> int: ...


class Authoring(Protocol):
    @property
    def scenario_format(self) -> str:
        """The format a staged document of this game declares (its ``format`` field)."""
        ...

    @property
    def parameters(self) -> Sequence[Parameter]:
        """The rule parameters a table of this game is set with, in a table card's order."""
        ...

    @property
    def shipped_profiles(self) -> Mapping[str, Mapping[str, Any]]:
        """The rule profiles the game ships, by name: each one's parameters (every one the
        game declares), what a house's recorded version is compared with."""
        ...

    def profile_parameters(self, parameters: Mapping[str, Any], *, name: str) -> dict[str, Any]:
        """A recorded version's parameters as the game plays them (a parameter recorded
        before it existed takes the profile's default), every declared one.
        DocumentError if they do not make a table of this game."""
        ...

    def validate(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """The staged document checked and settled (what is stored); DocumentError naming
        the field and the fault otherwise."""
        ...

    def rule_profile(self, parameters: Mapping[str, Any], *, name: str) -> TableProfile:
        """The game's profile for a recorded version's parameters, under the profile's name.
        DocumentError if the parameters do not make a table of this game."""
        ...

    def table_card(self, parameters: Mapping[str, Any], *, profile: str) -> list[str]:
        """The whole house rule, a line each, in a table card's words."""
        ...

    def placard(self, parameters: Mapping[str, Any]) -> str:
        """The table's placard, one line."""
        ...

    def generate_rounds(
        self,
        *,
        rng: random.Random,
        parameters: Mapping[str, Any],
        profile: str,
        rounds: Sequence[Sequence[str]],
        min_stake: Decimal | None,
        max_stake: Decimal | None,
        max_boxes: int,
        round_prefix: str,
    ) -> list[dict[str, Any]]:
        """A staged document for each entry of ``rounds`` (the skill codes it is dealt
        for), in order; the same ``rng`` state gives the same rounds. DocumentError if a
        round cannot be dealt at this table."""
        ...
