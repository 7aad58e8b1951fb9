"""Separation of duties (issue #23, finding 6): nobody flags, lifts, reviews, assigns,
reassigns, cancels, signs or withdraws for themselves, whatever roles they hold. "duo" is
a trainee who is also a pit boss, on the Morning class they also teach (with the boss).

One test per service and per door: the service itself, the page, the API where it has the
action, and the admin (which offers none of these actions: its pages are read-only)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import Certification, Refresher, RetrainingFlag, Review
from audit.services.remediation import refresher_assign
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
    review_create,
)
from core.errors import ForbiddenError
from teaching.models import ClassJoinRequest
from teaching.services.assignments import assignment_cancel, assignment_create, assignment_reassign
from tests.audit.factories import table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, client_for, make_attempt, signing_request, wrong
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Drill, Grade, Mode, RuleProfile

pytestmark = pytest.mark.django_db

SELF = "nobody acts on their own training"


@pytest.fixture
def duo(pit, pit_boss):
    user = UserFactory(username="duo", roles=["trainee", "pit_boss"])
    pit["mine"].trainees.add(user)
    pit["mine"].instructors.add(user)
    return user


@pytest.fixture
def duo_work(pit, duo, pit_boss):
    """What the boss did for duo: a flag, a mistake, a certified table test, an assignment
    to duo and one to the class."""
    flag = retraining_flag_create(trainee=duo, flagged_by=pit_boss, reason="Rounding")
    mistake = Grade.objects.get(
        run__attempt=make_attempt(trainee=duo, answers=[RIGHT, wrong("5.00")]), correct=False
    )
    sitting = make_attempt(trainee=duo, answers=[RIGHT] * 50, drill=table_test())
    drill = DrillFactory(documents=[natural_document()])
    mine = assignment_create(
        drill=drill, mode=Mode.PRACTICE, trainee=duo, assigned_by=pit_boss, max_sittings=1
    )
    classes = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=pit["mine"], assigned_by=pit_boss
    )
    return {
        "flag": flag,
        "mistake": mistake,
        "sitting": sitting,
        "drill": drill,
        "assignment": mine,
        "class_assignment": classes,
    }


def shoe() -> RuleProfile:
    return RuleProfile.objects.get(name="casino-shoe")


def sign(trainee, attempt, signer):
    return certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=shoe(),
        attempt=attempt,
        signer=signer,
        password=PASSWORD,
        statement="Dealt to standard.",
        override_reason="The flag is for 6:5 rounding",
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# The services.


def test_review_create_refuses_ones_own_mistake(duo, duo_work):
    with pytest.raises(ForbiddenError, match=SELF):
        review_create(grade=duo_work["mistake"], reviewer=duo, comment="fine by me")
    assert not Review.objects.exists()


def test_retraining_flag_create_refuses_flagging_and_lifting_oneself(duo, duo_work):
    with pytest.raises(ForbiddenError, match=SELF):
        retraining_flag_create(trainee=duo, flagged_by=duo, reason="me")
    with pytest.raises(ForbiddenError, match=SELF):
        retraining_flag_create(
            trainee=duo, flagged_by=duo, reason="lifted", active=False, corrects=duo_work["flag"]
        )
    assert RetrainingFlag.objects.count() == 1


def test_refresher_assign_refuses_oneself(duo, duo_work):
    with pytest.raises(ForbiddenError, match=SELF):
        refresher_assign(trainee=duo, user=duo, flag=duo_work["flag"])
    assert not Refresher.objects.exists()


def test_assignment_create_refuses_oneself_and_a_class_one_is_on(pit, duo, duo_work):
    with pytest.raises(ForbiddenError, match=SELF):
        assignment_create(drill=duo_work["drill"], mode=Mode.PRACTICE, trainee=duo, assigned_by=duo)
    with pytest.raises(ForbiddenError, match="you are a trainee on this class"):
        assignment_create(
            drill=duo_work["drill"],
            mode=Mode.PRACTICE,
            training_class=pit["mine"],
            assigned_by=duo,
        )
    assert Assignment.objects.count() == 2


def test_assignment_reassign_refuses_ones_own(duo, duo_work):
    with pytest.raises(ForbiddenError, match=SELF):
        assignment_reassign(assignment=duo_work["assignment"], user=duo, max_sittings=None)
    with pytest.raises(ForbiddenError, match="you are a trainee on this class"):
        assignment_reassign(assignment=duo_work["class_assignment"], user=duo, max_sittings=50)
    duo_work["assignment"].refresh_from_db()
    assert duo_work["assignment"].max_sittings == 1


def test_assignment_cancel_refuses_ones_own(duo, duo_work):
    for assignment in (duo_work["assignment"], duo_work["class_assignment"]):
        with pytest.raises(ForbiddenError):
            assignment_cancel(assignment=assignment, user=duo)
    assert not Assignment.objects.filter(cancelled_at__isnull=False).exists()


def test_certification_sign_and_withdraw_refuse_oneself(duo, duo_work, pit_boss):
    with pytest.raises(ForbiddenError, match="nobody signs their own certification"):
        sign(duo, duo_work["sitting"], duo)
    certification = sign(duo, duo_work["sitting"], pit_boss)
    with pytest.raises(ForbiddenError, match="nobody signs their own certification"):
        certification_withdraw(
            request=signing_request(),
            certification=certification,
            signer=duo,
            password=PASSWORD,
            statement="mine",
        )
    assert Certification.objects.count() == 1


def test_an_administrator_on_a_class_is_refused_too(pit, admin_user, duo_work):
    pit["mine"].trainees.add(admin_user)
    with pytest.raises(ForbiddenError, match=SELF):
        retraining_flag_create(trainee=admin_user, flagged_by=admin_user, reason="me")
    with pytest.raises(ForbiddenError, match="you are a trainee on this class"):
        assignment_cancel(assignment=duo_work["class_assignment"], user=admin_user)


def test_another_pit_boss_of_the_class_still_acts_for_duo(duo, duo_work, pit_boss):
    retraining_flag_create(
        trainee=duo,
        flagged_by=pit_boss,
        reason="Practised",
        active=False,
        corrects=duo_work["flag"],
    )
    review_create(grade=duo_work["mistake"], reviewer=pit_boss, comment="Talked it through")
    assignment_reassign(assignment=duo_work["assignment"], user=pit_boss, max_sittings=2)


# The pages.


def test_the_pit_pages_refuse_acting_for_oneself(duo, duo_work, pit_boss):
    client = client_for(duo)
    posts = [
        (reverse("pit:trainee_flag", args=[duo.pk]), {"reason": "me"}),
        (reverse("pit:flag_lift", args=[duo_work["flag"].pk]), {"reason": "lifted"}),
        (reverse("pit:grade_review", args=[duo_work["mistake"].pk]), {"comment": "fine"}),
        (reverse("pit:trainee_refresher", args=[duo.pk]), {"due_in_days": 7}),
        (reverse("pit:flag_refresher", args=[duo_work["flag"].pk]), {"due_in_days": 7}),
        (
            reverse("pit:trainee_certify", args=[duo.pk]),
            {
                "profile": "casino-shoe",
                "attempt": duo_work["sitting"].pk,
                "statement": "mine",
                "override_reason": "me",
                "password": PASSWORD,
            },
        ),
    ]
    for url, body in posts:
        assert client.post(url, body).status_code == 403, url
    certification = sign(duo, duo_work["sitting"], pit_boss)
    withdraw = client.post(
        reverse("pit:certification_withdraw", args=[certification.pk]),
        {"statement": "mine", "password": PASSWORD},
    )
    assert withdraw.status_code == 403
    assert RetrainingFlag.objects.count() == 1
    assert not Review.objects.exists()
    assert not Refresher.objects.exists()
    assert Certification.objects.count() == 1


def test_the_workspace_pages_refuse_assigning_oneself(pit, duo, duo_work):
    client = client_for(duo)
    for target in ({"trainee": duo.pk}, {"training_class": pit["mine"].pk}):
        response = client.post(
            reverse("teach:assignments"),
            {"drill": duo_work["drill"].pk, "mode": "practice", **target},
        )
        assert response.status_code == 403, target
    for assignment in (duo_work["assignment"], duo_work["class_assignment"]):
        reassign = client.post(
            reverse("teach:assignment_reassign", args=[assignment.pk]), {"max_sittings": 9}
        )
        assert reassign.status_code == 403
        cancel = client.post(reverse("teach:assignment_cancel", args=[assignment.pk]))
        assert cancel.status_code in (400, 403)  # 400: the confirmation box left unticked
        cancel = client.post(
            reverse("teach:assignment_cancel", args=[assignment.pk]), {"confirm": "on"}
        )
        assert cancel.status_code == 403
    assert Assignment.objects.count() == 2
    assert not Assignment.objects.filter(cancelled_at__isnull=False).exists()


# The API.


def test_the_api_refuses_assigning_reassigning_or_cancelling_for_oneself(pit, duo, duo_work):
    client = api(duo)
    for target in ({"trainee": duo.pk}, {"training_class": pit["mine"].pk}):
        response = client.post(
            "/api/teach/assignments/",
            {"drill": duo_work["drill"].pk, "mode": "practice", **target},
            format="json",
        )
        assert response.status_code == 403, response.json()
    for assignment in (duo_work["assignment"], duo_work["class_assignment"]):
        base = f"/api/teach/assignments/{assignment.pk}/"
        reassign = client.post(base + "reassign", {"max_sittings": None}, format="json")
        assert reassign.status_code == 403
        assert client.post(base + "cancel", format="json").status_code == 403
    assert Assignment.objects.count() == 2
    duo_work["assignment"].refresh_from_db()
    assert duo_work["assignment"].max_sittings == 1


# The admin: none of these actions.


@pytest.mark.parametrize(
    "model",
    [Review, RetrainingFlag, Certification, Refresher, Assignment, ClassJoinRequest, Drill],
)
def test_the_admin_offers_none_of_these_actions(model, admin_user):
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert not [
        name for name in (model_admin.get_actions(request) or {}) if name != "delete_selected"
    ]


def test_ones_own_pit_page_offers_no_action_and_says_who_acts(duo, duo_work):
    client = client_for(duo)
    page = client.get(reverse("pit:trainee", args=[duo.pk])).content.decode()
    assert "This is your own training" in page
    for action in ("pit:trainee_flag", "pit:trainee_certify", "pit:trainee_refresher"):
        assert reverse(action, args=[duo.pk]) not in page
    assert reverse("pit:flag_lift", args=[duo_work["flag"].pk]) not in page
    grade = client.get(reverse("pit:grade", args=[duo_work["mistake"].pk])).content.decode()
    assert reverse("pit:grade_review", args=[duo_work["mistake"].pk]) not in grade
