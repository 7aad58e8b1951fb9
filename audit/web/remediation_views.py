"""Remediation from the pit: a refresher drill on a trainee's weak skills, generated and
assigned in one step, from a retraining flag or from the trainee's mistakes by skill."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from audit.forms import RefresherForm
from audit.services.remediation import refresher_assign
from audit.web.pit_common import pit_view
from audit.web.trainee_actions import flag_for, refused, section_with
from core.errors import ProductError
from trainer.selectors import visibility


def _assign(request: HttpRequest, trainee_id: int, flag_id: int | None) -> HttpResponse:
    flag = flag_for(request, flag_id) if flag_id is not None else None
    trainee = (
        flag.trainee
        if flag is not None
        else (visibility.trainee_get_for_viewer(trainee_id=trainee_id, user=request.user))
    )
    form = RefresherForm(request.POST)
    page = section_with(request, trainee.pk, "retraining", refresher_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        refresher = refresher_assign(
            trainee=trainee,
            user=request.user,  # type: ignore[arg-type]
            flag=flag,
            due_in_days=form.cleaned_data["due_in_days"],
        )
    except ProductError as error:
        return refused(request, form, error, page)
    messages.success(
        request, f"“{refresher.assignment.drill.title}” is assigned to {trainee.get_full_name()}."
    )
    return redirect("pit:trainee_retraining", trainee_id=trainee.pk)


@require_POST
@pit_view(write=True)
def trainee_refresher(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """A refresher on the trainee's weakest skills by their graded mistakes."""
    return _assign(request, trainee_id, None)


@require_POST
@pit_view(write=True)
def flag_refresher(request: HttpRequest, flag_id: int) -> HttpResponse:
    """A refresher on the skills a retraining flag names, linked to it."""
    return _assign(request, 0, flag_id)
