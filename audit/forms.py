"""The pit's forms: the dashboard's filters, reviews, retraining flags and sign-offs.

They check shape only; the services decide what is allowed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlencode

import django_filters
from django import forms
from django.db.models import QuerySet
from django.forms.models import ModelChoiceIterator
from django.forms.utils import flatatt
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from audit.authority import rank_choices
from audit.certification import profile_label
from audit.selectors import grades
from audit.selectors.queue import QueueFilter
from core.errors import CHOICE_ERRORS
from trainer.labels import skill_choices
from trainer.models import Attempt, Grade, RuleProfile

TEXT_MAX = 4000


class QuickSelect(forms.Select):
    """A select whose options are written out here from its choices, not through Django's
    option contexts and templates: drawn that way, two thousand trainees' options took
    longer than the rest of the dashboard."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = set(self.format_value(value))
        options = "".join(
            f'<option value="{escape(option)}"{" selected" if str(option) in chosen else ""}>'
            f"{escape(label)}</option>"
            for option, label in self.choices
        )
        attributes = flatatt(self.build_attrs(self.attrs, attrs))
        # Every value and label above is escaped, and flatatt escapes the attributes.
        return mark_safe(f'<select name="{escape(name)}"{attributes}>{options}</select>')  # noqa: S308


class _TraineeChoices(ModelChoiceIterator):
    """The trainees as (id, "Name (username)") read as plain values: two thousand model
    instances cost more than the page around them."""

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        rows = self.queryset.values_list("pk", "first_name", "last_name", "username")
        for pk, first, last, username in rows:
            name = f"{first} {last}".strip()  # as User.get_full_name
            yield (pk, f"{name} ({username})" if name else username)


class TraineeChoiceField(forms.ModelChoiceField):
    iterator = _TraineeChoices

    def label_from_instance(self, obj: Any) -> str:
        name = obj.get_full_name()
        return f"{name} ({obj.username})" if name else obj.username


class TraineeFilter(django_filters.ModelChoiceFilter):
    """A trainee, listed by name and username."""

    field_class = TraineeChoiceField


class DashboardFilterForm(forms.Form):
    """The dashboard's filter form: a date range the wrong way round is an error naming
    its two dates, not a filter that silently matches nothing."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        submitted = cleaned.get("submitted")
        start = getattr(submitted, "start", None)
        stop = getattr(submitted, "stop", None)
        if start is not None and stop is not None and start > stop:
            self.add_error(
                "submitted",
                f"Submitted between: the “from” date ({start:%Y-%m-%d}) is after the “to” "
                f"date ({stop:%Y-%m-%d}). Swap them, or clear one.",
            )
        return cleaned


class DateRangeWidget(django_filters.widgets.RangeWidget):
    """Two date inputs, each named for what it is ("from", "to"): the field's label names
    the pair, which the template shows as their group's legend."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs={**(attrs or {}), "type": "date"})
        for widget, end in zip(self.widgets, ("from", "to"), strict=True):
            widget.attrs["aria-label"] = end


class ProfileChoiceField(forms.ModelChoiceField):
    """A rule profile, listed by its title."""

    def label_from_instance(self, obj: Any) -> str:
        return profile_label(obj)


class ProfileFilter(django_filters.ModelChoiceFilter):
    """A rule profile filter whose choices read as titles (its value stays the name)."""

    field_class = ProfileChoiceField


