"""Drills have an owner (issue #23, finding 5): its author, or for a table test the
department (administrators). Only the owner or an administrator retires one, and never
while an open assignment of a class the retirer does not teach uses it."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import ConflictError, ForbiddenError
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services.assignments import assignment_cancel, assignment_create
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Drill, Mode, RuleProfileVersion
from trainer.services.drills import drill_create, drill_retire, table_test_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_boss(db):
    return UserFactory(username="other-boss", roles=["pit_boss"])


@pytest.fixture
def classes(trainee, other_trainee, pit_boss, other_boss):
    return {
        "mine": TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss]),
        "theirs": TrainingClassFactory(
            name="Evening", trainees=[other_trainee], instructors=[other_boss]
        ),
    }


def shoe_version() -> RuleProfileVersion:
    return RuleProfileVersion.objects.get(profile__name="casino-shoe", version=1)


def authored(user) -> Drill:
    return drill_create(
        title="Splits",
        kind="generated",
        user=user,
        profile_version=shoe_version(),
        skills=["split"],
        count=5,
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_drill_is_its_author_s_and_a_table_test_the_department_s(pit_boss):
    assert authored(pit_boss).owner == pit_boss
    assert table_test_create(profile_version=shoe_version(), user=pit_boss).owner is None


def test_the_author_retires_their_drill(pit_boss):
    drill = authored(pit_boss)
    drill_retire(drill=drill, user=pit_boss)
    drill.refresh_from_db()
    assert drill.is_active is False


def test_another_pit_boss_cannot_retire_it_by_service_api_or_page(pit_boss, other_boss):
    drill = authored(pit_boss)
    with pytest.raises(ForbiddenError, match="only its author or an administrator"):
        drill_retire(drill=drill, user=other_boss)
    response = api(other_boss).post(
        f"/api/drills/{drill.pk}/retire", {"reason": "mine now"}, format="json"
    )
    assert response.status_code == 403
    assert "only its author or an administrator" in response.json()["error"]
    client = APIClient()
    client.force_login(other_boss)
    page = client.post(reverse("teach:drill-retire", kwargs={"drill_id": drill.pk}))
    assert page.status_code == 403
    drill.refresh_from_db()
    assert drill.is_active is True
    assert not LedgerEntry.objects.filter(event=Event.DRILL_RETIRED).exists()


def test_a_table_test_is_retired_by_an_administrator_only(pit_boss, admin_user):
    exam = table_test_create(profile_version=shoe_version(), user=pit_boss)
    with pytest.raises(ForbiddenError, match="a table test is the department's"):
        drill_retire(drill=exam, user=pit_boss)
    drill_retire(drill=exam, user=admin_user, reason="New rules")
    exam.refresh_from_db()
    assert exam.is_active is False


def test_a_drill_whose_author_is_not_recorded_is_retired_by_an_administrator(pit_boss, admin_user):
    drill = DrillFactory(documents=[natural_document()])
    with pytest.raises(ForbiddenError, match="its author is not recorded"):
        drill_retire(drill=drill, user=pit_boss)
    drill_retire(drill=drill, user=admin_user)


def test_never_while_another_class_s_open_assignment_uses_it(
    classes, pit_boss, other_boss, admin_user
):
    drill = authored(pit_boss)
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=classes["theirs"], assigned_by=other_boss
    )
    for who in (pit_boss, admin_user):
        with pytest.raises(ConflictError, match="assigned, open, to Evening") as caught:
            drill_retire(drill=drill, user=who)
        assert caught.value.code == "in_use"
    response = api(pit_boss).post(f"/api/drills/{drill.pk}/retire", {"reason": ""}, format="json")
    assert response.status_code == 409
    assert "Evening" in response.json()["error"]
    drill.refresh_from_db()
    assert drill.is_active is True
    # Their instructor cancels it: then it may go.
    assignment_cancel(assignment=assignment, user=other_boss)
    drill_retire(drill=drill, user=pit_boss)


def test_a_trainee_s_open_assignment_outside_ones_classes_counts_too(
    classes, pit_boss, other_boss, other_trainee
):
    drill = authored(pit_boss)
    assignment_create(
        drill=drill, mode=Mode.PRACTICE, trainee=other_trainee, assigned_by=other_boss
    )
    with pytest.raises(ConflictError, match="Evening"):
        drill_retire(drill=drill, user=pit_boss)


def test_ones_own_class_s_or_a_past_assignment_does_not_hold_it(
    classes, pit_boss, other_boss, trainee
):
    drill = authored(pit_boss)
    assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=classes["mine"], assigned_by=pit_boss
    )
    past = assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=classes["theirs"],
        assigned_by=other_boss,
        due_at=timezone.now() + timedelta(hours=1),
    )
    type(past).objects.filter(pk=past.pk).update(due_at=timezone.now() - timedelta(days=1))
    drill_retire(drill=drill, user=pit_boss)


def test_the_migration_gives_existing_drills_their_author_and_table_tests_none(
    pit_boss, admin_user
):
    drill = authored(pit_boss)
    exam = table_test_create(profile_version=shoe_version(), user=admin_user)
    orphan = DrillFactory(documents=[natural_document()])
    Drill.objects.update(owner=None)
    migration = importlib.import_module("trainer.migrations.0015_drill_owner_and_join_requests")
    migration.owners_from_authors(apps, None)
    owners = dict(Drill.objects.values_list("pk", "owner"))
    assert owners == {drill.pk: pit_boss.pk, exam.pk: None, orphan.pk: None}


def test_the_drills_page_offers_retire_only_to_whom_may(pit_boss, other_boss, admin_user):
    drill = authored(pit_boss)
    retire = reverse("teach:drill-retire", kwargs={"drill_id": drill.pk})
    for user, offered in ((pit_boss, True), (other_boss, False), (admin_user, True)):
        client = APIClient()
        client.force_login(user)
        page = client.get(reverse("teach:drills")).content.decode()
        assert (retire in page) is offered, user.username


def test_the_api_says_whose_a_drill_is(pit_boss):
    drill = authored(pit_boss)
    exam = table_test_create(profile_version=shoe_version(), user=pit_boss)
    client = api(pit_boss)
    assert client.get(f"/api/drills/{drill.pk}/").json()["owner"] == pit_boss.username
    assert client.get(f"/api/drills/{exam.pk}/").json()["owner"] is None
