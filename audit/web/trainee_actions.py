"""The forms that act on a trainee from their pages in the pit: flag, lift, sign off,
withdraw (a refresher's are in remediation_views). A refused form is shown again on its own
section, the service's reason at the field it concerns (or at the top of the form)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from audit.certification import profile_label
from audit.forms import FlagForm, LiftFlagForm, SignOffForm, WithdrawForm
from audit.models import Certification, RetrainingFlag
from audit.selectors import evidence
from audit.services import reviews
from audit.web.pit_common import day, pit_view
from audit.web.trainee_views import _certification, _retraining, _sign_off, _trainee
from core.errors import ProductError
from trainer.selectors import visibility

# Acting on the trainee.


def refused(
    request: HttpRequest, form: Any, error: ProductError, page: Callable[..., HttpResponse]
) -> HttpResponse:
    """Show the form again with the service's reason at the field it concerns (or at the
    top of the form), at the error's status; not-found and not-allowed go on to the page
    decorator's 404 and 403."""
    if error.status == 404 or (error.status == 403 and error.field is None):
        raise error
    # A 403 at a field (the signer's rank or licence number) is said on the form.
    form.add_error(error.field if error.field in form.fields else None, error.message)
    return page(status=error.status)


def section_with(
    request: HttpRequest, trainee_id: int, section: str, **forms: Any
) -> Callable[..., HttpResponse]:
    """The section a form lives on, drawn again with the form as posted."""

    def page(*, status: int) -> HttpResponse:
        if section == "certification":
            return _certification(request, trainee_id, forms=forms, status=status)
        return _retraining(request, trainee_id, forms=forms, status=status)

    return page


@require_POST
@pit_view(write=True)
def trainee_flag(request: HttpRequest, trainee_id: int) -> HttpResponse:
    trainee = _trainee(request, trainee_id)
    form = FlagForm(request.POST)
    page = section_with(request, trainee_id, "retraining", flag_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.retraining_flag_create(
            trainee=trainee,
            flagged_by=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
            skills=form.cleaned_data["skills"],
        )
    except ProductError as error:
        return refused(request, form, error, page)
    messages.success(request, f"{trainee.get_full_name()} is flagged for retraining.")
    return redirect("pit:trainee_retraining", trainee_id=trainee.pk)


def flag_for(request: HttpRequest, flag_id: int) -> RetrainingFlag:
    visible = visibility.trainees_visible_to(user=request.user)
    flag = (
        RetrainingFlag.objects.select_related("trainee")
        .filter(pk=flag_id, trainee__in=visible)
        .first()
    )
    if flag is None:
        raise Http404("no such flag among your trainees'")
    return flag


@require_POST
@pit_view(write=True)
def flag_lift(request: HttpRequest, flag_id: int) -> HttpResponse:
    flag = flag_for(request, flag_id)
    form = LiftFlagForm(request.POST)
    page = section_with(request, flag.trainee_id, "retraining", lift_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.retraining_flag_create(
            trainee=flag.trainee,
            flagged_by=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
            skills=flag.skills,
            active=False,
            corrects=flag,
        )
    except ProductError as error:
        return refused(request, form, error, page)
    messages.success(request, "The retraining flag is lifted.")
    return redirect("pit:trainee_retraining", trainee_id=flag.trainee_id)


@require_POST
@pit_view(write=True)
def trainee_certify(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """The sign-off page's form; refused, the page again with the reason at the form."""
    trainee = _trainee(request, trainee_id)
    form = SignOffForm(request.POST, attempts=evidence.exam_attempts_for(trainee=trainee))
    if not form.is_valid():
        return _sign_off(request, trainee_id, form=form, status=400)
    data = form.cleaned_data
    try:
        certification = reviews.certification_sign(
            trainee=trainee,
            profile=data["profile"],
            attempt=data["attempt"],
            signer=request.user,  # type: ignore[arg-type]
            password=data["password"],
            statement=data["statement"],
            request=request,
            override_reason=data["override_reason"],
            fast_acknowledged=data["acknowledge_fast"],
        )
    except ProductError as error:
        return refused(
            request,
            form,
            error,
            lambda status: _sign_off(request, trainee_id, form=form, status=status),
        )
    messages.success(
        request,
        f"Signed by {certification.signer_full_name}: {trainee.get_full_name()} is certified "
        f"to deal {profile_label(certification.profile)} until "
        f"{day(certification.expires_at)}.",
    )
    return redirect("pit:trainee_certification", trainee_id=trainee.pk)


@require_POST
@pit_view(write=True)
def certification_withdraw(request: HttpRequest, certification_id: int) -> HttpResponse:
    visible = visibility.trainees_visible_to(user=request.user)
    certification = (
        Certification.objects.select_related("trainee", "profile")
        .filter(pk=certification_id, trainee__in=visible)
        .first()
    )
    if certification is None:
        raise Http404("no such certification among your trainees'")
    form = WithdrawForm(request.POST)
    page = section_with(request, certification.trainee_id, "certification", withdraw_form=form)
    if not form.is_valid():
        return page(status=400)
    try:
        reviews.certification_withdraw(
            certification=certification,
            signer=request.user,  # type: ignore[arg-type]
            password=form.cleaned_data["password"],
            statement=form.cleaned_data["statement"],
            request=request,
        )
    except ProductError as error:
        return refused(request, form, error, page)
    messages.success(request, "The certification is withdrawn.")
    return redirect("pit:trainee_certification", trainee_id=certification.trainee_id)
