"""People under /administration/: the Administration front page, the list of accounts, a
new person, and one person's page (roles, closing and opening the account, clearing a
lockout, sending the invitation again). A refusal of the service (acting on oneself, the
last administrator, an account already so) is shown on the person's page with its status."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import pages
from core.access import role_required
from core.errors import ProductError
from core.links import link_validity_words
from teaching.selectors import people as selectors
from teaching.services import people as services
from teaching.web.administration.forms import PeopleFilterForm, PersonForm, RolesForm
from teaching.web.workspace.classes import link_base
from teaching.web.workspace.forms import error_at_field

administrator = role_required(*pages.ADMINISTRATION.roles, refusal=pages.ADMINISTRATION.refusal)


def actor_of(request: HttpRequest) -> AbstractBaseUser:
    user: AbstractBaseUser = request.user  # type: ignore[assignment]
    return user


@require_GET
@administrator
def index(request: HttpRequest) -> HttpResponse:
    context = {"waiting": selectors.people_waiting(user=request.user)}
    return render(request, "trainer/administration/index.html", context)


@require_GET
@administrator
def people_list(request: HttpRequest) -> HttpResponse:
    form = PeopleFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    rows = selectors.people_list(
        user=request.user,
        role=filters.get("role", ""),
        status=filters.get("status", ""),
        search=filters.get("q", ""),
    )
    return render(request, "trainer/administration/people.html", {"form": form, "rows": rows})


@require_http_methods(["GET", "POST"])
@administrator
def person_create(request: HttpRequest) -> HttpResponse:
    form = PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = services.person_create(
                actor=actor_of(request), link_base=link_base(request), **form.cleaned_data
            )
        except ProductError as error:
            error_at_field(form, error)
        else:
            messages.success(
                request,
                f"{made.get_username()} added: an e-mail with a link to choose a password "
                f"went to {made.email}. The link works for {link_validity_words()}.",
            )
            return redirect("administration:person", person_id=made.pk)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "link_validity": link_validity_words()}
    return render(request, "trainer/administration/person_create.html", context, status=status)


def _person_page(
    request: HttpRequest,
    person_id: int,
    *,
    roles_form: RolesForm | None = None,
    status: int = 200,
) -> HttpResponse:
    row = selectors.person_get(user=request.user, person_id=person_id)
    context = {
        "row": row,
        "person": row.user,
        "is_self": row.user.pk == request.user.pk,
        "roles_form": roles_form or RolesForm(initial={"roles": [r.value for r in row.roles]}),
        "link_validity": link_validity_words(),
    }
    return render(request, "trainer/administration/person.html", context, status=status)


@require_GET
@administrator
def person_detail(request: HttpRequest, person_id: int) -> HttpResponse:
    return _person_page(request, person_id)


@require_POST
@administrator
def person_roles(request: HttpRequest, person_id: int) -> HttpResponse:
    row = selectors.person_get(user=request.user, person_id=person_id)
    form = RolesForm(request.POST)
    if form.is_valid():
        try:
            services.person_roles_set(
                actor=actor_of(request), person=row.user, roles=form.cleaned_data["roles"]
            )
        except ProductError as error:
            error_at_field(form, error)
            return _person_page(request, person_id, roles_form=form, status=error.status)
        messages.success(request, f"{row.user.get_username()}'s roles saved.")
        return redirect("administration:person", person_id=person_id)
    return _person_page(request, person_id, roles_form=form, status=400)


def _act(
    request: HttpRequest,
    person_id: int,
    act: Callable[[AbstractBaseUser, selectors.PersonRow], str],
) -> HttpResponse:
    """Run one of the person page's buttons: its success said, its refusal shown on the
    page with the refusal's status (never a bare error page for an administrator)."""
    row = selectors.person_get(user=request.user, person_id=person_id)
    try:
        said = act(actor_of(request), row)
    except ProductError as error:
        messages.error(request, error.message)
        return _person_page(request, person_id, status=error.status)
    messages.success(request, said)
    return redirect("administration:person", person_id=person_id)


@require_POST
@administrator
def person_deactivate(request: HttpRequest, person_id: int) -> HttpResponse:
    def act(actor: AbstractBaseUser, row: selectors.PersonRow) -> str:
        services.person_deactivate(actor=actor, person=row.user)
        return f"{row.user.get_username()}'s account is closed: they can no longer sign in."

    return _act(request, person_id, act)


@require_POST
@administrator
def person_reactivate(request: HttpRequest, person_id: int) -> HttpResponse:
    def act(actor: AbstractBaseUser, row: selectors.PersonRow) -> str:
        services.person_reactivate(actor=actor, person=row.user)
        return f"{row.user.get_username()}'s account is open again."

    return _act(request, person_id, act)


@require_POST
@administrator
def person_unlock(request: HttpRequest, person_id: int) -> HttpResponse:
    def act(actor: AbstractBaseUser, row: selectors.PersonRow) -> str:
        services.person_unlock(actor=actor, person=row.user)
        return f"{row.user.get_username()} is unlocked: they can sign in now."

    return _act(request, person_id, act)


@require_POST
@administrator
def person_invitation(request: HttpRequest, person_id: int) -> HttpResponse:
    def act(actor: AbstractBaseUser, row: selectors.PersonRow) -> str:
        services.person_invitation_resend(
            actor=actor, person=row.user, link_base=link_base(request)
        )
        return f"A new link went to {row.user.email}; it works for {link_validity_words()}."

    return _act(request, person_id, act)


urlpatterns = [
    path("", index, name="index"),
    path("people/", people_list, name="people"),
    path("people/new/", person_create, name="person_create"),
    path("people/<id:person_id>/", person_detail, name="person"),
    path("people/<id:person_id>/roles/", person_roles, name="person_roles"),
    path("people/<id:person_id>/close/", person_deactivate, name="person_deactivate"),
    path("people/<id:person_id>/open/", person_reactivate, name="person_reactivate"),
    path("people/<id:person_id>/unlock/", person_unlock, name="person_unlock"),
    path("people/<id:person_id>/invitation/", person_invitation, name="person_invitation"),
]
