"""The drill builder's forms. They check shape only; `drill_create` decides what is allowed
and names the field at fault, which `place_error` puts beside that field."""

from __future__ import annotations

from typing import Any

from django import forms

from core.errors import CHOICE_ERRORS, ProductError
from trainer.labels import form_skill_choices
from trainer.models import DrillPurpose, RuleProfile
from trainer.services.drills import MAX_ROUNDS, MAX_TIME_BOX, MAX_TIME_LIMIT


def _skill_choices() -> list[tuple[str, Any]]:
    """The skills of every game the house runs, under each game's name when there are
    several (drill_create checks them against the table's game)."""
    return form_skill_choices()


def _any_skill() -> list[tuple[str, Any]]:
    return [("", "Any skill"), *_skill_choices()]


class ProfileChoiceField(forms.ModelChoiceField):
    """A rule profile, by its title (its name only when it has none)."""

    def label_from_instance(self, obj: Any) -> str:
        return str(obj.title or obj.name)


def _profiles() -> Any:
    return RuleProfile.objects.order_by("title", "name")


class LibraryFilterForm(forms.Form):
    profile = ProfileChoiceField(
        queryset=_profiles(), required=False, empty_label="Any table", label="Table"
    )
    skill = forms.ChoiceField(error_messages=CHOICE_ERRORS, choices=_any_skill, required=False)


class _DrillFields(forms.Form):
    title = forms.CharField(max_length=200)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    time_limit_seconds = forms.IntegerField(
        label="Seconds per question", min_value=1, max_value=MAX_TIME_LIMIT, initial=60
    )
    time_box_seconds = forms.IntegerField(
        label="Time box for the whole drill (seconds; used by speed and exam sittings)",
        min_value=10,
        max_value=MAX_TIME_BOX,
        initial=300,
    )
    pass_mark = forms.DecimalField(
        label="Pass mark (%)", min_value=0, max_value=100, decimal_places=2, initial="95.00"
    )


class LibraryDrillForm(_DrillFields):
    """A fixed drill: the scenarios picked (checkboxes) in the order their numbers give."""

    purpose = forms.ChoiceField(
        error_messages=CHOICE_ERRORS, choices=DrillPurpose.choices, initial=DrillPurpose.PRACTICE
    )
    count = forms.IntegerField(
        label="Rounds per sitting (exams draw this many from the pool)",
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )


class GeneratedDrillForm(_DrillFields):
    """A generated practice drill: a recipe the generator deals fresh rounds from."""

    field_order = (
        "title",
        "description",
        "profile",
        "skills",
        "count",
        "min_stake",
        "max_stake",
        "max_boxes",
        "time_limit_seconds",
        "time_box_seconds",
        "pass_mark",
    )

    profile = ProfileChoiceField(queryset=_profiles(), label="Table", empty_label="Choose a table")
    skills = forms.MultipleChoiceField(
        error_messages=CHOICE_ERRORS,
        choices=_skill_choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="None ticked: a mix.",
    )
    count = forms.IntegerField(label="Rounds", min_value=1, max_value=MAX_ROUNDS, initial=10)
    min_stake = forms.DecimalField(
        label="Smallest stake",
        min_value=0,
        decimal_places=2,
        required=False,
        help_text="Empty: the table's minimum.",
    )
    max_stake = forms.DecimalField(
        label="Largest stake",
        min_value=0,
        decimal_places=2,
        required=False,
        help_text="Empty: the table's box maximum.",
    )
    max_boxes = forms.IntegerField(
        label="Most boxes played",
        min_value=1,
        max_value=7,
        required=False,
        help_text="Empty: as many as the table has, at most 3.",
    )


# The service's parameter names that a form calls otherwise.
FIELD_OF = {"profile_version": "profile", "skill_minimums": "skills", "kind": None}


def place_error(form: forms.Form, error: ProductError) -> None:
    """The service's error beside the field it names (the whole form's when none fits)."""
    field = FIELD_OF.get(error.field or "", error.field)
    form.add_error(field if field in form.fields else None, error.message)


def picked_order(data: Any) -> list[int]:
    """The scenario ids ticked, by the order number typed beside each (then as listed)."""
    picked: list[tuple[int, int, int]] = []
    for index, raw in enumerate(data.getlist("scenario")):
        if not str(raw).isdigit():
            continue
        order = str(data.get(f"order-{raw}", "")).strip()
        picked.append((int(order) if order.isdigit() else 10**6, index, int(raw)))
    return [scenario_id for _, _, scenario_id in sorted(picked)]
