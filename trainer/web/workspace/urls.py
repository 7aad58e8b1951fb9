"""/teach/: each concern of the workspace adds its own URL list here."""

from django.urls import URLPattern, URLResolver, path

from trainer.web.workspace import classes, views

app_name = "teach"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    *classes.urlpatterns,
]
