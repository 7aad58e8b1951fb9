"""Classes under /administration/classes/: every class with its instructors, one class's
instructors chosen (several per class), and moving a trainee between classes (the
administrators' transfer). The roster itself (add, invite, remove) is the class's page
under /teach/classes/, which administrators open for every class."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import ProductError
from teaching.selectors import classes as class_selectors
from teaching.selectors import people as selectors
from teaching.services import classes as services
from teaching.web.administration.forms import InstructorForm, MoveForm, person_label
from teaching.web.administration.people import actor_of, administrator
from teaching.web.workspace.forms import error_at_field
from trainer.models import TrainingClass


@require_GET
@administrator
def class_list(request: HttpRequest) -> HttpResponse:
    classes = list(
        class_selectors.classes_managed_by(user=request.user).prefetch_related("instructors")
    )
    return render(request, "trainer/administration/classes.html", {"classes": classes})


def _class_page(
    request: HttpRequest,
    training_class: TrainingClass,
    *,
    form: InstructorForm | None = None,
    status: int = 200,
) -> HttpResponse:
    instructors = list(class_selectors.class_instructors(training_class=training_class))
    choices = selectors.pit_bosses(user=request.user).exclude(
        pk__in=[person.pk for person in instructors]
    )
    context = {
        "training_class": training_class,
        "instructors": instructors,
        "roster": list(class_selectors.class_roster(training_class=training_class)),
        "form": form or InstructorForm(pit_bosses=choices),
        "no_pit_boss_left": not choices.exists(),
    }
    return render(request, "trainer/administration/class.html", context, status=status)


@require_GET
@administrator
def class_detail(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = class_selectors.class_get_for_manager(class_id=class_id, user=request.user)
    return _class_page(request, training_class)


@require_POST
@administrator
def instructor_add(request: HttpRequest, class_id: int) -> HttpResponse:
    training_class = class_selectors.class_get_for_manager(class_id=class_id, user=request.user)
    form = InstructorForm(request.POST, pit_bosses=selectors.pit_bosses(user=request.user))
    if form.is_valid():
        person = form.cleaned_data["instructor"]
        try:
            services.class_instructor_add(
                actor=actor_of(request), training_class=training_class, instructor=person
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(request, f"{person_label(person)} now teaches {training_class.name}.")
            return redirect("administration:class", class_id=training_class.pk)
    return _class_page(request, training_class, form=form, status=400)


@require_POST
@administrator
def instructor_remove(request: HttpRequest, class_id: int, instructor_id: int) -> HttpResponse:
    training_class = class_selectors.class_get_for_manager(class_id=class_id, user=request.user)
    person = training_class.instructors.filter(pk=instructor_id).first()
    if person is None:
        messages.error(request, f"That pit boss does not teach {training_class.name}.")
        return _class_page(request, training_class, status=404)
    services.class_instructor_remove(
        actor=actor_of(request), training_class=training_class, instructor=person
    )
    messages.success(request, f"{person_label(person)} no longer teaches {training_class.name}.")
    return redirect("administration:class", class_id=training_class.pk)


@require_http_methods(["GET", "POST"])
@administrator
def trainee_move(request: HttpRequest) -> HttpResponse:
    """Move a trainee to another class: off every other class, onto this one."""
    trainees = selectors.trainees_all(user=request.user).prefetch_related("classes_attended")
    classes = class_selectors.classes_managed_by(user=request.user)
    initial = {"trainee": request.GET.get("trainee"), "training_class": request.GET.get("to")}
    form = MoveForm(
        request.POST or None,
        initial={k: v for k, v in initial.items() if v and v.isdigit()},
        trainees=trainees,
        classes=classes,
    )
    if request.method == "POST" and form.is_valid():
        trainee = form.cleaned_data["trainee"]
        destination = form.cleaned_data["training_class"]
        try:
            left = services.class_trainee_transfer(
                actor=actor_of(request), training_class=destination, trainee=trainee
            )
        except ProductError as error:
            form.add_error("trainee" if error.status != 409 else None, error.message)
        else:
            where = f" (they left {', '.join(left)})" if left else ""
            messages.success(
                request, f"{person_label(trainee)} moved to {destination.name}{where}."
            )
            return redirect("administration:class", class_id=destination.pk)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "trainees": list(trainees)}
    return render(request, "trainer/administration/move.html", context, status=status)


urlpatterns = [
    path("classes/", class_list, name="classes"),
    path("classes/move/", trainee_move, name="trainee_move"),
    path("classes/<id:class_id>/", class_detail, name="class"),
    path("classes/<id:class_id>/instructors/", instructor_add, name="class_instructor_add"),
    path(
        "classes/<id:class_id>/instructors/<id:instructor_id>/remove/",
        instructor_remove,
        name="class_instructor_remove",
    ),
]
