"""The table as a question shows it (the answer key's view): dealer, boxes, hands and
the shoe, with the facts a question depends on."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def _fact(text: str) -> serializers.BooleanField:
    """A hand fact of the answer key's view: present (true) only when it holds."""
    return serializers.BooleanField(required=False, help_text=text)


class HandViewOutput(serializers.Serializer[Any]):
    cards = serializers.ListField(child=serializers.CharField())
    stakes = serializers.DictField(child=serializers.CharField(), help_text="player → stake")
    split = _fact("A hand made by a split.")
    blackjack = _fact("A natural.")
    doubled = _fact("The hand was doubled.")
    before_double = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="A doubled hand: player → the stake before the double.",
    )
    surrendered = _fact("The player surrendered the hand.")
    bust = _fact("The hand went over 21.")
    three_sevens = _fact("A hand of exactly three sevens.")


class BoxViewOutput(serializers.Serializer[Any]):
    box = serializers.IntegerField()
    hands = HandViewOutput(many=True)
    insurance = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="player → insurance stake"
    )
    even_money = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="player → stake, for each player who took even money",
    )


class ShoeViewOutput(serializers.Serializer[Any]):
    burned = serializers.IntegerField(help_text="Cards burned after the shuffle.")
    cut_card_at = serializers.IntegerField(
        allow_null=True, help_text="The cut card lies before the shoe card of this index."
    )
    dealt = serializers.IntegerField(help_text="Cards dealt from the shoe this round so far.")
    cut_card_out = serializers.BooleanField(help_text="Whether the cut card has come out.")


class TableViewOutput(serializers.Serializer[Any]):
    dealer = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="The dealer's cards as shown; null is the face-down hole card.",
    )
    boxes = BoxViewOutput(many=True)
    shoe = ShoeViewOutput(
        required=False, help_text="The shoe: burn, cards dealt, where the cut card lies."
    )


# Built once: DRF deep-copies a serializer's fields for every instance
# (trainer.api.serializers.validated).
_TABLE_VIEW = TableViewOutput()


@extend_schema_field(TableViewOutput)
class QuestionViewField(serializers.DictField):
    """The table at a question: blackjack's table (its schema, ``TableViewOutput``), or the
    view of another game's question as that game keeps it (its own object)."""

    def to_representation(self, value: Any) -> Any:
        try:
            return _TABLE_VIEW.to_representation(value)
        except (KeyError, AttributeError):
            return dict(value)
