"""Who may open a page, and the domain error mapped to HTTP, for every page in one place."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase

from core.errors import ProductError
from core.roles import Role, has_role

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponseBase)
Page = Callable[Concatenate[HttpRequest, P], R]


def role_required(*roles: Role, refusal: str) -> Callable[[Page[P, R]], Page[P, R]]:
    """Signed in (else to the login page) and holding one of the roles (else 403 with the
    refusal); a ProductError that means "not found" or "not allowed" becomes Django's 404
    or 403, so someone else's id answers exactly as a missing one. Other ProductErrors
    reach the view's own handling."""

    def decorate(view: Page[P, R]) -> Page[P, R]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> R:
            if not has_role(request.user, *roles):
                raise PermissionDenied(refusal)
            try:
                return view(request, *args, **kwargs)
            except ProductError as error:
                if error.status == 404:
                    raise Http404(error.message) from error
                if error.status == 403:
                    raise PermissionDenied(error.message) from error
                raise

        return login_required(wrapper)

    return decorate
