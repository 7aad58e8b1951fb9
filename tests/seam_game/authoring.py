"""Dealer draws' rounds as authored and generated, its rule parameters (the total the dealer
stands on, the stakes, one box) and its one shipped table, in its own words."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from tests.seam_game.marking import PAT, SKILLS, STIFF
from trainer.games import DocumentError
from trainer.games.authoring import Parameter, StagedForm

FORMAT = "dealer-draws/1"
TABLE = "dealer-draws-table"
PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "stands_on",
        "The dealer stands on",
        help="The lowest total the dealer stands on; below it the dealer draws.",
        kind="int",
        low=12,
        high=21,
        default=17,
        round_words="Dealer stands on (a total from 12 to 21)",
    ),
    Parameter("min_bet", "Smallest bet", kind="amount", default="1"),
    Parameter("max_bet", "Largest bet", kind="amount", default="100"),
    Parameter("boxes", "Boxes on the layout", kind="int", low=1, high=1, default=1),
)
SHIPPED: Mapping[str, Mapping[str, Any]] = {TABLE: {p.key: p.default for p in PARAMETERS}}


@dataclass(frozen=True)
class DrawsTable:
    name: str
    stands_on: int
    min_bet: Decimal
    max_bet: Decimal
    boxes: int


def _whole(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DocumentError(
            f"{key} must be a whole number from {low} to {high}", field=key, reason="bad_total"
        )
    return value


def _amount(value: object, key: str) -> Decimal:
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        amount = Decimal(0)
    if not amount.is_finite() or amount <= 0:
        raise DocumentError(f"{key} must be an amount above 0", field=key, reason="bad_stake")
    return amount


class DealerDrawsAuthoring:
    scenario_format = FORMAT
    # No form of its own: the workspace stages its rounds as documents.
    staged_editor: str | None = None
    staged_form: StagedForm | None = None
    parameters: Sequence[Parameter] = PARAMETERS
    shipped_profiles = SHIPPED

    def parameters_checked(self, parameters: Mapping[str, Any]) -> None:
        for p in PARAMETERS:
            if p.key not in parameters:
                continue
            if p.kind == "int":
                _whole(parameters[p.key], p.key, p.low or 0, p.high or 0)
            else:
                _amount(parameters[p.key], p.key)

    def profile_judged(
        self, parameters: Mapping[str, Any], *, name: str, path: str = "parameters"
    ) -> dict[str, Any]:
        data = {p.key: parameters.get(p.key, p.default) for p in PARAMETERS}
        try:
            self.parameters_checked(data)
        except DocumentError as err:
            field = f"{path}.{err.field}" if path else err.field
            raise DocumentError(err.message, field=str(field), reason=err.reason) from err
        if _amount(data["min_bet"], "min_bet") > _amount(data["max_bet"], "max_bet"):
            field = f"{path}.min_bet" if path else "min_bet"
            raise DocumentError("min_bet is above max_bet", field=field, reason="bad_stake")
        source = parameters.get("source")
        assumed = parameters.get("assumed")
        return {
            "name": name,
            "source": source if isinstance(source, str) else "",
            "assumed": list(assumed) if isinstance(assumed, list | tuple) else [],
            **data,
        }

    def profile_parameters(self, parameters: Mapping[str, Any], *, name: str) -> dict[str, Any]:
        judged = self.profile_judged(parameters, name=name, path="")
        return {p.key: judged[p.key] for p in PARAMETERS}

    def rule_profile(self, parameters: Mapping[str, Any], *, name: str) -> DrawsTable:
        data = self.profile_judged(parameters, name=name)
        return DrawsTable(
            name=name,
            stands_on=data["stands_on"],
            min_bet=Decimal(str(data["min_bet"])),
            max_bet=Decimal(str(data["max_bet"])),
            boxes=data["boxes"],
        )

    def table_card(self, parameters: Mapping[str, Any], *, profile: str) -> list[str]:
        table = self.rule_profile(parameters, name=profile)
        return [
            f"The dealer draws to {table.stands_on - 1} and stands on {table.stands_on}",
            f"Bets {table.min_bet} to {table.max_bet}, one box",
        ]

    def placard(self, parameters: Mapping[str, Any]) -> str:
        table = self.rule_profile(parameters, name=TABLE)
        return f"Dealer draws · Stands on {table.stands_on} · One box"

    def validate(self, document: Mapping[str, Any]) -> dict[str, Any]:
        if document.get("format") != FORMAT:
            raise DocumentError(
                f"a dealer-draws round says format {FORMAT}", field="format", reason="bad_format"
            )
        if document.get("rules") not in SHIPPED:
            raise DocumentError(
                f"rules must name the table {TABLE}", field="rules", reason="unknown_table"
            )
        total = _whole(document.get("total"), "total", 2, 26)
        stands_on = _whole(document.get("stands_on", 17), "stands_on", 12, 21)
        return {"total": total, "call": "hit" if total < stands_on else "stand"}

    def table_test_skills(self, parameters: Mapping[str, Any], *, profile: str) -> dict[str, int]:
        return {STIFF: 2, PAT: 2}

    def target_seconds(self, kind: str) -> Decimal | None:
        return None

    def demo_answer(
        self, question: Mapping[str, Any], *, rng: random.Random, right: bool
    ) -> dict[str, Any]:
        word = question["expected"]["answer"]
        return {"answer": word if right else ("stand" if word == "hit" else "hit")}

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
        stands_on = self.rule_profile(parameters, name=profile).stands_on
        out = []
        for n, skills in enumerate(rounds, start=1):
            skill = rng.choice(list(skills) or sorted(SKILLS))
            if skill not in SKILLS:
                raise DocumentError(
                    f"dealer draws deals no skill {skill!r}", field="skills", reason="bad_skill"
                )
            low, high = (2, stands_on - 1) if skill == STIFF else (stands_on, 21)
            assert skill in (STIFF, PAT)
            out.append(
                {
                    "format": FORMAT,
                    "id": f"{round_prefix}-round-{n}",
                    "rules": profile,
                    "stands_on": stands_on,
                    "total": rng.randint(low, high),
                }
            )
        return out
