"""Signature authority in the pit: every signer's rank and licence number, and each
person's signature card (what forms they may sign under the jurisdiction in force),
printable for the personnel file; an administrator records a rank and licence number on
the card (audit.services.authority)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from audit.authority import Rank, card_lines, card_name, jurisdiction_in_force
from audit.forms import SignerAuthorityForm
from audit.selectors import authority as authority_sel
from audit.services.authority import signer_profile_set
from audit.web.pit_common import minute, pit_view
from core.access import role_required
from core.errors import ProductError
from core.roles import Role, has_role, roles_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _person(request: HttpRequest, person_id: int) -> User:
    """A signer; for an administrator, anyone (a dealer's rank is recorded before they sign
    anything)."""
    people = (
        get_user_model().objects.all()
        if has_role(request.user, Role.ADMIN)
        else authority_sel.signers()
    )
    person = people.filter(pk=person_id).first()
    if person is None:
        raise Http404("no such signer")
    return person


@require_GET
@pit_view()
def signers(request: HttpRequest) -> HttpResponse:
    """Everyone who signs, with their rank and licence number."""
    people = list(authority_sel.signers())
    profiles = authority_sel.signer_profiles_in_force(person_ids=[p.pk for p in people])
    rows = []
    for person in people:
        profile = profiles.get(person.pk)
        rows.append(
            {
                "person": person,
                "rank": Rank(profile.rank).label if profile else "",
                "licence": profile.licence_number if profile else "",
                "roles": ", ".join(sorted(role.label for role in roles_of(person))),
            }
        )
    return render(
        request,
        "audit/pit/signers.html",
        {"rows": rows, "jurisdiction": jurisdiction_in_force()},
    )


def _card(
    request: HttpRequest, person_id: int, *, form: Any = None, status: int = 200
) -> HttpResponse:
    person = _person(request, person_id)
    profile = authority_sel.signer_profile_of(person_id=person.pk)
    authority = authority_sel.authority_of(profile)
    jurisdiction = jurisdiction_in_force()
    may_set = has_role(request.user, Role.ADMIN) and request.user.pk != person.pk
    if may_set and form is None:
        initial = (
            {"rank": profile.rank, "licence_number": profile.licence_number} if profile else {}
        )
        form = SignerAuthorityForm(initial=initial)
    context = {
        "person": person,
        "card_name": card_name(person.first_name, person.last_name),
        "profile": profile,
        "rank": authority.rank.label if authority.rank else "",
        "lines": card_lines(authority=authority, jurisdiction=jurisdiction),
        "jurisdiction": jurisdiction,
        "history": [
            {"row": row, "rank": Rank(row.rank).label, "when": minute(row.set_at)}
            for row in authority_sel.signer_profile_history(person_id=person.pk)
        ],
        "form": form if may_set else None,
    }
    return render(request, "audit/pit/signer_card.html", context, status=status)


@require_GET
@pit_view()
def signer_card(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person's signature card."""
    return _card(request, person_id)


@require_POST
@role_required(Role.ADMIN, refusal="only an administrator records a signer's rank")
def signer_authority_set(request: HttpRequest, person_id: int) -> HttpResponse:
    person = _person(request, person_id)
    form = SignerAuthorityForm(request.POST)
    if not form.is_valid():
        return _card(request, person_id, form=form, status=400)
    try:
        signer_profile_set(
            actor=request.user,  # type: ignore[arg-type]
            person=person,
            rank=form.cleaned_data["rank"],
            licence_number=form.cleaned_data["licence_number"],
        )
    except ProductError as error:
        if error.status == 404:
            raise
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return _card(request, person_id, form=form, status=error.status)
    messages.success(request, f"{person.get_full_name()}'s rank and licence number are recorded.")
    return redirect("pit:signer_card", person_id=person.pk)