class DashboardFilter(django_filters.FilterSet):
    """Date range (of submission), profile, skill and one of the viewer's trainees."""

    submitted = django_filters.DateFromToRangeFilter(
        label="Submitted between",
        widget=DateRangeWidget(),
    )
    profile = ProfileFilter(
        queryset=RuleProfile.objects.all(),
        to_field_name="name",
        empty_label="Any table",
        label="Table",
        widget=QuickSelect,
    )
    skill = django_filters.ChoiceFilter(
        error_messages=CHOICE_ERRORS,
        choices=skill_choices,
        empty_label="Any skill",
        label="Skill",
        widget=QuickSelect,
    )
    trainee = TraineeFilter(
        queryset=None, empty_label="Every trainee", label="Trainee", widget=QuickSelect
    )

    class Meta:
        model = Grade
        fields: list[str] = []
        form = DashboardFilterForm

    def __init__(self, *args: Any, trainees: QuerySet[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["trainee"].queryset = trainees.order_by("last_name", "first_name")

    @property
    def refused(self) -> bool:
        """Whether the filter was given but could not be applied (its errors say why)."""
        return self.is_bound and not self.form.is_valid()

    def as_stats_filter(self) -> grades.StatsFilter:
        """The cleaned choices, or no filter at all when the form is invalid."""
        if not self.is_bound or not self.form.is_valid():
            return grades.StatsFilter()
        data = self.form.cleaned_data
        submitted = data.get("submitted")
        profile = data.get("profile")
        trainee = data.get("trainee")
        return grades.StatsFilter(
            date_from=submitted.start.date() if submitted and submitted.start else None,
            date_to=submitted.stop.date() if submitted and submitted.stop else None,
            profile=profile.name if profile else None,
            skill=data.get("skill") or None,
            trainee_id=trainee.pk if trainee else None,
        )


class ReviewQueueFilter(django_filters.FilterSet):
    """The review queue's filters: a table, a skill, one of the trainees the viewer may act
    for (another's id is not a choice: the filter is refused, naming the field)."""

    profile = ProfileFilter(
        queryset=RuleProfile.objects.all(),
        to_field_name="name",
        empty_label="Any table",
        label="Table",
        widget=QuickSelect,
    )
    skill = django_filters.ChoiceFilter(
        error_messages=CHOICE_ERRORS,
        choices=skill_choices,
        empty_label="Any skill",
        label="Skill",
        widget=QuickSelect,
    )
    trainee = TraineeFilter(
        queryset=None, empty_label="Every trainee", label="Trainee", widget=QuickSelect
    )

    class Meta:
        model = Grade
        fields: list[str] = []

    def __init__(self, *args: Any, trainees: QuerySet[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["trainee"].queryset = trainees.order_by("last_name", "first_name")

    @property
    def refused(self) -> bool:
        return self.is_bound and not self.form.is_valid()

    def as_queue_filter(self) -> QueueFilter:
        """The cleaned choices, or no filter at all when the form is invalid."""
        if not self.is_bound or not self.form.is_valid():
            return QueueFilter()
        data = self.form.cleaned_data
        profile, trainee = data.get("profile"), data.get("trainee")
        return QueueFilter(
            profile=profile.name if profile else None,
            skill=data.get("skill") or None,
            trainee_id=trainee.pk if trainee else None,
        )

    def query(self) -> str:
        """The filter as a query string (its valid choices only), to carry from the queue to
        a mistake and on to the next."""
        chosen = self.as_queue_filter()
        pairs = {
            "profile": chosen.profile or "",
            "skill": chosen.skill or "",
            "trainee": str(chosen.trainee_id or ""),
        }
        return urlencode({key: value for key, value in pairs.items() if value})


class ReviewForm(forms.Form):
    comment = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=TEXT_MAX,
        help_text="What you told the trainee, or what you found.",
    )
    corrects = forms.IntegerField(required=False, widget=forms.HiddenInput)


class _OwnIds:
    """The trainee's page holds several forms at once (and the filter's): each gives its
    fields ids of its own prefix, so no two fields share one (the filter's and the sign-off's
    `id_profile` did). A form repeated on the page (one a flag, one a certification) has no
    ids at all: its template wraps each field in its label."""

    id_prefix: str | bool = "id"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        prefix = self.id_prefix
        kwargs.setdefault("auto_id", f"{prefix}_%s" if prefix else False)
        super().__init__(*args, **kwargs)


class FlagForm(_OwnIds, forms.Form):
    id_prefix = "flag"

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=TEXT_MAX)
    skills = forms.MultipleChoiceField(
        error_messages=CHOICE_ERRORS,
        choices=skill_choices,
        required=False,
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )


class LiftFlagForm(_OwnIds, forms.Form):
    id_prefix = False

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=TEXT_MAX, label="Why lift it"
    )


class SignOffForm(_OwnIds, forms.Form):
    """A signature: what is signed, and the signer's password entered again."""

    id_prefix = "sign"

    profile = ProfileChoiceField(
        queryset=RuleProfile.objects.all(), to_field_name="name", label="Table (rule profile)"
    )
    attempt = forms.ModelChoiceField(queryset=Attempt.objects.none(), label="Table-test sitting")
    statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=TEXT_MAX,
        initial="I have reviewed this trainee's table test and certify them to deal this game.",
    )
    override_reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=TEXT_MAX,
        required=False,
        label="Sign despite the retraining flag: why",
        help_text="Needed only while a retraining flag is in force; recorded with your signature.",
    )
    acknowledge_fast = forms.BooleanField(
        required=False,
        label="I have checked the answers that came faster than plausible: they are the "
        "trainee's own.",
    )
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        label="Your password (your signature)",
    )

    def __init__(self, *args: Any, attempts: QuerySet[Attempt], **kwargs: Any) -> None:
        """``attempts`` are the trainee's exam sittings, what a posted choice is read from
        (the service says why one cannot back a certification)."""
        super().__init__(*args, **kwargs)
        field = self.fields["attempt"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = attempts
        field.label_from_instance = _attempt_label  # type: ignore[method-assign,assignment]

    def offer(
        self, *, sittings: Sequence[tuple[int, str]], tables: Sequence[tuple[str, str]]
    ) -> None:
        """Show only these choices: the sittings (id, label) that can back a certification and
        their tables (name, label). Set after the querysets, which reset the choices shown."""
        self.fields["attempt"].choices = [("", "Choose a sitting"), *sittings]  # type: ignore[attr-defined]
        self.fields["profile"].choices = [("", "Choose a table"), *tables]  # type: ignore[attr-defined]


def _attempt_label(attempt: Attempt) -> str:
    when = attempt.graded_at.date().isoformat() if attempt.graded_at else "?"
    return (
        f"{attempt.drill.title} — {attempt.score}% "
        f"({getattr(attempt, 'rounds', '?')} scenarios, graded {when})"
    )


class WithdrawForm(_OwnIds, forms.Form):
    id_prefix = False

    statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=TEXT_MAX, label="Why withdraw it"
    )
    password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        label="Your password (your signature)",
    )


class RefresherForm(forms.Form):
    due_in_days = forms.IntegerField(min_value=1, max_value=90, initial=7, label="Due in (days)")


class SignerAuthorityForm(forms.Form):
    """An administrator records a signer's rank and licence or employee number."""

    rank = forms.ChoiceField(choices=rank_choices(), label="Rank", error_messages=CHOICE_ERRORS)
    licence_number = forms.CharField(
        max_length=40,
        required=False,
        label="Licence or employee number",
        help_text="As on the gaming licence or the employee badge; a signature states it.",
    )
