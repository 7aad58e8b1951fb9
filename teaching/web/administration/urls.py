"""/administration/: people, then classes."""

from django.urls import URLPattern, URLResolver

from teaching.web.administration import classes, people

app_name = "administration"

urlpatterns: list[URLPattern | URLResolver] = [*people.urlpatterns, *classes.urlpatterns]
