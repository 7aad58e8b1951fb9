"""/house-rules/: an administrator's pages for the tables' rules (issue #24)."""

from django.urls import URLPattern, path

from trainer.web.house_rules import views

app_name = "house_rules"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("<slug:name>/", views.table, name="table"),
    path("<slug:name>/change/", views.change, name="change"),
    path("<slug:name>/copy/", views.copy, name="copy"),
    path("<slug:name>/practical/", views.practical, name="practical"),
]
