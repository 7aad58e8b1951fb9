"""The workspace's forms: the shape of what is typed; the services judge the rest."""

from __future__ import annotations

from typing import Any

from django import forms

from core.errors import ProductError


class ClassForm(forms.Form):
    name = forms.CharField(label="Class name", max_length=120)


class TraineeAddForm(forms.Form):
    username = forms.CharField(
        label="Username of an existing trainee", max_length=150, help_text="Any case."
    )


class InviteForm(forms.Form):
    """On the class page beside the add form: ids of its own, so neither form's "Username"
    label names the other's field."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)

    username = forms.CharField(label="Username", max_length=150)
    first_name = forms.CharField(label="First name", max_length=150, required=False)
    last_name = forms.CharField(label="Last name", max_length=150, required=False)
    email = forms.EmailField(
        label="E-mail address",
        help_text="The invitation, with a link to choose a password, is sent here.",
    )


class JoinRequestForm(forms.Form):
    """Ask for a trainee who is on another instructor's class (ids of its own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "join_%s")
        super().__init__(*args, **kwargs)

    username = forms.CharField(label="Username of the trainee", max_length=150)
    note = forms.CharField(
        label="Note for their instructor",
        max_length=500,
        required=False,
        help_text="Why you ask: their instructor reads it before answering.",
    )


class TransferForm(forms.Form):
    """An administrator moves a trainee to this class (ids of its own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "transfer_%s")
        super().__init__(*args, **kwargs)

    username = forms.CharField(
        label="Username of the trainee",
        max_length=150,
        help_text="They leave every other class and join this one.",
    )


# A class list is a few kilobytes; a megabyte is far past any real one.
ROSTER_MAX_BYTES = 1_000_000


class RosterForm(forms.Form):
    file = forms.FileField(
        label="Roster file (CSV)",
        help_text="Columns: username, first_name, last_name, email, class. UTF-8.",
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > ROSTER_MAX_BYTES:
            raise forms.ValidationError(f"the file is over {ROSTER_MAX_BYTES:,} bytes")
        try:
            return str(upload.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8"
            ) from None


def error_at_field(form: forms.Form, error: ProductError) -> None:
    """The service's refusal shown at the field it names (else above the form)."""
    name = error.field if error.field in form.fields else None
    form.add_error(name, error.message)
