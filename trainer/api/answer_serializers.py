"""The answer's body: what an answer may hold (for the schema) and the field that takes it.

Shape only, like every input serializer here: which fields a question takes, and whether
an amount is money, is the service's call (trainer.services.attempts), so the pages and
the API refuse the same things.
"""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import clip
from trainer import rules
from trainer.api.serializers import (
    AMOUNT_PATTERN,
    StrictIntegerField,
    StrictSerializer,
)


class AnswerBodySchema(serializers.Serializer[Any]):
    """What an answer may hold, for the schema; the service checks it against the question."""

    action = serializers.ChoiceField(
        choices=[action.value for action in rules.MoneyAction],
        required=False,
        help_text=f"Money questions ({', '.join(k for k in rules.Kind if k.moves_money)}).",
    )
    amount = serializers.RegexField(
        AMOUNT_PATTERN,
        required=False,
        help_text='Money questions: a string of the digits 0-9 with at most cents, e.g. "12.50"; '
        "never a JSON number. Leave it out for a push.",
    )
    answer = serializers.CharField(
        required=False,
        help_text="Procedure questions: one of the question's `answers` "
        f"({', '.join(rules.ProcedureAnswer)}).",
    )
    dealer_blackjack = serializers.BooleanField(
        required=False, help_text="Peek questions answered `peek`: does the dealer hold a natural?"
    )
    total = serializers.IntegerField(
        required=False,
        min_value=2,
        max_value=31,
        help_text="dealer_play, optional: the dealer's total as you count it; graded when given.",
    )
    soft = serializers.BooleanField(
        required=False, help_text="dealer_play, optional: whether that total is soft."
    )
    chips = serializers.ListField(
        child=serializers.RegexField(AMOUNT_PATTERN),
        required=False,
        max_length=200,
        help_text="Chip questions (pay_in_chips with action `pay`, colour_up, change): the "
        'chips handed over, one string per chip from the question\'s `rack`, e.g. ["25", "5", '
        '"5", "2.50"] (any order); never JSON numbers. Their sum is the amount paid.',
    )


# Every field an answer may hold, whatever the question; which of them a question takes is
# the service's call (trainer.games.blackjack.answer_fields), by the same rule.
ANSWER_FIELDS = tuple(AnswerBodySchema().fields)


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
        if "amount" in value and not isinstance(value["amount"], str):
            raise serializers.ValidationError(
                {"amount": ['must be a string such as "12.50", not ' + _json_type(value["amount"])]}
            )
        chips = value.get("chips")
        if isinstance(chips, list):
            for chip in chips:
                if not isinstance(chip, str):
                    raise serializers.ValidationError(
                        {
                            "chips": [
                                'each chip must be a string such as "2.50", not ' + _json_type(chip)
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
