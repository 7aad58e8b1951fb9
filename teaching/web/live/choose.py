"""Opening a class session from scenarios the instructor picks from the library (the
second form of /teach/live/): the library filtered by table and skill as the drill
builder's list is, ticked and numbered in the order to deal them, all of one table.

Thin: `live_session_open` decides (one table, one game, the class is the instructor's)
and writes nothing unless the session opens; this module only reads the form and puts the
service's words beside the field they are about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest

from core.errors import CHOICE_ERRORS, ProductError
from core.roles import Role, has_role
from teaching.selectors import drills as library
from teaching.services.live_sessions import live_session_open
from teaching.web.workspace.drill_forms import LibraryFilterForm, picked_order
from teaching.web.workspace.drills import skill_labels
from trainer.models import LiveSession, TrainingClass

# The hidden field that says which of the page's two forms was sent.
SOURCE = "scenarios"


def classes_led_by(user: AbstractBaseUser) -> Any:
    """The classes whose sessions the user may open (an administrator's: every class)."""
    classes = TrainingClass.objects.order_by("name")
    if not has_role(user, Role.ADMIN):
        classes = classes.filter(instructors=user.pk)
    return classes


class ScenariosOpenForm(forms.Form):
    # Its fields' names and ids apart from the drill form's on the same page.
    prefix = "pick"
    training_class: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, label="Class", empty_label="Choose a class", error_messages=CHOICE_ERRORS
    )
    title = forms.CharField(
        label="Title of the session (optional)",
        max_length=200,
        required=False,
        help_text="Empty: “Class session of” the class's name.",
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["training_class"].queryset = classes_led_by(user)  # type: ignore[attr-defined]


@dataclass
class Picking:
    """The second form's state for the page: the form, the library shown, the words."""

    form: ScenariosOpenForm
    filters: LibraryFilterForm
    rows: list[dict[str, Any]]
    errors: list[str] = field(default_factory=list)
    table_chosen: bool = False
    status: int = 200
    session: LiveSession | None = None


def picking(request: HttpRequest, user: AbstractBaseUser) -> Picking:
    """The library as filtered, and (when this form was sent) the session it opens."""
    sent = request.method == "POST" and request.POST.get("source") == SOURCE
    picked = picked_order(request.POST) if sent else []
    filters = LibraryFilterForm(request.GET or None)
    profile = filters.cleaned_data["profile"] if filters.is_valid() else None
    state = Picking(
        form=ScenariosOpenForm(request.POST if sent else None, user=user),
        filters=filters,
        rows=_rows(filters, picked),
        table_chosen=profile is not None,
    )
    if sent:
        _open(state, user, picked)
    return state


def _rows(filters: LibraryFilterForm, picked: list[int]) -> list[dict[str, Any]]:
    profile = skill = None
    if filters.is_valid():
        profile = filters.cleaned_data["profile"]
        skill = filters.cleaned_data["skill"] or None
    order = {scenario_id: n for n, scenario_id in enumerate(picked, start=1)}
    # A room plays at one table: the library is listed a table at a time (the whole of it
    # would be pages long); with none chosen, only what was ticked in the form sent.
    scenarios = (
        library.scenarios_for_managers(profile=profile, skill=skill)
        if profile is not None
        else library.scenarios_by_ids(picked)
    )
    return [
        {
            "scenario": s,
            "skills": skill_labels(s.skills),
            "profile": s.profile_version.profile.title or s.profile_version.profile.name,
            "order": order.get(s.pk, ""),
        }
        for s in scenarios
    ]


def _open(state: Picking, user: AbstractBaseUser, picked: list[int]) -> None:
    state.status = 400
    if not state.form.is_valid():
        return
    chosen = library.scenarios_by_ids(picked)
    if not picked:
        state.errors.append("tick at least one scenario to deal to the room")
        return
    if len(chosen) < len(picked):
        state.errors.append(
            "a scenario you ticked is no longer in the library (a newer revision replaced "
            "it): tick the scenarios again"
        )
        return
    try:
        state.session = live_session_open(
            user=user,
            training_class=state.form.cleaned_data["training_class"],
            scenarios=chosen,
            title=state.form.cleaned_data["title"],
        )
    except ProductError as error:
        if error.status in (403, 404):
            raise
        if error.field in state.form.fields:
            state.form.add_error(error.field, error.message)
        else:
            state.errors.append(error.message)
        state.status = error.status
    else:
        state.status = 200
