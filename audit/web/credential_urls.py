from django.urls import path

from audit.web import certificate_views, verify_views

app_name = "credentials"

urlpatterns = [
    path("issuer/", verify_views.issuer, name="issuer"),
    path("jwks.json", verify_views.public_keys, name="jwks"),
    path("status/", verify_views.status_list, name="status"),
    path("achievements/<slug:name>/", verify_views.achievement, name="achievement"),
    path(
        "certifications/<id:certification_id>/certificate.pdf",
        certificate_views.certificate_pdf,
        name="certificate_pdf",
    ),
    path(
        "certifications/<id:certification_id>/credential.jwt",
        certificate_views.certificate_credential,
        name="certificate_credential",
    ),
]
