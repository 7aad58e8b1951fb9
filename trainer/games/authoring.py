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

from trainer.games.errors import DocumentError


@dataclass(frozen=True)
class Parameter:
    """One rule a table of a game is set with, as the game declares it: its name (``key``,
    the key in a profile's parameters), its words on the house-rules form and table cards
    (``label``, ``help``), its type (``kind``: choice | int | amount | chips) with, for a
    choice, the words of each value (stored value -> words), the limits of a whole number,
    whether it may be left empty and the words of an empty value; the default it takes in
    the game's base table; and, when a single authored round may change it, how the round
    editor asks for it (``round_words``) and the words a person writes for a value
    (``written``: word -> stored value, such as "none" for no hole card); the form's
    ``group`` and, for a yes/no rule, the two ``tokens`` its form posts."""

    key: str
    label: str
    help: str = ""
    # value (as stored) -> words; empty for a number, an amount or the chips.
    choices: tuple[tuple[Any, str], ...] = ()
    kind: str = "choice"  # choice | int | amount | chips
    low: int | None = None
    high: int | None = None
    optional: bool = False  # an int or amount that may be left empty (no limit, none)
    empty: str = ""  # the words of an empty value
    default: Any = None
    round_words: str = ""
    written: tuple[tuple[str, Any], ...] = ()
    # Where the house-rules form puts it (a legend, as a pit manager reads a table card), and
    # the tokens a yes/no rule posts (soft 17 says which way the dealer goes).
    group: str = "Rules"
    tokens: tuple[str, str] = ("yes", "no")
    # A value refused because of another rule (the smallest bet above the largest): the
    # words after the label, with {} for that rule's value in words, and that rule's key.
    refused: str = ""
    beside: str = ""


@dataclass(frozen=True)
class StagedField:
    """One field of a game's own staging form (``StagedForm``), as the workspace draws it: its
    name (what the form posts), its words (``label``, ``help``), its ``kind`` (text | cards:
    cards typed or picked, "10♦ A♠" | choice | choices: several ticked | number), the
    choices (value -> words), the group it is drawn in (a fieldset's legend) and, for the
    fields one choice decides, which value of which field shows it (``shown_by``: field,
    values; the page hides the rest, and the game ignores them); fields sharing a ``row`` are
    drawn side by side where the page is wide enough."""

    name: str
    label: str
    help: str = ""
    kind: str = "text"  # text | cards | choice | choices | number
    choices: tuple[tuple[str, str], ...] = ()
    group: str = ""
    shown_by: tuple[str, tuple[str, ...]] | None = None
    # Fields of one group drawn side by side share a row (a build's cards, value, kind, owner).
    row: str = ""


class StagedForm(Protocol):
    """A game's own staging form, in its dealers' words: the workspace draws the fields (with
    the title, table, skills and difficulty every round has), and the game turns what was
    posted into its document and back. Plain Python: the workspace makes the Django form."""

    @property
    def fields(self) -> Sequence[StagedField]: ...

    def values(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """A stored document's fields, as the form shows them (a revision opens filled in):
        a text or cards field as its text, a choice as its value, choices as a list."""
        ...

    def document(
        self, values: Mapping[str, Any], *, title: str, skills: Sequence[str], profile: str
    ) -> dict[str, Any]:
        """The document the posted fields stage (no ``id``: the service gives it), under the
        table ``profile``; DocumentError whose ``field`` is the form field at fault, its
        message in the dealers' words."""
        ...

    def refusal(self, error: DocumentError, values: Mapping[str, Any]) -> tuple[str | None, str]:
        """The game's refusal of the document the fields made (``validate``'s error at a
        path) as the form field it concerns (None: the whole form) and plain words."""
        ...


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
    def staged_editor(self) -> str | None:
        """The form the instructor's workspace stages a round of this game in, by the name
        the workspace knows it under (``"seats-and-shoe"``: seats, stakes, the host's actions
        and a shoe of cards; ``"game-fields"``: the fields of the game's own ``staged_form``),
        or None: the round is staged as a document of the game's
        format (pasted or uploaded), judged by ``validate``."""
        ...

    @property
    def staged_form(self) -> StagedForm | None:
        """The game's own staging form, for ``staged_editor = "game-fields"`` (the workspace
        draws the fields it declares); None for a game staged otherwise."""
        ...

    @property
    def parameters(self) -> Sequence[Parameter]:
        """The rule parameters a table of this game is set with, in a table card's order."""
        ...

    def parameters_checked(self, parameters: Mapping[str, Any]) -> None:
        """Each parameter's value on its own, in the game's order: DocumentError whose
        ``field`` is the first refused parameter's key."""
        ...

    def profile_judged(
        self, parameters: Mapping[str, Any], *, name: str, path: str = "parameters"
    ) -> dict[str, Any]:
        """The parameters of a table called ``name`` as the game records them (every one it
        declares, and ``source`` and ``assumed``, what the house's own text said and what
        the game assumed), or DocumentError naming the field at fault (under ``path``)."""
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

    def table_test_skills(self, parameters: Mapping[str, Any], *, profile: str) -> dict[str, int]:
        """Each skill a table with these rules needs in its table test (a certification
        exam), with the least number of rounds of it to deal."""
        ...

    def target_seconds(self, kind: str) -> Decimal | None:
        """How fast a dealer ready for the floor answers a question of this kind (a target
        the table and the pit show, not a limit); None for a kind with no target."""
        ...

    def demo_answer(
        self, question: Mapping[str, Any], *, rng: random.Random, right: bool
    ) -> dict[str, Any]:
        """A demo trainee's answer to an answer-key question (the demo data): the expected
        answer as a dealer gives it when ``right``, else a plausible mistake."""
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
