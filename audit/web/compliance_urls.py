from django.urls import path

from audit.web import compliance_views as views

app_name = "compliance"

urlpatterns = [
    path("", views.index, name="index"),
    path("reports/", views.report_request, name="report_request"),
    path("reports/<id:report_id>/download/", views.report_download, name="report_download"),
    path("verify/", views.verify, name="verify"),
    path("self-check/", views.self_check, name="self_check"),
]
