"""A drill's own page (issue #24, found 8): its rounds previewed (a generated drill's
too), its assignments, "Assign this drill" to a class one teaches, reached after making a
drill; another class's personal drill is not seen or assigned; a table test is offered
only for a table without one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ConflictError, NotFoundError
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services.assignments import assignment_create
from tests.factories import UserFactory
from tests.graded import client_for
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Assignment, Drill, DrillPurpose, Mode, RuleProfile, RuleProfileVersion
from trainer.services.drills import drill_create, table_test_create

pytestmark = pytest.mark.django_db


def shoe() -> RuleProfileVersion:
    return RuleProfileVersion.objects.get(profile__name="casino-shoe", version=1)


def generated(owner, title: str = "Splits at the shoe") -> Drill:
    return drill_create(
        title=title,
        kind="generated",
        user=owner,
        profile_version=shoe(),
        skills=["split"],
        count=4,
    )


def test_making_a_generated_drill_opens_its_page_with_sample_rounds_and_assign(pit, pit_boss):
    response = client_for(pit_boss).post(
        reverse("teach:drill-new-generated"),
        {
            "title": "Splits",
            "profile": RuleProfile.objects.get(name="casino-shoe").pk,
            "skills": ["split"],
            "count": "3",
            "max_boxes": "2",
            "time_limit_seconds": "60",
            "time_box_seconds": "300",
            "pass_mark": "90",
        },
        follow=True,
    )
    drill = Drill.objects.get(title="Splits")
    assert response.redirect_chain[-1][0] == reverse("teach:drill", args=[drill.pk])
    text = response.content.decode()
    assert "Sample rounds" in text
    assert text.count('class="card round-preview"') == 3
    assert '<p class="placard">' in text
    assert "Assign this drill" in text
    assert "Morning" in text  # the class the pit boss teaches is offered
    assert "Evening" not in text  # another's class is not


def test_a_fixed_drill_previews_its_rounds(pit_boss):
    drill = DrillFactory(title="Naturals", documents=[natural_document()], owner=pit_boss)
    text = client_for(pit_boss).get(reverse("teach:drill", args=[drill.pk])).content.decode()
    assert "Its rounds" in text
    assert "Answer key (for you" in text


def test_assign_this_drill_to_a_class_one_teaches(pit, pit_boss):
    drill = generated(pit_boss)
    client = client_for(pit_boss)
    response = client.post(
        reverse("teach:drill-assign", args=[drill.pk]),
        {"training_class": pit["mine"].pk, "mode": "practice", "due_day": "2030-05-01"},
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert (assignment.drill, assignment.training_class, assignment.assigned_by) == (
        drill,
        pit["mine"],
        pit_boss,
    )
    assert LedgerEntry.objects.filter(
        event=Event.ASSIGNMENT_CREATED, subject_id=str(assignment.pk)
    ).exists()
    page = client.get(reverse("teach:drill", args=[drill.pk])).content.decode()
    assert f'data-assignment="{assignment.pk}"' in page


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({"mode": "practice"}, "choose the class to assign it to"),
        ({"mode": "practice", "training_class": "theirs"}, "choose one of the classes you teach"),
        ({"mode": "exam", "training_class": "mine"}, "choose how the drill is sat"),
        ({"mode": "practice", "training_class": "mine", "max_sittings": "0"}, "greater than"),
    ],
)
def test_bad_input_is_named_at_the_field_and_nothing_is_written(pit, pit_boss, posted, said):
    drill = generated(pit_boss)
    if "training_class" in posted:
        posted = {**posted, "training_class": pit[posted["training_class"]].pk}
    response = client_for(pit_boss).post(reverse("teach:drill-assign", args=[drill.pk]), posted)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not Assignment.objects.exists()


def test_a_pit_boss_who_is_a_trainee_on_the_class_is_refused_at_the_form(pit, pit_boss):
    pit["mine"].trainees.add(pit_boss)
    drill = generated(pit_boss)
    response = client_for(pit_boss).post(
        reverse("teach:drill-assign", args=[drill.pk]),
        {"training_class": pit["mine"].pk, "mode": "practice"},
    )
    assert response.status_code == 403
    assert "you are a trainee on this class" in response.content.decode()
    assert not Assignment.objects.exists()


def test_another_classs_personal_drill_is_not_seen_or_assigned(
    pit, pit_boss, other_boss, other_trainee, admin_user
):
    refresher = generated(other_boss, title="Refresher: Split")
    assignment_create(
        drill=refresher, mode=Mode.PRACTICE, trainee=other_trainee, assigned_by=other_boss
    )
    shared = generated(other_boss, title="Shared splits")
    assignment_create(
        drill=shared, mode=Mode.PRACTICE, training_class=pit["theirs"], assigned_by=other_boss
    )
    client = client_for(pit_boss)
    assert client.get(reverse("teach:drill", args=[refresher.pk])).status_code == 404
    listing = client.get(reverse("teach:drills")).content.decode()
    assert "Refresher: Split" not in listing
    assert "Shared splits" in listing  # given to a whole class: the department's library
    assigning = client.post(
        reverse("teach:drill-assign", args=[refresher.pk]),
        {"training_class": pit["mine"].pk, "mode": "practice"},
    )
    assert assigning.status_code == 404
    with pytest.raises(NotFoundError):
        assignment_create(
            drill=refresher, mode=Mode.PRACTICE, training_class=pit["mine"], assigned_by=pit_boss
        )
    assert "Refresher: Split" not in client.get(reverse("teach:assignments")).content.decode()
    # Its own pit boss and an administrator see it, with its assignment.
    for user in (other_boss, admin_user):
        page = client_for(user).get(reverse("teach:drill", args=[refresher.pk]))
        assert page.status_code == 200
        assert "data-assignment=" in page.content.decode()
    # Of a shared drill, a pit boss sees only the assignments of their own classes.
    page = client.get(reverse("teach:drill", args=[shared.pk])).content.decode()
    assert "data-assignment=" not in page


def test_a_trainee_never_reaches_a_drill_page(pit, trainee, pit_boss):
    drill = generated(pit_boss)
    client = client_for(trainee)
    assert client.get(reverse("teach:drill", args=[drill.pk])).status_code == 403
    response = client.post(
        reverse("teach:drill-assign", args=[drill.pk]),
        {"training_class": pit["mine"].pk, "mode": "practice"},
    )
    assert response.status_code == 403
    assert not Assignment.objects.exists()


def test_a_pit_boss_who_may_sit_the_drill_sees_no_answers(pit, pit_boss, admin_user):
    both = UserFactory(username="both", roles=["pit_boss", "trainee"])
    pit["mine"].trainees.add(both)
    exam = table_test_create(profile_version=shoe(), user=admin_user)
    practice = generated(pit_boss)
    assignment_create(
        drill=practice, mode=Mode.PRACTICE, training_class=pit["mine"], assigned_by=pit_boss
    )
    client = client_for(both)
    for drill in (exam, practice):
        text = client.get(reverse("teach:drill", args=[drill.pk])).content.decode()
        assert "Answer key" not in text
        assert "round-preview" not in text
        assert "not shown to you" in text


def test_an_exam_drill_is_assigned_as_an_exam_only(pit, pit_boss, admin_user):
    exam = table_test_create(profile_version=shoe(), user=admin_user)
    assert exam.purpose == DrillPurpose.EXAM
    page = client_for(pit_boss).get(reverse("teach:drill", args=[exam.pk])).content.decode()
    assert '<option value="exam"' in page
    assert '<option value="practice"' not in page


def test_create_the_table_test_is_offered_only_for_a_table_without_one(pit_boss, admin_user):
    offer = "Create the table test for Six-deck shoe"
    client = client_for(admin_user)
    assert offer in client.get(reverse("teach:drills")).content.decode()
    response = client.post(reverse("teach:drill-table-test"), {"profile_version": shoe().pk})
    exam = Drill.objects.get(certifies__name="casino-shoe")
    assert response.url == reverse("teach:drill", args=[exam.pk])
    assert offer not in client.get(reverse("teach:drills")).content.decode()
    again = client.post(reverse("teach:drill-table-test"), {"profile_version": shoe().pk})
    assert again.status_code == 409
    assert "already has its table test" in again.content.decode()
    assert Drill.objects.filter(certifies__name="casino-shoe").count() == 1
    with pytest.raises(ConflictError):
        table_test_create(profile_version=shoe(), user=admin_user)


def test_the_api_keeps_another_classs_personal_drill_out_too(
    pit, pit_boss, other_boss, other_trainee
):
    from rest_framework.test import APIClient

    refresher = generated(other_boss, title="Refresher: Split")
    assignment_create(
        drill=refresher, mode=Mode.PRACTICE, trainee=other_trainee, assigned_by=other_boss
    )
    client = APIClient()
    client.force_login(pit_boss)
    listed = client.get("/api/drills/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert "Refresher: Split" not in [row["title"] for row in rows]
    assert client.get(f"/api/drills/{refresher.pk}/").status_code == 404
