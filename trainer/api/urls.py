from django.urls import path, re_path

from trainer.api import classes, views
from trainer.api.exceptions import endpoint_not_found

app_name = "api"

urlpatterns = [
    path("assignments/", views.AssignmentListView.as_view(), name="assignments"),
    path("attempts/", views.AttemptListView.as_view(), name="attempts"),
    path("attempts/<int:attempt_id>/", views.AttemptDetailView.as_view(), name="attempt"),
    path(
        "attempts/<int:attempt_id>/question",
        views.AttemptQuestionView.as_view(),
        name="attempt-question",
    ),
    path(
        "attempts/<int:attempt_id>/answers",
        views.AttemptAnswerView.as_view(),
        name="attempt-answers",
    ),
    path(
        "attempts/<int:attempt_id>/submit", views.AttemptSubmitView.as_view(), name="attempt-submit"
    ),
    path(
        "attempts/<int:attempt_id>/results",
        views.AttemptResultsView.as_view(),
        name="attempt-results",
    ),
    # Classes and rosters: pit bosses and administrators.
    path("classes/", classes.ClassListView.as_view(), name="classes"),
    path("classes/roster/", classes.RosterImportView.as_view(), name="roster-import"),
    path("classes/<int:class_id>/", classes.ClassDetailView.as_view(), name="class"),
    path(
        "classes/<int:class_id>/trainees/",
        classes.ClassTraineesView.as_view(),
        name="class-trainees",
    ),
    path(
        "classes/<int:class_id>/trainees/<int:trainee_id>/",
        classes.ClassTraineeView.as_view(),
        name="class-trainee",
    ),
    path(
        "classes/<int:class_id>/invitations/",
        classes.ClassInvitationsView.as_view(),
        name="class-invitations",
    ),
    # Last: every other URL under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^", endpoint_not_found, name="no-endpoint"),
]
