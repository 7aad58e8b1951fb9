from django.urls import path

from audit.web import verify_views

app_name = "verify"

urlpatterns = [
    path("", verify_views.verify_form, name="form"),
    path("credential/", verify_views.verify_credential, name="credential"),
    path("<str:code>/", verify_views.verify_code, name="code"),
]
