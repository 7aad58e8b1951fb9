"""Classes and rosters under /teach/classes/: the list, a new class, a class's roster
(add an existing trainee, invite a new one, remove one after a confirmation) and a roster
file applied whole or not at all, with the CSV template to fill in."""

from __future__ import annotations

import csv
import io

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import pages
from core.access import role_required
from core.errors import ProductError
from core.postgres import csv_formula_safe
from core.roles import Role, has_role
from teaching.selectors import classes as selectors
from teaching.services import classes as services
from teaching.web.workspace.forms import (
    ClassForm,
    InviteForm,
    JoinRequestForm,
    RosterForm,
    TraineeAddForm,
    TransferForm,
    error_at_field,
)
from trainer.models import TrainingClass

manager = role_required(*pages.WORKSPACE.roles, refusal=pages.WORKSPACE.refusal)


def _actor(request: HttpRequest) -> AbstractBaseUser:
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


def link_base(request: HttpRequest) -> str:
    """The site's address as this person reached it: where an invitation's link points."""
    return request.build_absolute_uri("/").rstrip("/")


@require_GET
@manager
def class_list(request: HttpRequest) -> HttpResponse:
    classes = list(selectors.classes_managed_by(user=request.user))
    waiting = selectors.join_requests_waiting_for(user=request.user)
    context = {"classes": classes, "waiting": waiting}
    return render(request, "trainer/workspace/classes.html", context)


@require_http_methods(["GET", "POST"])
@manager
def class_create(request: HttpRequest) -> HttpResponse:
    form = ClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.training_class_create(
                actor=_actor(request), name=form.cleaned_data["name"]
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(request, f"Class {created.name} created.")
            return redirect("teach:class", class_id=created.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "trainer/workspace/class_create.html", {"form": form}, status=status)


def _class_page(
    request: HttpRequest,
    training_class: TrainingClass,
    *,
    add_form: TraineeAddForm | None = None,
    invite_form: InviteForm | None = None,
    rename_form: ClassForm | None = None,
    join_form: JoinRequestForm | None = None,
    transfer_form: TransferForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "join_form": join_form or JoinRequestForm(),
        "transfer_form": transfer_form or TransferForm(),
        "may_transfer": has_role(request.user, Role.ADMIN),
        "requests_sent": list(selectors.join_requests_sent_for(training_class=training_class)),
        "training_class": training_class,
        "roster": list(selectors.class_roster(training_class=training_class)),
        "instructors": list(selectors.class_instructors(training_class=training_class)),
        "add_form": add_form or TraineeAddForm(),
        "invite_form": invite_form or InviteForm(),
        "rename_form": rename_form or ClassForm(initial={"name": training_class.name}),
    }
    return render(request, "trainer/workspace/class.html", context, status=status)


@require_GET
@manager
def class_detail(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    return _class_page(request, training_class)


@require_POST
@manager
def class_rename(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = ClassForm(request.POST)
    if form.is_valid():
        try:
            services.training_class_rename(
                actor=_actor(request), training_class=training_class, name=form.cleaned_data["name"]
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(request, f"Renamed to {training_class.name}.")
            return redirect("teach:class", class_id=training_class.pk)
    training_class.refresh_from_db(fields=["name"])
    return _class_page(request, training_class, rename_form=form, status=400)


@require_POST
@manager
def class_trainee_add(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = TraineeAddForm(request.POST)
    if form.is_valid():
        try:
            trainee = selectors.trainee_by_username(username=form.cleaned_data["username"])
            services.class_trainee_add(
                actor=_actor(request), training_class=training_class, trainee=trainee
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(request, f"{trainee.get_username()} added to {training_class.name}.")
            return redirect("teach:class", class_id=training_class.pk)
    return _class_page(request, training_class, add_form=form, status=400)


@require_POST
@manager
def class_invite(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            trainee = services.trainee_invite(
                actor=_actor(request),
                training_class=training_class,
                link_base=link_base(request),
                **form.cleaned_data,
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(
                request,
                f"{trainee.get_username()} invited: an e-mail with a link to choose a password "
                f"went to {trainee.email}.",
            )
            return redirect("teach:class", class_id=training_class.pk)
    return _class_page(request, training_class, invite_form=form, status=400)


@require_http_methods(["GET", "POST"])
@manager
def class_trainee_remove(request: HttpRequest, class_id: int, trainee_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    trainee = selectors.class_trainee_get(training_class=training_class, trainee_id=trainee_id)
    if request.method == "POST":
        services.class_trainee_remove(
            actor=_actor(request), training_class=training_class, trainee=trainee
        )
        messages.success(request, f"{trainee.get_username()} removed from {training_class.name}.")
        return redirect("teach:class", class_id=training_class.pk)
    context = {"training_class": training_class, "trainee": trainee}
    return render(request, "trainer/workspace/class_remove.html", context)


@require_POST
@manager
def class_invitation_resend(request: HttpRequest, class_id: int, trainee_id: int) -> HttpResponse:
    training_class = selectors.class_get_for_manager(class_id=class_id, user=request.user)
    trainee = selectors.class_trainee_get(training_class=training_class, trainee_id=trainee_id)
    try:
        services.trainee_invitation_resend(
            actor=_actor(request),
            training_class=training_class,
            trainee=trainee,
            link_base=link_base(request),
        )
    except ProductError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
    else:
        messages.success(request, f"A new invitation went to {trainee.email}.")
    return redirect("teach:class", class_id=training_class.pk)


@require_http_methods(["GET", "POST"])
@manager
def roster_import(request: HttpRequest) -> HttpResponse:
    form = RosterForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                rows = services.roster_rows_from_csv(text=form.cleaned_data["file"])
                report = services.roster_import(
                    actor=_actor(request), rows=rows, link_base=link_base(request)
                )
            except ProductError as error:
                error_at_field(form, error)
            else:
                status = 200 if report.applied else 400
    context = {"form": form, "report": report, "columns": services.ROSTER_COLUMNS}
    return render(request, "trainer/workspace/roster_import.html", context, status=status)


@require_GET
@manager
def roster_template(request: HttpRequest) -> HttpResponse:
    """The CSV to fill in: the header and one example row per class this person runs."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(services.ROSTER_COLUMNS)
    for training_class in selectors.classes_managed_by(user=request.user)[:3]:
        example = ["jdoe", "Jane", "Doe", "jane.doe@example.com", training_class.name]
        writer.writerow([csv_formula_safe(cell) for cell in example])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="roster-template.csv"'
    return response


urlpatterns = [
    path("classes/", class_list, name="classes"),
    path("classes/new/", class_create, name="class_create"),
    path("classes/roster/", roster_import, name="roster_import"),
    path("classes/roster/template.csv", roster_template, name="roster_template"),
    path("classes/<id:class_id>/", class_detail, name="class"),
    path("classes/<id:class_id>/rename/", class_rename, name="class_rename"),
    path("classes/<id:class_id>/trainees/add/", class_trainee_add, name="class_trainee_add"),
    path("classes/<id:class_id>/trainees/invite/", class_invite, name="class_invite"),
    path(
        "classes/<id:class_id>/trainees/<id:trainee_id>/invite-again/",
        class_invitation_resend,
        name="class_invitation_resend",
    ),
    path(
        "classes/<id:class_id>/trainees/<id:trainee_id>/remove/",
        class_trainee_remove,
        name="class_trainee_remove",
    ),
]
