"""Signature authority: the ranks of the people who sign, the forms they sign, and the
jurisdiction whose rule says which rank signs which form.

A jurisdiction's settings are data, one JSON file each in ``audit/jurisdictions/``
(retention, how long a certification lasts, the rank that signs a table test and an
evaluation sheet, the topics its table tests must cover); the installation chooses one
with ``SHOESCHOOL_JURISDICTION`` (default ``house``: Shoe School's own standard).

Plain Python over the settings: no queries. The services refuse a signer by
``authority_refusal`` before they sign; the signature card and the self-check read the same.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

from django.conf import settings

JURISDICTIONS = Path(__file__).resolve().parent / "jurisdictions"
DEFAULT_JURISDICTION = "house"
# What a licence or employee number may hold: letters, digits, spaces, - / .
LICENCE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ./-]{0,39}$")


class Rank(StrEnum):
    """A signer's rank on the casino floor, lowest first (the stored value)."""

    DEALER = "dealer"
    PIT_BOSS = "pit_boss"
    PIT_MANAGER = "pit_manager"
    SHIFT_MANAGER = "shift_manager"
    ADMINISTRATOR = "administrator"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()

    @property
    def words(self) -> str:
        """The rank in a sentence: "a pit manager", "an administrator"."""
        noun = self.label.lower()
        return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"

    @property
    def level(self) -> int:
        return list(Rank).index(self)

    def at_least(self, other: Rank) -> bool:
        return self.level >= other.level


def rank_label(value: str | None) -> str:
    """A stored rank as people read it ("" for none, or one no longer known)."""
    try:
        return Rank(value).label if value else ""
    except ValueError:
        return ""


def signature_text(full_name: str, rank: str | None, licence: str | None) -> str:
    """A signature as a record states it: "Pat Boss, Pit manager, licence PM-10417"."""
    parts = [full_name, rank_label(rank)]
    if licence:
        parts.append(f"licence {licence}")
    return ", ".join(part for part in parts if part)


def rank_choices() -> list[tuple[str, str]]:
    return [(rank.value, rank.label) for rank in Rank]


class SignedForm(StrEnum):
    """The forms a signature card lists."""

    PRACTICAL_SHEET = "practical_sheet"
    CERTIFICATION = "certification"
    WITHDRAWAL = "withdrawal"

    @property
    def label(self) -> str:
        return {
            SignedForm.PRACTICAL_SHEET: "practical evaluation sheet",
            SignedForm.CERTIFICATION: "certification",
            SignedForm.WITHDRAWAL: "withdrawal of a certification",
        }[self]


@dataclass(frozen=True)
class Topic:
    """A topic a jurisdiction's table tests must cover: its words, its game, and the game's
    skill codes any one of which covers it."""

    words: str
    game: str
    skills: tuple[str, ...]


@dataclass(frozen=True)
class Jurisdiction:
    """One jurisdiction's settings, read from its data file."""

    key: str
    name: str
    citations: tuple[str, ...]
    retention_years: int
    retention_basis: str
    validity_months: int
    validity_basis: str
    table_test_rank: Rank
    practical_sheet_rank: Rank
    rank_basis: str
    practical_required: bool
    signature: str
    records: str
    topics: tuple[Topic, ...]

    def rank_for(self, form: SignedForm) -> Rank:
        """The lowest rank that signs ``form`` here (a withdrawal: as a certification)."""
        if form is SignedForm.PRACTICAL_SHEET:
            return self.practical_sheet_rank
        return self.table_test_rank

    @property
    def cited(self) -> str:
        return ", ".join(self.citations)


def jurisdiction_keys() -> list[str]:
    return sorted(path.stem for path in JURISDICTIONS.glob("*.json"))


@cache
def jurisdiction_load(key: str) -> Jurisdiction:
    """The jurisdiction of that key, from its data file; a ValueError names what is wrong."""
    if key not in jurisdiction_keys():
        raise ValueError(
            f"no jurisdiction {key!r}: the choices are {', '.join(jurisdiction_keys())}"
        )
    data = json.loads((JURISDICTIONS / f"{key}.json").read_text(encoding="utf-8"))
    try:
        return Jurisdiction(
            key=data["key"],
            name=data["name"],
            citations=tuple(data["citations"]),
            retention_years=int(data["retention_years"]),
            retention_basis=data["retention_basis"],
            validity_months=int(data["validity_months"]),
            validity_basis=data["validity_basis"],
            table_test_rank=Rank(data["table_test_rank"]),
            practical_sheet_rank=Rank(data["practical_sheet_rank"]),
            rank_basis=data["rank_basis"],
            practical_required=bool(data["practical_required"]),
            signature=data["signature"],
            records=data["records"],
            topics=tuple(
                Topic(words=t["words"], game=t["game"], skills=tuple(t["skills"]))
                for t in data["required_topics"]
            ),
        )
    except (KeyError, ValueError, TypeError) as error:
        raise ValueError(f"jurisdiction {key!r}: its data file is not valid: {error}") from error


def jurisdiction_in_force() -> Jurisdiction:
    """The jurisdiction this installation follows (SHOESCHOOL_JURISDICTION)."""
    return jurisdiction_load(getattr(settings, "SHOESCHOOL_JURISDICTION", DEFAULT_JURISDICTION))


@dataclass(frozen=True)
class Authority:
    """What a person signs with: their rank and licence or employee number (None: no
    authority recorded)."""

    rank: Rank | None
    licence_number: str


def authority_refusal(
    *, form: SignedForm, authority: Authority, jurisdiction: Jurisdiction
) -> str | None:
    """Why this person may not sign ``form`` (None: they may), in the signer's words."""
    needed = jurisdiction.rank_for(form)
    needs = f"a {form.label} needs {needed.words} or higher"
    if authority.rank is None:
        return (
            f"{needs}; you have no rank on file: ask an administrator to record your rank "
            "and licence number"
        )
    if not authority.rank.at_least(needed):
        return f"{needs}; you are {authority.rank.words}"
    if not authority.licence_number:
        return (
            f"a signature states your licence or employee number, and none is on file for "
            f"you: ask an administrator to record it (a {form.label} needs one)"
        )
    return None


@dataclass(frozen=True)
class CardLine:
    """One form on a signature card: whether the person may sign it, and the rank it needs."""

    form: SignedForm
    may_sign: bool
    needs: Rank


def card_lines(*, authority: Authority, jurisdiction: Jurisdiction) -> list[CardLine]:
    return [
        CardLine(
            form=form,
            may_sign=authority_refusal(form=form, authority=authority, jurisdiction=jurisdiction)
            is None,
            needs=jurisdiction.rank_for(form),
        )
        for form in SignedForm
    ]


def card_name(first_name: str, last_name: str) -> str:
    """A signature card's name: first initial and last name ("T. Boss")."""
    first = first_name.strip()
    return f"{first[0]}. {last_name.strip()}" if first else last_name.strip()
