"""Class boundaries (issue #23, finding 1): a pit boss cannot take over another class's
trainee by putting them on their own class; a trainee of another instructor's class joins
only with that instructor's consent (a join request) or by an administrator's transfer;
and a pit boss acts (reads, flags, lifts, reviews, assigns, signs, withdraws, reassigns,
cancels) only for trainees of the classes they teach, in every service and door.

tina is on Morning (the boss's); otto on Evening (other-boss's)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import Certification, RetrainingFlag, Review
from audit.services.remediation import refresher_assign
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
    review_create,
)
from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.models import ClassJoinRequest
from teaching.services import classes as services
from teaching.services.assignments import assignment_cancel, assignment_create, assignment_reassign
from tests.audit.factories import TrainingClassFactory, table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, client_for, make_attempt, signing_request, wrong
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Grade, Mode, RuleProfile

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def shoe() -> RuleProfile:
    return RuleProfile.objects.get(name="casino-shoe")


@pytest.fixture
def tina_work(pit, trainee, pit_boss):
    """What the boss decided about tina: a flag, a mistake, a certification, and a table
    test assigned to her class with one sitting and a due date."""
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    mistake_attempt = make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00")])
    mistake = Grade.objects.get(run__attempt=mistake_attempt, correct=False)
    certified = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    certification = certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=shoe(),
        attempt=certified,
        signer=pit_boss,
        password=PASSWORD,
        statement="Dealt to standard.",
        override_reason="The flag is for 6:5 rounding; this table pays 3:2",
    )
    assignment = assignment_create(
        drill=DrillFactory(documents=[natural_document()]),
        mode=Mode.PRACTICE,
        training_class=pit["mine"],
        assigned_by=pit_boss,
        max_sittings=1,
    )
    return {
        "flag": flag,
        "mistake": mistake,
        "certified": certified,
        "certification": certification,
        "assignment": assignment,
    }


# The attack of finding 1, through the API and the page.


def test_the_api_refuses_to_put_another_class_s_trainee_on_ones_own(pit, trainee, other_boss):
    response = api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/trainees/", {"username": "tina"}, format="json"
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "on_another_class"
    assert body["field"] == "username"
    assert "join request" in body["error"]
    assert "administrator" in body["error"]
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()
    assert not LedgerEntry.objects.filter(event=Event.CLASS_TRAINEE_ADDED).exists()


def test_the_page_refuses_it_too_and_says_how(pit, trainee, other_boss):
    url = reverse("teach:class_trainee_add", args=[pit["theirs"].pk])
    response = client_for(other_boss).post(url, {"username": "TINA"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "another instructor" in html
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()


def test_after_the_refused_take_over_nothing_of_tina_is_theirs(pit, trainee, other_boss, tina_work):
    api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/trainees/", {"username": "tina"}, format="json"
    )
    client = client_for(other_boss)
    # Her record and training-record PDF do not exist for them.
    assert client.get(reverse("pit:trainee", args=[trainee.pk])).status_code == 404
    assert client.get(reverse("pit:trainee_record", args=[trainee.pk])).status_code == 404
    # The boss's flag stays; the lift is refused at the page and in the service.
    lift = client.post(reverse("pit:flag_lift", args=[tina_work["flag"].pk]), {"reason": "x"})
    assert lift.status_code == 404
    with pytest.raises(ForbiddenError):
        retraining_flag_create(
            trainee=trainee,
            flagged_by=other_boss,
            reason="lifted",
            active=False,
            corrects=tina_work["flag"],
        )
    assert RetrainingFlag.objects.filter(active=False).count() == 0
    # No certification over the flag, no withdrawal of the boss's.
    with pytest.raises(ForbiddenError):
        certification_sign(
            request=signing_request(),
            trainee=trainee,
            profile=shoe(),
            attempt=tina_work["certified"],
            signer=other_boss,
            password=PASSWORD,
            statement="mine now",
            override_reason="override",
        )
    with pytest.raises(ForbiddenError):
        certification_withdraw(
            request=signing_request(),
            certification=tina_work["certification"],
            signer=other_boss,
            password=PASSWORD,
            statement="withdrawn",
        )
    assert Certification.objects.count() == 1
    # The class's assignment: not reassigned (unlimited, 2031), not cancelled.
    assignment = tina_work["assignment"]
    reassign = api(other_boss).post(
        f"/api/teach/assignments/{assignment.pk}/reassign",
        {"max_sittings": None, "due_at": "2031-01-01T00:00:00Z"},
        format="json",
    )
    assert reassign.status_code == 404
    with pytest.raises(ForbiddenError):
        assignment_reassign(assignment=assignment, user=other_boss, max_sittings=None)
    with pytest.raises(ForbiddenError):
        assignment_cancel(assignment=assignment, user=other_boss)
    assignment.refresh_from_db()
    assert assignment.max_sittings == 1
    assert assignment.cancelled_at is None


def test_every_person_service_refuses_a_pit_boss_outside_the_trainee_s_classes(
    pit, trainee, other_boss, tina_work
):
    with pytest.raises(ForbiddenError):
        review_create(grade=tina_work["mistake"], reviewer=other_boss, comment="mine")
    with pytest.raises(ForbiddenError):
        retraining_flag_create(trainee=trainee, flagged_by=other_boss, reason="mine")
    with pytest.raises(ForbiddenError):
        refresher_assign(trainee=trainee, user=other_boss, skills=["rounding"])
    with pytest.raises(ForbiddenError):
        assignment_create(
            drill=DrillFactory(documents=[natural_document()]),
            mode=Mode.PRACTICE,
            trainee=trainee,
            assigned_by=other_boss,
        )
    assert not Review.objects.exists()
    assert RetrainingFlag.objects.count() == 1
    assert Assignment.objects.count() == 1


def test_a_class_s_assignment_is_managed_only_by_its_instructors_or_an_admin(
    pit, pit_boss, other_boss, admin_user
):
    assignment = assignment_create(
        drill=DrillFactory(documents=[natural_document()]),
        mode=Mode.PRACTICE,
        training_class=pit["theirs"],
        assigned_by=other_boss,
    )
    with pytest.raises(ForbiddenError, match="only this class's pit bosses"):
        assignment_reassign(assignment=assignment, user=pit_boss, max_sittings=3)
    with pytest.raises(ForbiddenError):
        assignment_create(
            drill=assignment.drill,
            mode=Mode.PRACTICE,
            training_class=pit["theirs"],
            assigned_by=pit_boss,
        )
    assignment_reassign(assignment=assignment, user=admin_user, max_sittings=3)
    assignment_cancel(assignment=assignment, user=other_boss)


# Adding stays as it was for a trainee on no class.


def test_a_trainee_on_no_class_is_still_added_directly(pit, other_boss):
    newcomer = UserFactory(username="nina", roles=["trainee"])
    response = api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/trainees/", {"username": "nina"}, format="json"
    )
    assert response.status_code == 201
    assert pit["theirs"].trainees.filter(pk=newcomer.pk).exists()


def test_a_second_instructor_of_the_same_class_may_add_to_another_class_of_theirs(
    pit, trainee, pit_boss
):
    # The boss teaches every class tina is on: no one else's consent is needed.
    second = TrainingClassFactory(name="Weekend", instructors=[pit_boss])
    services.class_trainee_add(actor=pit_boss, training_class=second, trainee=trainee)
    assert second.trainees.filter(pk=trainee.pk).exists()


def test_an_administrator_adds_anyone_who_is_a_trainee(pit, trainee, admin_user):
    services.class_trainee_add(actor=admin_user, training_class=pit["theirs"], trainee=trainee)
    assert pit["theirs"].trainees.filter(pk=trainee.pk).exists()


# Join requests: the current instructor's consent.


def test_a_join_request_accepted_by_the_instructor_adds_the_trainee(
    pit, trainee, pit_boss, other_boss
):
    response = api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/join-requests/",
        {"username": "tina", "note": "Moves to evenings"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "pending"
    assert body["trainee"]["username"] == "tina"
    assert body["training_class"]["name"] == "Evening"
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()
    # The boss sees it waiting; other-boss does not (they asked).
    assert [r["id"] for r in api(pit_boss).get("/api/classes/join-requests/").json()] == [
        body["id"]
    ]
    assert api(other_boss).get("/api/classes/join-requests/").json() == []
    # The asker cannot answer their own request.
    refused = api(other_boss).post(f"/api/classes/join-requests/{body['id']}/accept/")
    assert refused.status_code == 404
    accepted = api(pit_boss).post(f"/api/classes/join-requests/{body['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "accepted"
    assert pit["theirs"].trainees.filter(pk=trainee.pk).exists()
    assert pit["mine"].trainees.filter(pk=trainee.pk).exists()
    events = list(
        LedgerEntry.objects.filter(
            event__in=[Event.CLASS_JOIN_REQUESTED, Event.CLASS_JOIN_ACCEPTED]
        ).order_by("sequence")
    )
    assert [(e.event, e.actor_id) for e in events] == [
        (Event.CLASS_JOIN_REQUESTED, other_boss.pk),
        (Event.CLASS_JOIN_ACCEPTED, pit_boss.pk),
    ]
    again = api(pit_boss).post(f"/api/classes/join-requests/{body['id']}/decline/")
    assert again.status_code == 404


def test_a_declined_request_changes_nothing_and_is_answered_once(
    pit, trainee, pit_boss, other_boss
):
    request = services.class_join_request_create(
        actor=other_boss, training_class=pit["theirs"], trainee=trainee
    )
    services.class_join_request_decline(actor=pit_boss, request=request)
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()
    with pytest.raises(ConflictError, match="already answered"):
        services.class_join_request_accept(actor=pit_boss, request=request)
    assert LedgerEntry.objects.filter(event=Event.CLASS_JOIN_DECLINED).count() == 1


def test_join_requests_on_the_pages(pit, trainee, pit_boss, other_boss):
    asker = client_for(other_boss)
    url = reverse("teach:class_join_request", args=[pit["theirs"].pk])
    response = asker.post(url, {"username": "tina", "note": "Days to nights"})
    assert response.status_code == 302
    request = ClassJoinRequest.objects.get()
    page = asker.get(reverse("teach:class", args=[pit["theirs"].pk])).content.decode()
    assert "Waiting for their instructor" in page
    boss = client_for(pit_boss)
    listing = boss.get(reverse("teach:classes")).content.decode()
    assert "Requests for your trainees" in listing
    assert "Days to nights" in listing
    answer = boss.post(reverse("teach:join_request_accept", args=[request.pk]))
    assert answer.status_code == 302
    assert pit["theirs"].trainees.filter(pk=trainee.pk).exists()


def test_a_join_request_is_answered_only_by_the_instructor_of_every_class_she_is_on(
    pit, trainee, pit_boss, other_boss
):
    third_boss = UserFactory(username="third-boss", roles=["pit_boss"])
    TrainingClassFactory(name="Night", trainees=[trainee], instructors=[third_boss])
    request = services.class_join_request_create(
        actor=other_boss, training_class=pit["theirs"], trainee=trainee
    )
    # Each teaches only one of tina's classes: neither alone consents for the other.
    for boss in (pit_boss, third_boss):
        with pytest.raises(NotFoundError):
            services.class_join_request_accept(actor=boss, request=request)
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()


def test_one_request_waits_at_a_time_and_none_for_a_trainee_one_may_add(pit, trainee, other_boss):
    services.class_join_request_create(
        actor=other_boss, training_class=pit["theirs"], trainee=trainee
    )
    with pytest.raises(ConflictError, match="already asked"):
        services.class_join_request_create(
            actor=other_boss, training_class=pit["theirs"], trainee=trainee
        )
    UserFactory(username="nina", roles=["trainee"])
    with pytest.raises(ConflictError, match="add them directly"):
        services.class_join_request_create(
            actor=other_boss,
            training_class=pit["theirs"],
            trainee=UserFactory(username="nina"),
        )


def test_the_database_keeps_one_pending_request(pit, trainee, other_boss):
    ClassJoinRequest.objects.create(
        training_class=pit["theirs"], trainee=trainee, requested_by=other_boss
    )
    with pytest.raises(IntegrityError):
        ClassJoinRequest.objects.create(
            training_class=pit["theirs"], trainee=trainee, requested_by=other_boss
        )


# Transfers: administrators only.


def test_an_administrator_transfers_a_trainee_through_the_api(pit, trainee, admin_user):
    response = api(admin_user).post(
        f"/api/classes/{pit['theirs'].pk}/transfers/", {"username": "tina"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["left"] == ["Morning"]
    assert list(trainee.classes_attended.all()) == [pit["theirs"]]
    [entry] = LedgerEntry.objects.filter(event=Event.CLASS_TRAINEE_TRANSFERRED)
    assert entry.actor_id == admin_user.pk
    assert entry.payload["from_class_ids"] == [pit["mine"].pk]


def test_a_transfer_on_the_page(pit, trainee, admin_user):
    url = reverse("teach:class_transfer", args=[pit["theirs"].pk])
    page = client_for(admin_user).get(reverse("teach:class", args=[pit["theirs"].pk]))
    assert "Transfer a trainee to this class" in page.content.decode()
    response = client_for(admin_user).post(url, {"username": "tina"})
    assert response.status_code == 302
    assert list(trainee.classes_attended.all()) == [pit["theirs"]]


def test_pit_bosses_cannot_transfer(pit, trainee, pit_boss, other_boss):
    for boss, training_class in ((other_boss, pit["theirs"]), (pit_boss, pit["mine"])):
        response = api(boss).post(
            f"/api/classes/{training_class.pk}/transfers/", {"username": "otto"}, format="json"
        )
        assert response.status_code == 403
        page = client_for(boss).post(
            reverse("teach:class_transfer", args=[training_class.pk]), {"username": "otto"}
        )
        assert page.status_code == 403
        with pytest.raises(ForbiddenError):
            services.class_trainee_transfer(
                actor=boss, training_class=training_class, trainee=trainee
            )
        assert (
            "Transfer a trainee"
            not in client_for(boss)
            .get(reverse("teach:class", args=[training_class.pk]))
            .content.decode()
        )
    assert not LedgerEntry.objects.filter(event=Event.CLASS_TRAINEE_TRANSFERRED).exists()


# Roster and invitation answers tell nothing about others' accounts.


@pytest.mark.parametrize("who", ["unknown", "staff", "compliance", "admin"])
def test_one_answer_for_a_username_that_is_not_a_trainee_one_may_add(pit, other_boss, who):
    if who == "staff":
        UserFactory(username="target", roles=["pit_boss"], is_staff=True)
    elif who != "unknown":
        UserFactory(username="target", roles=[who])
    response = api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/trainees/", {"username": "target"}, format="json"
    )
    assert response.status_code == 404
    assert response.json() == {
        "error": "no trainee you can add has this username",
        "field": "username",
        "code": "not_found",
    }


@pytest.mark.parametrize("holder", ["trainee", "pit_boss", "admin"])
def test_an_address_in_use_gets_one_answer_that_does_not_repeat_it(pit, other_boss, holder):
    UserFactory(username="holder", roles=[holder], email="taken@casino.example")
    response = api(other_boss).post(
        f"/api/classes/{pit['theirs'].pk}/invitations/",
        {"username": "newbie", "email": "taken@casino.example"},
        format="json",
    )
    assert response.status_code == 409
    body = response.json()
    assert body["field"] == "email"
    assert body["error"].startswith("no invitation can go to this address")
    assert "taken@" not in body["error"]
    assert "holder" not in body["error"]


@pytest.mark.parametrize("role", ["pit_boss", "compliance"])
def test_a_roster_naming_a_staff_account_reads_as_a_taken_username(pit, other_boss, role):
    UserFactory(username="staffer", roles=[role])
    row = {"username": "staffer", "email": "s@casino.example", "class": "Evening"}
    response = api(other_boss).post("/api/classes/roster/", {"rows": [row]}, format="json")
    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["message"] == "the username 'staffer' is taken: choose another for a new trainee"


def test_a_roster_cannot_take_another_class_s_trainee(pit, trainee, other_boss):
    row = {"username": "tina", "email": "", "class": "Evening"}
    response = api(other_boss).post("/api/classes/roster/", {"rows": [row]}, format="json")
    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert "another instructor's class" in problem["message"]
    assert not pit["theirs"].trainees.filter(pk=trainee.pk).exists()


def test_the_add_of_a_non_trainee_says_nothing_of_the_account_in_the_service(pit, other_boss):
    staff = UserFactory(username="staffer", roles=["compliance"])
    with pytest.raises(ProductError) as caught:
        services.class_trainee_add(actor=other_boss, training_class=pit["theirs"], trainee=staff)
    assert caught.value.message == "no trainee you can add has this username"
