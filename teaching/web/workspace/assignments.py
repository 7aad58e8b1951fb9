"""/teach/assignments/: assign a drill to a class or a trainee, follow each on a progress
board, give more sittings or a new due date, cancel. The assigner is the signed-in user."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from core import pages
from core.access import role_required
from core.dates import house_moment
from core.errors import CHOICE_ERRORS, NotFoundError, ProductError
from teaching.selectors import assignments as assignment_sel
from teaching.selectors.drills import drills_visible_to
from teaching.services.assignments import (
    MAX_SITTINGS,
    assignment_cancel,
    assignment_create,
    assignment_reassign,
)
from trainer.models import ASSIGNED_MODE_CHOICES, Drill
from trainer.selectors import visibility


def teach_view(view: Any) -> Any:
    return role_required(*pages.WORKSPACE.roles, refusal=pages.WORKSPACE.refusal)(view)


def _me(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in user (the page decorator let only a signed-in one through)."""
    assert request.user.is_authenticated
    return request.user


def _person(user: Any) -> str:
    return user.get_full_name() or user.get_username()


def due_from(day: dt.date | None, time: dt.time | None) -> dt.datetime | None:
    """A due date typed as a day and a time of day, in the house's time zone (as every date
    on the site is read); the end of the day when no time is given. A time the clocks skip
    is a ProductError naming `due_time`."""
    if day is None:
        return None
    return house_moment(dt.datetime.combine(day, time or dt.time(23, 59)), field="due_time")


def _due_checked(form: forms.Form, data: dict[str, Any]) -> None:
    """The form's error at the time of day, for a due date that does not exist."""
    try:
        due_from(data.get("due_day"), data.get("due_time"))
    except ProductError as error:
        form.add_error("due_time", error.message)


# A due date's time of day as it is typed and shown back: 22:00, not 22:00:00.
_TIME_OF_DAY = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


class DrillChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.title} ({obj.get_purpose_display().lower()})"


class PersonChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return _person(obj)


