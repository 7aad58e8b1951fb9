"""/teach/: each concern of the workspace adds its own URL list here."""

from django.urls import URLPattern, URLResolver, include, path

from teaching.web.live import driver as live_driver
from teaching.web.live import summary as live_summary
from teaching.web.workspace import (
    assignments,
    class_requests,
    classes,
    drill_page,
    drills,
    scenarios,
    views,
)

app_name = "teach"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("", include(drills.urlpatterns)),
    path("", include(drill_page.urlpatterns)),
    path("", include(scenarios.urlpatterns)),
    *assignments.urlpatterns,
    *classes.urlpatterns,
    *class_requests.urlpatterns,
    # The summary's URLs before the buttons' (live/<id>/<action>/).
    *live_summary.urlpatterns,
    *live_driver.urlpatterns,
]
