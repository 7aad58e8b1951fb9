"""The trainee API's graded results: the score, each grade and the skills (GET
/api/attempts/{id}/results)."""

from typing import Any

from rest_framework import serializers

from trainer.api.serializers import money_field, score_field


class GradeOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField(source="item.position")
    question = serializers.IntegerField()
    kind = serializers.CharField()
    correct = serializers.BooleanField()
    given = serializers.DictField(allow_null=True, help_text="null: the question was missed.")
    expected = serializers.DictField(
        allow_null=True,
        help_text="null while the results are sealed (a fixed exam pool still open).",
    )
    money_diff = money_field(
        allow_null=True, help_text="Positive: the player got too much. null while sealed."
    )
    category = serializers.CharField(
        allow_blank=True, help_text="While sealed: only late or unanswered, else empty."
    )
    rule = serializers.CharField(allow_blank=True)
    response_ms = serializers.IntegerField(allow_null=True)


class SkillResultOutput(serializers.Serializer[Any]):
    skill = serializers.CharField()
    title = serializers.CharField(source="label", help_text="The skill as the pit names it.")
    questions = serializers.IntegerField()
    correct = serializers.IntegerField()


class ResultsOutput(serializers.Serializer[Any]):
    attempt = serializers.IntegerField()
    mode = serializers.CharField()
    status = serializers.CharField(
        help_text="The grading status: not_submitted, pending, grading, graded or failed."
    )
    error = serializers.CharField(allow_blank=True, help_text="Why grading failed, if it did.")
    score = score_field(allow_null=True)
    passed = serializers.BooleanField(allow_null=True)
    graded_at = serializers.DateTimeField(allow_null=True)
    questions = serializers.IntegerField(allow_null=True)
    correct = serializers.IntegerField(allow_null=True)
    overpaid = money_field(allow_null=True, help_text="null before grading and while sealed.")
    underpaid = money_field(allow_null=True, help_text="null before grading and while sealed.")
    points = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text="Points lost to mistakes in a game counting points (beside the money, never "
        "added to it); null in a game counting money, before grading and while sealed.",
    )
    sealed = serializers.BooleanField(
        help_text="A fixed exam pool that can still be sat: the grades carry no expected "
        "answer, money difference or kind of mistake (right or wrong, the rule and your "
        "answer only) until every assignment of the exam is cancelled or past its due date."
    )
    sealed_until = serializers.DateTimeField(
        allow_null=True,
        help_text="While sealed: the last due date that holds the seal; null when an "
        "assignment without a due date holds it (or when not sealed).",
    )
    not_reached = serializers.IntegerField(
        help_text="Questions never shown (rounds not reached): counted, never listed."
    )
    skills = SkillResultOutput(many=True, help_text="Right answers by skill.")
    grades = GradeOutput(
        many=True, help_text="The questions you were shown, once graded; empty until then."
    )
