"""A certification's certificate (PDF) and credential (Open Badges 3.0, signed), for
whoever may read the certification: the trainee, their class's pit bosses, compliance
and administrators (audit.services.certificate_pdf)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from audit.selectors.certificates import certification_get_for_reader
from audit.services.certificate_pdf import certificate_pdf as make_pdf
from audit.services.certificates import certificate_of, code_shown
from audit.services.credentials import credential_issue
from core.access import role_required
from core.roles import Role

READERS = (Role.TRAINEE, Role.PIT_BOSS, Role.COMPLIANCE, Role.ADMIN)
REFUSAL = "a certificate is for its trainee, their pit bosses and compliance"


@require_GET
@role_required(*READERS, refusal=REFUSAL)
def certificate_pdf(request: HttpRequest, certification_id: int) -> HttpResponse:
    certification = certification_get_for_reader(
        certification_id=certification_id, user=request.user
    )
    certificate, data = make_pdf(certification=certification)
    response = HttpResponse(data, content_type="application/pdf")
    name = f"certificate-{code_shown(certificate.code)}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
@role_required(*READERS, refusal=REFUSAL)
def certificate_credential(request: HttpRequest, certification_id: int) -> HttpResponse:
    certification = certification_get_for_reader(
        certification_id=certification_id, user=request.user
    )
    certificate = certificate_of(certification=certification)
    response = HttpResponse(
        credential_issue(certificate=certificate), content_type="application/vc+jwt"
    )
    name = f"credential-{code_shown(certificate.code)}.jwt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
