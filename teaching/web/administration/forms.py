"""The Administration pages' forms: the shape of what is typed; the services judge the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from core.errors import CHOICE_ERRORS
from core.roles import Role
from teaching.selectors.people import STATUSES
from trainer.models import TrainingClass

ROLE_CHOICES = [(role.value, role.label) for role in Role]
ROLE_HELP = (
    "Trainee: trains and sits exams. Pit boss: teaches classes, reviews and signs off. "
    "Compliance officer: reads the pit and the compliance reports. Administrator: runs "
    "this Administration area."
)


def person_label(user: User) -> str:
    name = user.get_full_name()
    return f"{name} ({user.get_username()})" if name else user.get_username()


class PersonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return person_label(obj)


class PersonForm(forms.Form):
    username = forms.CharField(label="Username", max_length=150)
    first_name = forms.CharField(label="First name", max_length=150, required=False)
    last_name = forms.CharField(label="Last name", max_length=150, required=False)
    email = forms.EmailField(
        label="E-mail address",
        help_text="A link to choose a password is sent here.",
    )
    roles = forms.MultipleChoiceField(
        label="Roles",
        choices=ROLE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=ROLE_HELP,
        error_messages={**CHOICE_ERRORS, "required": "choose at least one role"},
    )


class RolesForm(forms.Form):
    roles = forms.MultipleChoiceField(
        label="Roles",
        choices=ROLE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=ROLE_HELP,
        error_messages={**CHOICE_ERRORS, "required": "choose at least one role"},
    )


class PeopleFilterForm(forms.Form):
    q = forms.CharField(label="Name, username or e-mail", required=False, max_length=100)
    role = forms.ChoiceField(
        label="Role", choices=[("", "Any role"), *ROLE_CHOICES], required=False
    )
    status = forms.ChoiceField(
        label="Account",
        choices=[("", "Any"), *STATUSES.items()],
        required=False,
    )


class InstructorForm(forms.Form):
    def __init__(self, *args: Any, pit_bosses: QuerySet[User], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "instructor_%s")
        super().__init__(*args, **kwargs)
        self.fields["instructor"].queryset = pit_bosses  # type: ignore[attr-defined]

    instructor = PersonChoiceField(
        label="Pit boss",
        queryset=User.objects.none(),
        empty_label="Choose a pit boss",
        help_text="They act for the class's trainees as fully as its other instructors.",
        error_messages={**CHOICE_ERRORS, "required": "choose a pit boss"},
    )


class MoveForm(forms.Form):
    def __init__(
        self, *args: Any, trainees: QuerySet[User], classes: QuerySet[TrainingClass], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trainee"].queryset = trainees  # type: ignore[attr-defined]
        self.fields["training_class"].queryset = classes  # type: ignore[attr-defined]

    trainee = PersonChoiceField(
        label="Trainee",
        queryset=User.objects.none(),
        empty_label="Choose a trainee",
        error_messages={**CHOICE_ERRORS, "required": "choose a trainee"},
    )
    training_class = forms.ModelChoiceField(
        label="Move to the class",
        queryset=TrainingClass.objects.none(),
        empty_label="Choose a class",
        help_text="They leave every other class they are on and join this one.",
        error_messages={**CHOICE_ERRORS, "required": "choose a class"},
    )
