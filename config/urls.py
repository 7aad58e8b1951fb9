from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import accounts
from config.health import healthz
from trainer.api.exceptions import endpoint_not_found

# The API, one namespace ("api"): the trainee's endpoints (trainer), the instructor's and
# administrator's (teaching), and last a JSON 404 for every other URL under /api/, not the
# site's HTML page.
api_urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("trainer.api.urls")),
    path("", include("teaching.api.urls")),
    re_path(r"^", endpoint_not_found, name="no-endpoint"),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The admin's own password change checks the current password without the lockout:
    # its link leads to the product's page, which counts wrong ones (config.accounts).
    path("admin/password_change/", RedirectView.as_view(pattern_name="password_change")),
    path("admin/", admin.site.urls),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password views (config.accounts keeps them inside the lockout).
    path(
        "accounts/password/change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        accounts.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file of its own, and the
    # template its style: the Content-Security-Policy admits neither inline.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    path("api/", include((api_urlpatterns, "api"))),
    path("train/record/", include("audit.web.record_urls")),
    path("train/live/", include("teaching.web.live.seat")),
    path("train/", include("trainer.web.urls")),
    path("pit/", include("audit.web.urls")),
    path("teach/", include("teaching.web.workspace.urls")),
    path("compliance/", include("audit.web.compliance_urls")),
    path("administration/", include("teaching.web.administration.urls")),
    # Certificates: the public verify page and the credentials' documents (no sign-in),
    # and each certification's PDF and credential (signed in).
    path("verify/", include("audit.web.verify_urls")),
    path("credentials/", include("audit.web.credential_urls")),
    path("", include("trainer.urls")),
]
# A refusal is logged as one line with who and why, then shown as templates/403.html.
# Under /api/ each of these answers the API's JSON error instead of a page (config.errors).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
