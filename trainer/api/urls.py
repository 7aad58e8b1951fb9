from django.urls import path

from trainer.api import house_rules, views

# The trainee's endpoints and the house rules, in the API's namespace ("api"), which
# config.urls composes with teaching's endpoints and the JSON 404 for any other URL.

urlpatterns = [
    path("assignments/", views.AssignmentListView.as_view(), name="assignments"),
    path("practice-drills/", views.PracticeDrillListView.as_view(), name="practice-drills"),
    path("attempts/", views.AttemptListView.as_view(), name="attempts"),
    path("attempts/<id:attempt_id>/", views.AttemptDetailView.as_view(), name="attempt"),
    path(
        "attempts/<id:attempt_id>/question",
        views.AttemptQuestionView.as_view(),
        name="attempt-question",
    ),
    path(
        "attempts/<id:attempt_id>/answers",
        views.AttemptAnswerView.as_view(),
        name="attempt-answers",
    ),
    path(
        "attempts/<id:attempt_id>/submit", views.AttemptSubmitView.as_view(), name="attempt-submit"
    ),
    path(
        "attempts/<id:attempt_id>/results",
        views.AttemptResultsView.as_view(),
        name="attempt-results",
    ),
    # House rules: administrators (issue #24).
    path("house-rules/", house_rules.HouseRulesListView.as_view(), name="house-rules"),
    path("house-rules/<slug:name>/", house_rules.HouseRuleDetailView.as_view(), name="house-rule"),
    path(
        "house-rules/<slug:name>/versions",
        house_rules.HouseRuleVersionsView.as_view(),
        name="house-rule-versions",
    ),
    path(
        "house-rules/<slug:name>/copy",
        house_rules.HouseRuleCopyView.as_view(),
        name="house-rule-copy",
    ),
]
