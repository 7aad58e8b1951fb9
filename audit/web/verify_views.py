"""The public verify page (docs/security.md, *Certificates anyone can verify*): no
sign-in, rate-limited per client address, nothing listed. A code answers with the
certificate's standing or, for any code no certificate has, the one same sentence; a
pasted credential with whether its signature and status hold. The credentials' public
documents (the issuer, its keys, the status list) are here too."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from audit.selectors.certificates import State, certificate_standing
from audit.services.certificates import code_read, code_shown
from audit.services.credential_key import jwks
from audit.services.credentials import (
    credential_check,
    issuer_profile,
    status_list_issue,
)
from core.dates import house_minute, zone_statement
from core.throttle import throttle_hit

NOT_FOUND = "No certificate has this code."


def _throttled(request: HttpRequest) -> HttpResponse | None:
    wait = throttle_hit(
        request,
        scope="verify",
        limit=settings.SHOESCHOOL_VERIFY_LIMIT,
        window=settings.SHOESCHOOL_VERIFY_WINDOW_SECONDS,
    )
    if wait is None:
        return None
    minutes = max(1, round(wait / 60))
    response = render(
        request,
        "audit/verify/too_many.html",
        {"minutes": minutes},
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def verify_form(request: HttpRequest) -> HttpResponse:
    """The form to type a code (posted here, then shown at its own address)."""
    if request.method == "POST":
        typed = request.POST.get("code", "")[:64]
        code = code_read(typed)
        if code is not None:
            return redirect("verify:code", code_shown(code))
        limited = _throttled(request)
        if limited is not None:
            return limited
        return _page(request, {"typed": typed, "missing": True}, status=404)
    return _page(request, {})


@require_GET
def verify_code(request: HttpRequest, code: str) -> HttpResponse:
    limited = _throttled(request)
    if limited is not None:
        return limited
    standing = certificate_standing(code_read(code[:64]))
    if standing is None:
        return _page(request, {"typed": code[:64], "missing": True}, status=404)
    return _page(request, {"standing": standing, **_words(standing)})


@require_http_methods(["GET", "POST"])
def verify_credential(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _page(request, {})
    limited = _throttled(request)
    if limited is not None:
        return limited
    check = credential_check(request.POST.get("credential", ""))
    return _page(request, {"check": check, "pasted": True})


def _words(standing: Any) -> dict[str, Any]:
    return {
        "code": code_shown(standing.certificate.code),
        "signed": house_minute(standing.signed_at) if standing.signed_at else "",
        "until": house_minute(standing.expires_at) if standing.expires_at else "",
        "ended": house_minute(standing.ended_at) if standing.ended_at else "",
    }


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context = {
        "State": {state.name: state.value for state in State},
        "not_found": NOT_FOUND,
        "zone": zone_statement(),
        **context,
    }
    response = render(request, "audit/verify/page.html", context, status=status)
    # What a code shows is not kept by a shared browser or proxy (the site's referrer
    # policy, same-origin, already keeps the code's address from other sites; no-referrer
    # would make the forms' posts fail their origin check).
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def issuer(request: HttpRequest) -> JsonResponse:
    return JsonResponse(issuer_profile(), content_type="application/ld+json")


@require_GET
def public_keys(request: HttpRequest) -> JsonResponse:
    return JsonResponse(jwks(), content_type="application/jwk-set+json")


@require_GET
def status_list(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(status_list_issue(), content_type="application/vc+jwt")
    response["Cache-Control"] = "max-age=300"
    return response


@require_GET
def achievement(request: HttpRequest, name: str) -> HttpResponse:
    """An achievement's id resolves to the verify page's form: what it is is in the
    credential itself."""
    return redirect("verify:form")
