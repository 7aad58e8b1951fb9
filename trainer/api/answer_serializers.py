"""The answer's body: what an answer may hold (for the schema) and the field that takes it.

Shape only, like every input serializer here: the fields are those the games declare
(``Reading.answer_fields``); which of them a question takes, and whether an amount is right,
is its game's call (trainer.services.attempts), so the pages and the API refuse the same
things.
"""

from dataclasses import replace
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import clip
from trainer.api.serializers import (
    AMOUNT_PATTERN,
    StrictIntegerField,
    StrictSerializer,
)
from trainer.games import game_named, game_names
from trainer.games.reading import AnswerField as GameAnswerField


def _schema_field(field: GameAnswerField) -> serializers.Field[Any, Any, Any, Any]:
    if field.kind == "money":
        return serializers.RegexField(AMOUNT_PATTERN, required=False, help_text=field.help)
    if field.kind == "money_list":
        return serializers.ListField(
            child=serializers.RegexField(AMOUNT_PATTERN),
            required=False,
            max_length=field.most,
            help_text=field.help,
        )
    if field.kind == "word_list":
        return serializers.ListField(
            child=serializers.CharField(allow_blank=True, trim_whitespace=False),
            required=False,
            allow_empty=True,
            max_length=field.most,
            help_text=field.help,
        )
    if field.kind == "boolean":
        return serializers.BooleanField(required=False, help_text=field.help)
    if field.kind == "integer":
        return serializers.IntegerField(
            required=False, min_value=field.minimum, max_value=field.maximum, help_text=field.help
        )
    if field.choices:
        return serializers.ChoiceField(
            choices=list(field.choices), required=False, help_text=field.help
        )
    return serializers.CharField(required=False, help_text=field.help)


def _answer_fields() -> dict[str, GameAnswerField]:
    """Every field an answer may hold, in any game the house runs (by the games' names):
    one field a name, its words joined and its choices widened where two games
    declare the same name."""
    fields: dict[str, GameAnswerField] = {}
    for name in game_names():
        for field in game_named(name).answer_fields:
            known = fields.get(field.name)
            if known is None:
                fields[field.name] = field
            elif known.kind == field.kind and known != field:
                choices = tuple(dict.fromkeys(known.choices + field.choices))
                widened = choices if known.choices and field.choices else ()
                helps = known.help if field.help in known.help else f"{known.help} {field.help}"
                fields[field.name] = replace(known, help=helps, choices=widened)
    return fields


# Read once the games are loaded (the API's modules are imported with the URLs, after the
# apps are ready).
GAME_FIELDS = _answer_fields()

AnswerBodySchema = type(
    "AnswerBodySchema",
    (serializers.Serializer,),
    {
        "__doc__": "What an answer may hold, for the schema; the game checks it against the "
        "question.",
        **{name: _schema_field(field) for name, field in GAME_FIELDS.items()},
    },
)

# Every field an answer may hold, whatever the question; which of them a question takes is
# the game's call (its parse_answer), by the same rule.
ANSWER_FIELDS = tuple(GAME_FIELDS)
MONEY_FIELDS = tuple(name for name, field in GAME_FIELDS.items() if field.kind == "money")
MONEY_LIST_FIELDS = tuple(name for name, field in GAME_FIELDS.items() if field.kind == "money_list")


def closed_answer_schema(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the answer object takes no other field."""
    schemas = result.get("components", {}).get("schemas", {})
    if "AnswerBodySchema" in schemas:
        schemas["AnswerBodySchema"]["additionalProperties"] = False
    return result


@extend_schema_field(AnswerBodySchema)
class AnswerField(serializers.DictField):
    """A JSON object; its contents are checked by the service against the question asked.
    A field no answer takes is refused here, whatever the question (it says nothing of it)."""

    default_error_messages = {
        "not_a_dict": 'must be a JSON object, e.g. {{"action": "pay", "amount": "10"}}'
    }

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        value: dict[Any, Any] = super().to_internal_value(data)
        unknown = [str(key) for key in value if key not in ANSWER_FIELDS]
        if unknown:
            raise serializers.ValidationError(
                {clip(unknown[0]): [f"unknown field; an answer takes {', '.join(ANSWER_FIELDS)}"]},
                code="unknown_field",
            )
        # Shape, like the rest of this serializer: money never arrives as a JSON number
        # (not even a push's 0), whatever the question is.
        for name in MONEY_FIELDS:
            if name in value and not isinstance(value[name], str):
                raise serializers.ValidationError(
                    {name: ['must be a string such as "12.50", not ' + _json_type(value[name])]}
                )
        for name in MONEY_LIST_FIELDS:
            amounts = value.get(name)
            if isinstance(amounts, list):
                for amount in amounts:
                    if not isinstance(amount, str):
                        raise serializers.ValidationError(
                            {
                                name: [
                                    'each chip must be a string such as "2.50", not '
                                    + _json_type(amount)
                                ]
                            }
                        )
        return value


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a JSON number"
    if value is None:
        return "null"
    return "a list" if isinstance(value, list) else "an object"


class AnswerInput(StrictSerializer):
    position = StrictIntegerField(min_value=1, help_text="The round's position in the attempt.")
    question = StrictIntegerField(min_value=1, help_text="The question's `n` within the round.")
    answer = AnswerField()