class AssignForm(forms.Form):
    drill = DrillChoice(queryset=Drill.objects.none(), empty_label="Choose a drill")
    training_class: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, required=False, label="Class", empty_label="(a trainee instead)"
    )
    trainee = PersonChoice(
        queryset=None, required=False, label="Trainee", empty_label="(the class instead)"
    )
    mode = forms.ChoiceField(error_messages=CHOICE_ERRORS, choices=ASSIGNED_MODE_CHOICES)
    due_day = forms.DateField(
        required=False, label="Due on", widget=forms.DateInput(attrs={"type": "date"})
    )
    due_time = forms.TimeField(
        required=False,
        label="at",
        help_text="Empty: the end of the day.",
        widget=_TIME_OF_DAY,
    )
    max_sittings = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SITTINGS,
        label="Sittings allowed",
        help_text="Empty: no limit.",
    )
    cooldown_hours = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=24 * 365,
        label="Hours between sittings",
        help_text="Empty: 24 for an exam, none otherwise.",
    )

    def __init__(self, *args: Any, user: AbstractBaseUser | AnonymousUser, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Not another class's personal drill (drills_visible_to; assignment_create checks too).
        self.fields["drill"].queryset = drills_visible_to(  # type: ignore[attr-defined]
            user=user, drills=Drill.objects.filter(is_active=True).order_by("title")
        )
        self.fields["training_class"].queryset = visibility.classes_visible_to(user=user)  # type: ignore[attr-defined]
        self.fields["trainee"].queryset = (  # type: ignore[attr-defined]
            visibility.trainees_visible_to(user=user)
            .filter(groups__name="trainee")
            .order_by("last_name", "first_name", "username")
        )
        zone = timezone.get_current_timezone_name()
        self.fields["due_day"].help_text = f"Times are in {zone}."

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        _due_checked(self, data)
        return data


class ReassignForm(forms.Form):
    """What to change; a field left empty (and its box unticked) stays as it is."""

    max_sittings = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_SITTINGS, label="Sittings allowed"
    )
    unlimited = forms.BooleanField(required=False, label="No limit on sittings")
    due_day = forms.DateField(
        required=False, label="Due on", widget=forms.DateInput(attrs={"type": "date"})
    )
    due_time = forms.TimeField(
        required=False,
        label="at",
        help_text="Empty: the end of the day.",
        widget=_TIME_OF_DAY,
    )
    no_due_date = forms.BooleanField(required=False, label="No due date")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("unlimited") and data.get("max_sittings"):
            self.add_error("unlimited", "give a number of sittings or no limit, not both")
        if data.get("no_due_date") and data.get("due_day"):
            self.add_error("no_due_date", "give a due date or none, not both")
        _due_checked(self, data)
        if not self.errors and not self.changes(data):
            raise forms.ValidationError(
                "nothing to change: give a number of sittings or a due date"
            )
        return data

    @staticmethod
    def changes(data: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if data.get("unlimited"):
            out["max_sittings"] = None
        elif data.get("max_sittings"):
            out["max_sittings"] = data["max_sittings"]
        if data.get("no_due_date"):
            out["due_at"] = None
        elif data.get("due_day"):
            out["due_at"] = due_from(data["due_day"], data.get("due_time"))
        return out


class CancelForm(forms.Form):
    confirm = forms.BooleanField(
        label="Cancel it: its trainees no longer see it (their sittings stay on record)"
    )


def _refused(request: HttpRequest, form: forms.Form, error: ProductError) -> None:
    if error.status in (403, 404):
        raise error
    form.add_error(error.field if error.field in form.fields else None, error.message)


@require_http_methods(["GET", "POST"])
@teach_view
def assignment_list(request: HttpRequest) -> HttpResponse:
    form = AssignForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                assignment = assignment_create(
                    drill=data["drill"],
                    mode=data["mode"],
                    assigned_by=_me(request),  # always the acting user
                    trainee=data["trainee"],
                    training_class=data["training_class"],
                    due_at=due_from(data["due_day"], data["due_time"]),
                    max_sittings=data["max_sittings"],
                    cooldown_hours=data["cooldown_hours"],
                )
            except ProductError as error:
                _refused(request, form, error)
            else:
                messages.success(request, f"“{assignment.drill.title}” is assigned.")
                return redirect("teach:assignment", assignment_id=assignment.pk)
        status = 400
    assignments = list(assignment_sel.assignments_managed_by(user=request.user)[:200])
    classes = visibility.classes_visible_to(user=request.user).order_by("name")
    return render(
        request,
        "trainer/workspace/assignments.html",
        {"form": form, "assignments": assignments, "classes": classes},
        status=status,
    )


def _detail(
    request: HttpRequest,
    assignment_id: int,
    form: ReassignForm | None = None,
    cancel_form: CancelForm | None = None,
    status: int = 200,
) -> HttpResponse:
    assignment = assignment_sel.assignment_get_for_manager(
        assignment_id=assignment_id, user=request.user
    )
    board = assignment_sel.assignment_board(assignment=assignment)
    if form is None:
        due = timezone.localtime(assignment.due_at) if assignment.due_at else None
        form = ReassignForm(
            initial={
                "max_sittings": assignment.max_sittings,
                "due_day": due.date() if due else None,
                "due_time": due.time().replace(second=0, microsecond=0) if due else None,
            }
        )
    cancel_form = cancel_form or CancelForm()
    return render(
        request,
        "trainer/workspace/assignment.html",
        {"assignment": assignment, "board": board, "form": form, "cancel_form": cancel_form},
        status=status,
    )


@require_http_methods(["GET"])
@teach_view
def assignment_detail(request: HttpRequest, assignment_id: int) -> HttpResponse:
    return _detail(request, assignment_id)


@require_POST
@teach_view
def assignment_reassign_view(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = assignment_sel.assignment_get_for_manager(
        assignment_id=assignment_id, user=request.user
    )
    form = ReassignForm(request.POST)
    if form.is_valid():
        try:
            assignment_reassign(
                assignment=assignment, user=_me(request), **form.changes(form.cleaned_data)
            )
        except ProductError as error:
            _refused(request, form, error)
        else:
            messages.success(request, "The assignment's sittings and due date are changed.")
            return redirect("teach:assignment", assignment_id=assignment.pk)
    return _detail(request, assignment_id, form=form, status=400)


@require_POST
@teach_view
def assignment_cancel_view(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = assignment_sel.assignment_get_for_manager(
        assignment_id=assignment_id, user=request.user
    )
    form = CancelForm(request.POST)
    if not form.is_valid():
        return _detail(request, assignment_id, cancel_form=form, status=400)
    try:
        assignment_cancel(assignment=assignment, user=_me(request))
    except ProductError as error:
        _refused(request, form, error)
        return _detail(request, assignment_id, cancel_form=form, status=error.status)
    messages.success(request, "The assignment is cancelled: its trainees no longer see it.")
    return redirect("teach:assignment", assignment_id=assignment.pk)


@require_http_methods(["GET"])
@teach_view
def class_board(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = visibility.classes_visible_to(user=request.user).filter(pk=class_id).first()
    if training_class is None:
        raise NotFoundError("no such class among yours", field="class")
    board = assignment_sel.class_board(training_class=training_class)
    return render(
        request,
        "trainer/workspace/board.html",
        {"training_class": training_class, "board": board},
    )


urlpatterns = [
    path("assignments/", assignment_list, name="assignments"),
    path("assignments/<id:assignment_id>/", assignment_detail, name="assignment"),
    path(
        "assignments/<id:assignment_id>/reassign/",
        assignment_reassign_view,
        name="assignment_reassign",
    ),
    path(
        "assignments/<id:assignment_id>/cancel/", assignment_cancel_view, name="assignment_cancel"
    ),
    path("assignments/classes/<id:class_id>/board/", class_board, name="class_board"),
]
