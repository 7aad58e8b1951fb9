"""The shapes of the drill and scenario endpoints (pit bosses and administrators)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from trainer.api.serializers import (
    StrictIntegerField,
    StrictSerializer,
    choice_message,
    money_field,
    score_field,
)
from trainer.labels import skill_choices
from trainer.models import DrillKind, DrillPurpose


def _choice(choices: Any, **kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=choices, error_messages={"invalid_choice": choice_message(choices)}, **kwargs
    )


_AMOUNT_HELP = 'A decimal string, e.g. "25.00" (never a JSON number).'


class DrillCreateInput(StrictSerializer):
    title = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    kind = _choice(DrillKind.choices, help_text="fixed: library scenarios; generated: a recipe.")
    purpose = _choice(DrillPurpose.choices, required=False, default=DrillPurpose.PRACTICE)
    scenarios = serializers.ListField(
        child=StrictIntegerField(min_value=1),
        required=False,
        default=list,
        help_text="Fixed drills: the scenarios' ids in the order they are dealt.",
    )
    profile = serializers.SlugField(
        required=False, help_text="Generated drills: the rule profile's name (its current version)."
    )
    skills = serializers.ListField(
        child=serializers.CharField(), required=False, default=list, help_text="Generated drills."
    )
    count = StrictIntegerField(
        min_value=1, required=False, help_text="Rounds (an exam's sitting size from its pool)."
    )
    min_stake = serializers.CharField(required=False, help_text=_AMOUNT_HELP)
    max_stake = serializers.CharField(required=False, help_text=_AMOUNT_HELP)
    max_boxes = StrictIntegerField(
        min_value=1,
        required=False,
        help_text="Most boxes a round plays; unsaid, as many as the table has, at most 3.",
    )
    time_limit_seconds = StrictIntegerField(min_value=1, required=False, default=60)
    time_box_seconds = StrictIntegerField(min_value=1, required=False, default=300)
    pass_mark = serializers.CharField(required=False, default="95.00", help_text=_AMOUNT_HELP)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # Every loaded game's skills, read when the games are loaded; drill_create checks
        # them against the table's game.
        fields["skills"] = serializers.ListField(
            child=_choice(skill_choices()),
            required=False,
            default=list,
            help_text="Generated drills: skills of the table's game.",
        )
        return fields


class RetireInput(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class DrillScenarioOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="scenario.id")
    title = serializers.CharField(source="scenario.title")
    position = serializers.IntegerField()


class DrillManagerOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()
    kind = serializers.CharField()
    purpose = serializers.CharField()
    profile = serializers.CharField(
        source="profile_version.profile.name", allow_null=True, default=None
    )
    profile_version = serializers.IntegerField(
        source="profile_version.version", allow_null=True, default=None
    )
    certifies = serializers.CharField(source="certifies.name", allow_null=True, default=None)
    owner = serializers.CharField(
        source="owner.username",
        allow_null=True,
        default=None,
        help_text="Who may retire it besides an administrator: its author's username; null "
        "for a table test (the department's) or a drill whose author is not recorded.",
    )
    skills = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()
    min_stake = money_field(allow_null=True)
    max_stake = money_field(allow_null=True)
    max_boxes = serializers.IntegerField()
    time_limit_seconds = serializers.IntegerField()
    time_box_seconds = serializers.IntegerField()
    pass_mark = score_field()
    is_active = serializers.BooleanField()
    assignments = serializers.IntegerField(source="assignment_count")
    scenarios = DrillScenarioOutput(many=True, source="drill_scenarios.all")


class ScenarioInput(StrictSerializer):
    document = serializers.DictField(
        help_text="A staged round in its game's format (its `format`: blackjack-scenario/1, "
        "docs/scenario-format.md, or another game's); its `rules` names a profile. Without "
        "an `id`, a new scenario is named from its title."
    )
    difficulty = StrictIntegerField(min_value=1, max_value=5, required=False, default=2)


class ScenarioReviseInput(StrictSerializer):
    document = serializers.DictField(help_text="The corrected document; its `id` is kept.")
    difficulty = StrictIntegerField(min_value=1, max_value=5, required=False)


class ScenarioOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    title = serializers.CharField()
    profile = serializers.CharField(source="profile_version.profile.name")
    profile_version = serializers.IntegerField(source="profile_version.version")
    skills = serializers.ListField(child=serializers.CharField())
    difficulty = serializers.IntegerField()
    revision = serializers.IntegerField()
    supersedes = serializers.IntegerField(source="supersedes_id", allow_null=True)
    is_active = serializers.BooleanField()
    document = serializers.DictField()
