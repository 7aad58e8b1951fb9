"""A drill's own page at /teach/drills/<id>/: what it is, its rounds previewed (a generated
drill's as sample rounds its recipe deals), the assignments of it the viewer manages, and
"Assign this drill" to a class they teach. Another class's drill is not found here
(`drills_visible_to`); the answer key is never shown to someone who may sit the drill."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from core.errors import CHOICE_ERRORS, ProductError
from core.roles import Role, roles_of
from teaching.selectors import drills as sel
from teaching.selectors.assignments import assignments_managed_by
from teaching.services.assignments import MAX_SITTINGS, assignment_create
from teaching.web.workspace.assignments import due_from
from teaching.web.workspace.drills import round_preview, skill_labels, workspace
from trainer.models import (
    ASSIGNED_MODE_CHOICES,
    Drill,
    DrillKind,
    DrillPurpose,
    Mode,
    Scenario,
    TrainingClass,
)
from trainer.selectors.drill_rounds import generate_documents

# Rounds previewed on the page: enough to judge a drill, few enough to read.
PREVIEW_ROUNDS = 12
# A generated drill's sample: the same rounds each time the page is opened.
SAMPLE_SEED = 1


class DrillAssignForm(forms.Form):
    """Assign this drill to a class the user teaches (the drill is the page's)."""

    training_class = forms.ModelChoiceField(
        queryset=TrainingClass.objects.none(),
        label="Class",
        empty_label="Choose a class",
        error_messages={
            "required": "choose the class to assign it to",
            "invalid_choice": "choose one of the classes you teach",
        },
    )
    mode = forms.ChoiceField(
        error_messages={**CHOICE_ERRORS, "invalid_choice": "choose how the drill is sat"},
        choices=ASSIGNED_MODE_CHOICES,
    )
    due_day = forms.DateField(
        required=False, label="Due on", widget=forms.DateInput(attrs={"type": "date"})
    )
    due_time = forms.TimeField(
        required=False,
        label="at",
        help_text="Empty: the end of the day.",
        widget=forms.TimeInput(attrs={"type": "time"}),
    )
    max_sittings = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SITTINGS,
        label="Sittings allowed",
        help_text="Empty: no limit.",
    )

    def __init__(
        self, *args: Any, drill: Drill, user: AbstractBaseUser | AnonymousUser, **kwargs: Any
    ) -> None:
        kwargs.setdefault("auto_id", "assign_%s")
        super().__init__(*args, **kwargs)
        # The classes one teaches (an administrator: every class).
        classes = TrainingClass.objects.order_by("name")
        if Role.ADMIN not in roles_of(user):
            classes = classes.filter(instructors=user.pk)
        self.fields["training_class"].queryset = classes  # type: ignore[attr-defined]
        # Only the modes this drill can be sat in: an exam drill is sat as an exam.
        if drill.purpose == DrillPurpose.EXAM:
            choices = [(Mode.EXAM.value, Mode.EXAM.label)]
        else:
            choices = [(m.value, m.label) for m in Mode if m != Mode.EXAM]
        self.fields["mode"].choices = choices  # type: ignore[attr-defined]
        zone = timezone.get_current_timezone_name()
        self.fields["due_day"].help_text = f"Times are in {zone}."


def _may_see_answers(user: Any, drill: Drill) -> bool:
    """The answer key is for those who set the drill, never for someone who may sit it: a
    pit boss who is also a trainee sees no key of an exam, nor of any drill assigned to
    them or to a class of theirs."""
    if Role.TRAINEE not in roles_of(user):
        return True
    if drill.purpose == DrillPurpose.EXAM:
        return False
    return (
        not drill.assignments.filter(trainee=user.pk).exists()
        and not drill.assignments.filter(training_class__trainees=user.pk).exists()
    )


def _previews(drill: Drill) -> tuple[list[dict[str, Any]], int]:
    """The rounds previewed, and how many the drill holds in all."""
    if drill.kind == DrillKind.GENERATED:
        documents = generate_documents(drill=drill, seed=SAMPLE_SEED)[:PREVIEW_ROUNDS]
        rounds = [
            round_preview(
                Scenario(
                    title=f"Sample round {n}: " + ", ".join(skill_labels(doc.get("skills", []))),
                    document=doc,
                    profile_version=drill.profile_version,
                )
            )
            for n, doc in enumerate(documents, start=1)
        ]
        return rounds, drill.count
    items = list(drill.drill_scenarios.all())
    return [round_preview(item.scenario) for item in items[:PREVIEW_ROUNDS]], len(items)


def _page(
    request: HttpRequest, drill_id: int, *, form: DrillAssignForm | None = None, status: int = 200
) -> HttpResponse:
    drill = sel.drill_get_for_viewer(drill_id=drill_id, user=request.user)
    answers = _may_see_answers(request.user, drill)
    previews, total = _previews(drill) if answers else ([], 0)
    assignments = list(
        assignments_managed_by(user=request.user).filter(drill=drill).order_by("-created_at")
    )
    context = {
        "drill": drill,
        "kind": DrillKind(drill.kind).label,
        "purpose": DrillPurpose(drill.purpose).label,
        "profiles": sel.drill_profile_titles(drill),
        "skills": skill_labels(list(drill.skills or [])),
        "answers": answers,
        "previews": previews,
        "total": total,
        "assignments": assignments,
        "form": form or DrillAssignForm(drill=drill, user=request.user),
    }
    return render(request, "trainer/workspace/drill.html", context, status=status)


@require_GET
@workspace
def drill_detail(request: HttpRequest, drill_id: int) -> HttpResponse:
    return _page(request, drill_id)


@require_POST
@workspace
def drill_assign(request: HttpRequest, drill_id: int) -> HttpResponse:
    drill = sel.drill_get_for_viewer(drill_id=drill_id, user=request.user)
    form = DrillAssignForm(request.POST, drill=drill, user=request.user)
    if not form.is_valid():
        return _page(request, drill_id, form=form, status=400)
    data = form.cleaned_data
    try:
        assignment = assignment_create(
            drill=drill,
            mode=data["mode"],
            assigned_by=request.user,  # type: ignore[arg-type]
            training_class=data["training_class"],
            due_at=due_from(data["due_day"], data["due_time"]),
            max_sittings=data["max_sittings"],
        )
    except ProductError as error:
        if error.status == 404:
            raise
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return _page(request, drill_id, form=form, status=error.status)
    messages.success(request, f"“{drill.title}” is assigned to {assignment.training_class}.")
    return redirect("teach:drill", drill_id=drill.pk)


urlpatterns = [
    path("drills/<id:drill_id>/", drill_detail, name="drill"),
    path("drills/<id:drill_id>/assign/", drill_assign, name="drill-assign"),
]
