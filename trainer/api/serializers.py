"""The API's request and response bodies.

Input serializers check shape only (an integer is an integer, the answer is an object):
whether an answer fits its question, and whether an amount is money, is the service's
call (trainer.services.attempts), so the pages and the API refuse the same things.
Amounts go out as strings with two decimals. The answer's body is in answer_serializers,
the table a question shows in table_serializers, the graded results in results_serializers.
"""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import clip
from trainer.api.table_serializers import QuestionViewField
from trainer.models import ASSIGNED_MODE_CHOICES
from trainer.selectors.sittings import sitting_state_of

# What an amount looks like (the schema's pattern): ASCII digits, at most two decimals.
# The service (trainer.services.attempts) is the authority and says what is wrong.
AMOUNT_PATTERN = r"^[0-9]{1,9}(\.[0-9]{1,2})?$"


def money_field(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=14, decimal_places=2, coerce_to_string=True, **kwargs
    )


def score_field(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=5, decimal_places=2, coerce_to_string=True, **kwargs)


class StrictSerializer(serializers.Serializer[Any]):
    """Refuses keys it does not know, so a misspelt field is an error rather than ignored."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                known = ", ".join(self.fields)
                # The name is the client's: named, but never repeated at any length.
                raise serializers.ValidationError(
                    {clip(unknown[0]): [f"unknown field; expected {known}"]},
                    code="unknown_field",
                )
        return super().to_internal_value(data)


def validated(serializer: serializers.Serializer[Any], data: Any) -> Any:
    """``data`` validated by a serializer built once and shared (it keeps no state between
    calls this way): what ``is_valid(raise_exception=True)`` then ``validated_data`` give,
    with the same errors, without building the serializer's fields again."""
    try:
        return serializer.run_validation(data)
    except serializers.ValidationError as exc:
        raise serializers.ValidationError(exc.detail) from None


def choice_message(choices: Any) -> str:
    """The error for a value outside ``choices`` (Django's (value, label) pairs): it lists
    the choices instead of repeating the input, whatever its length."""
    return "must be one of " + ", ".join(str(value) for value, _ in choices)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: "3", 3.0 and true are refused instead of being read as 3 or 1."""

    default_error_messages = {"not_an_integer": "must be a JSON integer"}

    def __init__(self, **kwargs: Any) -> None:
        # Every id and number here is a database integer column; larger is never valid.
        kwargs.setdefault("max_value", 2**31 - 1)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_an_integer")
        value: int = super().to_internal_value(data)
        return value


# Error body (documentation only: trainer.api.exceptions writes it).


class ErrorOutput(serializers.Serializer[Any]):
    error = serializers.CharField(help_text="What is wrong, in words; names the field.")
    field = serializers.CharField(
        allow_null=True, help_text="The input at fault (dotted for nested input), or null."
    )
    code = serializers.CharField(help_text="A stable machine-readable code, e.g. not_found.")


# Inputs.


class AttemptStartInput(StrictSerializer):
    drill = StrictIntegerField(min_value=1, help_text="The drill's id.")
    mode = serializers.ChoiceField(
        choices=ASSIGNED_MODE_CHOICES,
        error_messages={"invalid_choice": choice_message(ASSIGNED_MODE_CHOICES)},
    )
    assignment = StrictIntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="The assignment this attempt answers (yours). Exam and speed need one.",
    )


# Outputs.


class DrillOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()
    kind = serializers.CharField()
    time_limit_seconds = serializers.IntegerField()
    time_box_seconds = serializers.IntegerField()
    pass_mark = score_field(help_text="Percent of questions right needed to pass.")


class DrillBriefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()


class AttemptBriefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    mode = serializers.CharField()
    status = serializers.CharField()
    grading_status = serializers.CharField()
    started_at = serializers.DateTimeField()
    score = score_field(allow_null=True)
    passed = serializers.BooleanField(allow_null=True)


class SittingsOutput(serializers.Serializer[Any]):
    """Where you stand with the assignment's sittings, as My training and the briefing say."""

    used = serializers.IntegerField(source="taken", help_text="Sittings used (every attempt).")
    allowed = serializers.IntegerField(
        allow_null=True, help_text="At most this many; null: no limit."
    )
    left = serializers.IntegerField(allow_null=True, help_text="Sittings left; null: no limit.")
    cooldown_hours = serializers.IntegerField(
        help_text="Hours between a sitting's end and the next."
    )
    next_at = serializers.DateTimeField(
        source="next_open",
        allow_null=True,
        help_text="While the cool-down runs: when the next sitting may start; else null.",
    )
    refused = serializers.CharField(
        allow_null=True,
        help_text="What stops a start now (past_due, no_sittings_left, cooling_down), "
        "with the words POST /api/attempts/ would answer in `message`; null: a start is open.",
    )
    message = serializers.CharField(allow_null=True)


