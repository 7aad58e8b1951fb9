"""A trainee of another instructor's class under /teach/classes/: asking for them (a join
request), their instructor's answer (on the classes page), and an administrator's transfer
(on the class's page). The services judge who may (docs/security.md, *Class boundaries*)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_POST

from core.errors import ForbiddenError, ProductError
from core.roles import Role, has_role
from teaching.selectors import classes as selectors
from teaching.services import classes as services
from teaching.web.workspace.classes import _actor, _class_page, manager
from teaching.web.workspace.forms import JoinRequestForm, TransferForm, error_at_field


@require_POST
@manager
def join_request_create(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = JoinRequestForm(request.POST)
    if form.is_valid():
        try:
            trainee = selectors.trainee_by_username(username=form.cleaned_data["username"])
            services.class_join_request_create(
                actor=_actor(request),
                training_class=training_class,
                trainee=trainee,
                note=form.cleaned_data["note"],
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(
                request,
                f"Asked for {trainee.get_username()}: they join {training_class.name} when "
                "their instructor accepts.",
            )
            return redirect("teach:class", class_id=training_class.pk)
    return _class_page(request, training_class, join_form=form, status=400)


@require_POST
@manager
def join_request_answer(request: HttpRequest, request_id: int, answer: str) -> HttpResponse:
    found = selectors.join_request_get_for_answer(request_id=request_id, user=request.user)
    accept = answer == "accept"
    decide = services.class_join_request_accept if accept else services.class_join_request_decline
    try:
        decide(actor=_actor(request), request=found)
    except ProductError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
    else:
        name = found.trainee.get_username()
        if accept:
            messages.success(request, f"Accepted: {name} joins {found.training_class.name} too.")
        else:
            messages.success(request, f"Declined: {name} stays where they are.")
    return redirect("teach:classes")


@require_POST
@manager
def class_transfer(request: HttpRequest, class_id: int) -> HttpResponse:
    if not has_role(request.user, Role.ADMIN):
        raise ForbiddenError("only an administrator transfers a trainee between classes")
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = TransferForm(request.POST)
    if form.is_valid():
        try:
            trainee = selectors.trainee_by_username(username=form.cleaned_data["username"])
            left = services.class_trainee_transfer(
                actor=_actor(request), training_class=training_class, trainee=trainee
            )
        except ProductError as error:
            if error.status == 403:
                raise
            error_at_field(form, error)
        else:
            where = f" (they left {', '.join(left)})" if left else ""
            messages.success(
                request, f"{trainee.get_username()} moved to {training_class.name}{where}."
            )
            return redirect("teach:class", class_id=training_class.pk)
    return _class_page(request, training_class, transfer_form=form, status=400)


urlpatterns = [
    path(
        "classes/<id:class_id>/join-requests/",
        join_request_create,
        name="class_join_request",
    ),
    path(
        "classes/join-requests/<id:request_id>/accept/",
        join_request_answer,
        {"answer": "accept"},
        name="join_request_accept",
    ),
    path(
        "classes/join-requests/<id:request_id>/decline/",
        join_request_answer,
        {"answer": "decline"},
        name="join_request_decline",
    ),
    path("classes/<id:class_id>/transfer/", class_transfer, name="class_transfer"),
]
