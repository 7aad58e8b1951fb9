"""Query filters as strict input: a value outside the choices, a date that is not one, a
parameter given empty, or a range whose start is after its end is a 400 naming it
(django-filter would ignore the empty one, and an inverted range would match nothing)."""

import datetime as dt
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField

from core.errors import echo
from trainer.api.serializers import choice_message


class StrictFilterSet(filters.FilterSet):
    # Pairs of parameters (lower bound, upper bound) that together make a range.
    ranges: ClassVar[tuple[tuple[str, str], ...]] = ()

    def is_valid(self) -> bool:
        valid: bool = super().is_valid()
        for name in self.filters:
            if name in self.data and not self.data[name]:
                self.form.add_error(name, f"{name} is empty; leave it out to filter on nothing")
                valid = False
        cleaned = getattr(self.form, "cleaned_data", {})
        for low, high in self.ranges:
            start, end = cleaned.get(low), cleaned.get(high)
            if start is not None and end is not None and start > end:
                self.form.add_error(
                    low,
                    f"{low} ({echo(self.data[low])}) is after {high} ({echo(self.data[high])}): "
                    "the range is the wrong way round and would match nothing",
                )
                valid = False
        return valid


def choice_filter(choices: Any, **kwargs: Any) -> filters.ChoiceFilter:
    # Django's message repeats the value given; this one lists the choices instead.
    messages = {"invalid_choice": choice_message(choices)}
    return filters.ChoiceFilter(choices=choices, error_messages=messages, **kwargs)


# Real time zones lie between UTC-12:00 and UTC+14:00; PostgreSQL refuses offsets past
# 15:59 with an error, and Python accepts up to 23:59.
_MOST_OFFSET = dt.timedelta(hours=14)


class _MomentField(IsoDateTimeField):
    default_error_messages = {"invalid": "give a date and time in ISO 8601, with its offset"}

    def clean(self, value: Any) -> dt.datetime | None:
        moment: dt.datetime | None = super().clean(value)
        if moment is None:
            return None
        offset = moment.utcoffset()
        if offset is not None and abs(offset) > _MOST_OFFSET:
            raise ValidationError("the time zone offset must be between -12:00 and +14:00")
        try:
            return moment.astimezone(dt.UTC)
        except OverflowError:
            raise ValidationError("the date is out of range") from None


class MomentFilter(filters.IsoDateTimeFilter):
    """An ISO 8601 date and time, compared in UTC; an impossible offset is a 400."""

    field_class = _MomentField
