from django.urls import path

from audit.web import remediation_views, views

app_name = "pit"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("trainees/<int:trainee_id>/", views.trainee_detail, name="trainee"),
    path("trainees/<int:trainee_id>/flag/", views.trainee_flag, name="trainee_flag"),
    path("trainees/<int:trainee_id>/certify/", views.trainee_certify, name="trainee_certify"),
    path("trainees/<int:trainee_id>/record.pdf", views.trainee_record, name="trainee_record"),
    path("flags/<int:flag_id>/lift/", views.flag_lift, name="flag_lift"),
    path(
        "trainees/<int:trainee_id>/refresher/",
        remediation_views.trainee_refresher,
        name="trainee_refresher",
    ),
    path("flags/<int:flag_id>/refresher/", remediation_views.flag_refresher, name="flag_refresher"),
    path(
        "certifications/<int:certification_id>/withdraw/",
        views.certification_withdraw,
        name="certification_withdraw",
    ),
    path("grades/<int:grade_id>/", views.grade_detail, name="grade"),
    path("grades/<int:grade_id>/review/", views.grade_review, name="grade_review"),
]
