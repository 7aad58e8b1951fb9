"""Authoring blackjack: validating and generating its rounds, its rule parameters (and how
its table card and placard say them) and the skills it teaches."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from trainer import rules
from trainer.games.authoring import Parameter, StagedForm
from trainer.games.blackjack import blueprints, demo, generator, table_card
from trainer.games.blackjack.parameters import PARAMETERS as DECLARED
from trainer.games.errors import DocumentError
from trainer.rules.profiles import PARAMETERS

# How fast a dealer should do the chip work (seconds from the question shown to the
# answer): a pay-in-chips answer is a payout cut from the rack beside the bet; colouring up
# counts a pile and gives it back in fewer chips; a change breaks cash into the house's
# chips. The times a training manager expects of a dealer ready for the floor.
CHIP_TARGET_SECONDS: Mapping[str, Decimal] = MappingProxyType(
    {
        rules.Kind.PAY_IN_CHIPS.value: Decimal(8),
        rules.Kind.COLOUR_UP.value: Decimal(10),
        rules.Kind.CHANGE.value: Decimal(6),
    }
)

_SHIPPED = MappingProxyType(
    {
        name: MappingProxyType(
            {
                key: value
                for key, value in rules.profile_to_dict(profile).items()
                if key in PARAMETERS
            }
        )
        for name, profile in rules.PROFILES.items()
    }
)


class BlackjackAuthoring:
    scenario_format = rules.SCENARIO_FORMAT
    # The workspace's form of seats, stakes, the host's actions and the shoe.
    staged_editor: str | None = "seats-and-shoe"
    staged_form: StagedForm | None = None
    parameters: Sequence[Parameter] = DECLARED

    def parameters_checked(self, parameters: Mapping[str, Any]) -> None:
        for key, check in PARAMETERS.items():
            if key not in parameters:
                continue
            try:
                check(parameters[key], key)
            except rules.ScenarioError as err:
                raise DocumentError(err.message, field=key, reason=err.reason) from err

    def profile_judged(
        self, parameters: Mapping[str, Any], *, name: str, path: str = "parameters"
    ) -> dict[str, Any]:
        try:
            profile = rules.profile_from_dict({**parameters, "name": name}, path=path)
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err
        return rules.profile_to_dict(profile)

    @property
    def shipped_profiles(self) -> Mapping[str, Mapping[str, Any]]:
        return _SHIPPED

    def profile_parameters(self, parameters: Mapping[str, Any], *, name: str) -> dict[str, Any]:
        played = self.profile_judged(parameters, name=name, path="")
        return {key: played[key] for key in PARAMETERS}

    def validate(self, document: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return rules.settle(document)
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err

    def rule_profile(self, parameters: Mapping[str, Any], *, name: str) -> rules.Profile:
        try:
            return rules.profile_from_dict({**parameters, "name": name})
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err

    def table_card(self, parameters: Mapping[str, Any], *, profile: str) -> list[str]:
        return table_card.house_rules(parameters, profile=profile)

    def placard(self, parameters: Mapping[str, Any]) -> str:
        return table_card.placard(parameters)

    def table_test_skills(self, parameters: Mapping[str, Any], *, profile: str) -> dict[str, int]:
        return blueprints.table_test_skills(self.rule_profile(parameters, name=profile))

    def target_seconds(self, kind: str) -> Decimal | None:
        return CHIP_TARGET_SECONDS.get(kind)

    def demo_answer(
        self, question: Mapping[str, Any], *, rng: random.Random, right: bool
    ) -> dict[str, Any]:
        return demo.given(question) if right else demo.slip(question, rng)

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
        try:
            return generator.generate_rounds(
                rng=rng,
                profile=self.rule_profile(parameters, name=profile),
                rounds=rounds,
                min_stake=min_stake,
                max_stake=max_stake,
                max_boxes=max_boxes,
                round_prefix=round_prefix,
            )
        except rules.ScenarioError as err:
            raise DocumentError(err.message, field=err.field, reason=err.reason) from err
