"""The trainee's pages under /train/."""

from django.urls import URLPattern, URLResolver, path

from trainer.web import views

app_name = "train"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("start/", views.start, name="start"),
    path("assignments/<id:assignment_id>/briefing/", views.briefing, name="briefing"),
    path("attempts/<id:attempt_id>/", views.table, name="table"),
    path("attempts/<id:attempt_id>/answer/", views.answer, name="answer"),
    path(
        "attempts/<id:attempt_id>/rounds/<id:position>/feedback/",
        views.feedback,
        name="feedback",
    ),
    path("attempts/<id:attempt_id>/submit/", views.submit, name="submit"),
    path("attempts/<id:attempt_id>/results/", views.results, name="results"),
]
