"""The house-rules forms: one field per rule, labelled in a pit manager's words (the game's
parameters, trainer.selectors.house_rules.table_rules); the values posted are tokens no one
reads, turned back into the game's parameters here. The service judges the rules themselves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils import timezone

from core.errors import CHOICE_ERRORS
from trainer.selectors.house_rules import Rule, amount_words, table_rules

NOTES_MAX = 2000


def _tokens(rule: Rule) -> list[tuple[str, Any, str]]:
    """(token, stored value, words) for each choice of a rule."""
    yes, no = rule.tokens
    out = []
    for value, words in rule.choices:
        token = (yes if value else no) if isinstance(value, bool) else str(value)
        out.append((token, value, words))
    return out


def posted_values(parameters: Mapping[str, Any], *, game: str) -> dict[str, str]:
    """The form's values for a set of parameters: what a browser posts unchanged."""
    data: dict[str, str] = {}
    for rule in table_rules(game):
        value = parameters.get(rule.key)
        if rule.kind == "choice":
            data[rule.key] = next((t for t, v, _ in _tokens(rule) if v == value), "")
        elif rule.kind == "chips":
            data[rule.key] = ", ".join(amount_words(chip) for chip in value or ())
        elif rule.kind == "amount":
            data[rule.key] = "" if value is None else amount_words(value)
        else:
            data[rule.key] = "" if value is None else str(value)
    return data


def _field(rule: Rule) -> forms.Field:
    common: dict[str, Any] = {"label": rule.label, "help_text": rule.help}
    if rule.kind == "choice":
        choices = [(token, words) for token, _, words in _tokens(rule)]
        return forms.ChoiceField(choices=choices, error_messages=CHOICE_ERRORS, **common)
    if rule.kind == "int":
        return forms.IntegerField(
            min_value=rule.low, max_value=rule.high, required=not rule.optional, **common
        )
    return forms.CharField(max_length=200, required=not rule.optional, **common)


class RulesForm(forms.Form):
    """Every rule of a table of ``game``; `parameters()` gives them as the game's
    parameters."""

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = table_rules(game)
        for rule in self.rules:
            self.fields[rule.key] = _field(rule)

    def parameters(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for rule in self.rules:
            value = self.cleaned_data.get(rule.key)
            if rule.kind == "choice":
                out[rule.key] = next(v for t, v, _ in _tokens(rule) if t == value)
            elif rule.kind == "chips":
                out[rule.key] = [part.strip() for part in str(value).split(",") if part.strip()]
            elif rule.kind == "amount":
                # An amount as typed (the engine reads it); empty is none (no bonus).
                out[rule.key] = (str(value).strip() or None) if value is not None else None
            else:
                out[rule.key] = value
        return out


class ChangeForm(RulesForm):
    """A new version of a table's rules: the rules, from when, and why."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["effective_on"] = forms.DateField(
            label="Takes effect from",
            help_text=f"A day in the house's time zone ({timezone.get_current_timezone_name()}); "
            "today takes effect at once. Records already made keep the rules they were made "
            "under.",
            widget=forms.DateInput(attrs={"type": "date"}),
        )
        # The version the form was filled from: a change recorded since is not undone.
        self.fields["based_on"] = forms.IntegerField(widget=forms.HiddenInput, required=False)
        self.fields["notes"] = forms.CharField(
            label="What changes and why",
            max_length=NOTES_MAX,
            widget=forms.Textarea(attrs={"rows": 3}),
            help_text="Kept with the version, for the record.",
        )


class CopyForm(RulesForm):
    """A new table: its short name and title, and its rules (copied, then editable)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["title"] = forms.CharField(
            label="Title", max_length=200, help_text="The table's name as the pit calls it."
        )
        self.fields["name"] = forms.CharField(
            label="Short name",
            max_length=64,
            help_text="Used in links and records, fixed once made: lower-case letters, digits "
            "and hyphens, such as high-limit-shoe.",
        )
        self.fields["notes"] = forms.CharField(
            label="Note for the record",
            max_length=NOTES_MAX,
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
        )
        # Title and name first, the rules after them.
        order = ["title", "name"] + [rule.key for rule in self.rules] + ["notes"]
        self.order_fields(order)


def grouped(form: RulesForm) -> list[tuple[str, list[forms.BoundField]]]:
    """The form's rule fields by the groups their game declares, for the template."""
    groups: dict[str, list[forms.BoundField]] = {}
    for rule in form.rules:
        groups.setdefault(rule.group, []).append(form[rule.key])
    return list(groups.items())
