"""Query filters as strict input: a value outside the choices, a date that is not one, or
a parameter given empty is a 400 naming it (django-filter would ignore the empty one)."""

from typing import Any

from django_filters import rest_framework as filters

from trainer.api.serializers import choice_message


class StrictFilterSet(filters.FilterSet):
    def is_valid(self) -> bool:
        valid: bool = super().is_valid()
        for name in self.filters:
            if name in self.data and not self.data[name]:
                self.form.add_error(name, f"{name} is empty; leave it out to filter on nothing")
                valid = False
        return valid


def choice_filter(choices: Any, **kwargs: Any) -> filters.ChoiceFilter:
    # Django's message repeats the value given; this one lists the choices instead.
    messages = {"invalid_choice": choice_message(choices)}
    return filters.ChoiceFilter(choices=choices, error_messages=messages, **kwargs)