class _Sittings(serializers.Field):
    """The assignment's sittings, from the caller's attempts already read (no query)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, assignment: Any) -> dict[str, Any]:
        state = sitting_state_of(assignment, getattr(assignment, "my_attempts", []))
        code, message = state.refusal or (None, None)
        facts = {
            "taken": state.taken,
            "allowed": state.allowed,
            "left": state.left,
            "cooldown_hours": state.cooldown_hours,
            "next_open": state.next_open,
            "refused": code,
            "message": message,
        }
        return dict(SittingsOutput(facts).data)


extend_schema_field(SittingsOutput)(_Sittings)


class AssignmentOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    drill = DrillOutput()
    mode = serializers.CharField()
    due_at = serializers.DateTimeField(allow_null=True)
    attempts = AttemptBriefOutput(
        many=True, source="my_attempts", help_text="Your attempts at it, newest first."
    )
    sittings = _Sittings()


class ProgressOutput(serializers.Serializer[Any]):
    rounds = serializers.IntegerField(help_text="Rounds dealt in this attempt.")
    rounds_answered = serializers.IntegerField(help_text="Rounds with every question answered.")
    decisions = serializers.IntegerField(help_text="Questions answered so far.")


class AttemptOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    drill = DrillBriefOutput()
    assignment = serializers.IntegerField(source="assignment_id", allow_null=True)
    mode = serializers.CharField()
    status = serializers.CharField(help_text="in_progress, submitted or abandoned.")
    grading_status = serializers.CharField(
        help_text="not_submitted, pending, grading, graded or failed."
    )
    started_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="Speed mode's time box end.")
    submitted_at = serializers.DateTimeField(allow_null=True)
    graded_at = serializers.DateTimeField(allow_null=True)
    score = score_field(allow_null=True)
    passed = serializers.BooleanField(allow_null=True)


class AttemptDetailOutput(AttemptOutput):
    progress = ProgressOutput()


class QuestionOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The round's position in the attempt.")
    rounds = serializers.IntegerField(help_text="Rounds in the attempt.")
    n = serializers.IntegerField(help_text="The question's number within the round.")
    time_limit_seconds = serializers.IntegerField(
        help_text="Seconds allowed from shown_at; a later answer is recorded as late (wrong)."
    )
    kind = serializers.CharField()
    prompt = serializers.CharField()
    box = serializers.IntegerField(allow_null=True)
    hand = serializers.IntegerField(allow_null=True)
    player = serializers.CharField(allow_null=True)
    view = QuestionViewField(help_text="What the table shows when the question is asked.")
    stake = serializers.CharField(
        required=False, allow_null=True, help_text="Money questions: the stake being settled."
    )
    actions = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Money questions: the actions."
    )
    answers = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Procedure questions: the words."
    )
    rack = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text='Chip questions: the table\'s chips, largest first ("500", "100", "25", ...); '
        "an answer's `chips` are drawn from these.",
    )
    pile = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Colour up: the leaving player's chips, largest first.",
    )
    cash = serializers.CharField(
        required=False, help_text="Change: the cash the player put on the layout."
    )
    bet = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Pay in chips: the bet's chips as the player placed them, when not the "
        "fewest chips of the stake.",
    )
    chip_rule = serializers.CharField(
        required=False,
        help_text='Chip questions: how the table pays, "fewest" (the fewest chips) or "match" '
        "(the bet's own chips for each whole bet, then the fewest).",
    )
    target_seconds = serializers.IntegerField(
        required=False,
        help_text="Chip questions: the seconds a dealer ready for the floor takes (a target, "
        "not a limit).",
    )
    shown_at = serializers.DateTimeField(help_text="When the question was first shown (server).")


class QuestionResponseOutput(serializers.Serializer[Any]):
    attempt = serializers.IntegerField()
    status = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    question = QuestionOutput(
        allow_null=True, help_text="null when nothing is left to answer (or the attempt is closed)."
    )


class DecisionOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    position = serializers.IntegerField(source="item.position")
    question = serializers.IntegerField()
    kind = serializers.CharField()
    answer = serializers.DictField(help_text="The answer as recorded (amounts with cents).")
    shown_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField()
    response_ms = serializers.IntegerField()
    time_limit_ms = serializers.IntegerField(allow_null=True)
    late = serializers.BooleanField(help_text="Answered after the question's time limit.")


class FeedbackOutput(serializers.Serializer[Any]):
    n = serializers.IntegerField()
    kind = serializers.CharField()
    prompt = serializers.CharField()
    given = serializers.DictField(allow_null=True)
    expected = serializers.DictField(
        allow_null=True,
        help_text="null while a fixed exam pool is sealed (until every assignment of it "
        "has closed).",
    )
    right = serializers.BooleanField()
    money_diff = money_field(
        allow_null=True, help_text="Positive: the player got too much. null while sealed."
    )
    category = serializers.CharField(
        allow_null=True, help_text="While sealed: only late or unanswered, else null."
    )
    rule = serializers.CharField()


class AttemptStartOutput(AttemptDetailOutput):
    next = QuestionResponseOutput(
        allow_null=True,
        help_text="Asked for with ?next=question: the attempt's first question (or the one "
        "asked now, when an attempt in progress is resumed), as GET …/question returns it, "
        "its clock started. null otherwise.",
    )


class AnswerResponseOutput(serializers.Serializer[Any]):
    decision = DecisionOutput()
    round_complete = serializers.BooleanField()
    feedback = FeedbackOutput(
        many=True,
        allow_null=True,
        help_text="Practice mode, once the round's last answer is in: every question's verdict.",
    )
    next = QuestionResponseOutput(
        allow_null=True,
        help_text="Asked for with ?next=question: the question asked now, as GET …/question "
        "returns it (its clock started). null otherwise.",
    )
