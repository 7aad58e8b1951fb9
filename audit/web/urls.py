from django.urls import path

from audit.web import (
    practical_views,
    queue_views,
    remediation_views,
    signer_views,
    trainee_actions,
    trainee_views,
    views,
)

app_name = "pit"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("queue/", queue_views.review_queue, name="queue"),
    path("queue/next/", queue_views.queue_next, name="queue_next"),
    path("trainees/<id:trainee_id>/", trainee_views.trainee_detail, name="trainee"),
    path(
        "trainees/<id:trainee_id>/mistakes/",
        trainee_views.trainee_mistakes,
        name="trainee_mistakes",
    ),
    path(
        "trainees/<id:trainee_id>/retraining/",
        trainee_views.trainee_retraining,
        name="trainee_retraining",
    ),
    path(
        "trainees/<id:trainee_id>/certification/",
        trainee_views.trainee_certification,
        name="trainee_certification",
    ),
    path(
        "trainees/<id:trainee_id>/sign-off/",
        trainee_views.trainee_sign_off,
        name="trainee_sign_off",
    ),
    path(
        "trainees/<id:trainee_id>/practical/",
        practical_views.trainee_practical,
        name="trainee_practical",
    ),
    path("trainees/<id:trainee_id>/flag/", trainee_actions.trainee_flag, name="trainee_flag"),
    path(
        "trainees/<id:trainee_id>/certify/",
        trainee_actions.trainee_certify,
        name="trainee_certify",
    ),
    path("trainees/<id:trainee_id>/record.pdf", views.trainee_record, name="trainee_record"),
    path("flags/<id:flag_id>/lift/", trainee_actions.flag_lift, name="flag_lift"),
    path(
        "trainees/<id:trainee_id>/refresher/",
        remediation_views.trainee_refresher,
        name="trainee_refresher",
    ),
    path("flags/<id:flag_id>/refresher/", remediation_views.flag_refresher, name="flag_refresher"),
    path(
        "certifications/<id:certification_id>/withdraw/",
        trainee_actions.certification_withdraw,
        name="certification_withdraw",
    ),
    path("signers/", signer_views.signers, name="signers"),
    path("signers/<id:person_id>/", signer_views.signer_card, name="signer_card"),
    path(
        "signers/<id:person_id>/authority/",
        signer_views.signer_authority_set,
        name="signer_authority_set",
    ),
    path("grades/<id:grade_id>/", views.grade_detail, name="grade"),
    path("grades/<id:grade_id>/review/", views.grade_review, name="grade_review"),
]
