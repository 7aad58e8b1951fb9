"""Classes and rosters through their services: who may, what is refused, what the ledger
records, the invitation's link, and a roster file applied whole or not at all."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from core.roles import Role, roles_of
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services import classes as services
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from trainer.models import TrainingClass

pytestmark = pytest.mark.django_db

BASE = "http://testserver"
NEW_PASSWORD = "a-long-new-password-42"


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


@pytest.fixture
def evening(other_trainee):
    other = UserFactory(username="other-boss", roles=["pit_boss"])
    return TrainingClassFactory(name="Evening", trainees=[other_trainee], instructors=[other])


def events(name: str) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(event=name).order_by("sequence"))


# Creating and renaming.


def test_a_pit_boss_creates_a_class_and_teaches_it(pit_boss):
    created = services.training_class_create(actor=pit_boss, name="  Monday   evening ")
    assert created.name == "Monday evening"
    assert list(created.instructors.all()) == [pit_boss]
    [entry] = events(Event.CLASS_CREATED)
    assert entry.actor_id == pit_boss.pk
    assert entry.subject_id == str(created.pk)
    assert entry.payload == {"name": "Monday evening", "instructor_ids": [pit_boss.pk]}


def test_an_admin_creates_a_class_without_teaching_it(admin_user):
    created = services.training_class_create(actor=admin_user, name="Night")
    assert created.instructors.count() == 0


@pytest.mark.parametrize("role", ["trainee", "compliance"])
def test_trainees_and_compliance_may_not_create_a_class(role):
    user = UserFactory(roles=[role])
    with pytest.raises(ForbiddenError):
        services.training_class_create(actor=user, name="Mine")
    assert not TrainingClass.objects.exists()
    assert not events(Event.CLASS_CREATED)


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("", ProductError, "a class needs a name"),
        ("   ", ProductError, "a class needs a name"),
        ("x" * 121, ProductError, "at most 120"),
        ("morning", ConflictError, "already a class named"),
    ],
)
def test_a_bad_class_name_is_refused_at_the_name(pit_boss, morning, name, error, message):
    with pytest.raises(error, match=message) as caught:
        services.training_class_create(actor=pit_boss, name=name)
    assert caught.value.field == "name"
    assert TrainingClass.objects.count() == 1


def test_renaming_is_for_the_classes_one_teaches(pit_boss, morning, evening):
    services.training_class_rename(actor=pit_boss, training_class=morning, name="Dawn")
    morning.refresh_from_db()
    assert morning.name == "Dawn"
    [entry] = events(Event.CLASS_RENAMED)
    assert entry.payload == {"from": "Morning", "to": "Dawn"}
    with pytest.raises(ForbiddenError):
        services.training_class_rename(actor=pit_boss, training_class=evening, name="Dusk")
    with pytest.raises(ConflictError):
        services.training_class_rename(actor=pit_boss, training_class=morning, name="EVENING")


# The roster.


def test_a_pit_boss_adds_and_removes_a_trainee_of_their_class(pit_boss, morning, other_trainee):
    services.class_trainee_add(actor=pit_boss, training_class=morning, trainee=other_trainee)
    assert set(morning.trainees.values_list("username", flat=True)) == {"tina", "otto"}
    services.class_trainee_remove(actor=pit_boss, training_class=morning, trainee=other_trainee)
    assert list(morning.trainees.values_list("username", flat=True)) == ["tina"]
    [added] = events(Event.CLASS_TRAINEE_ADDED)
    [removed] = events(Event.CLASS_TRAINEE_REMOVED)
    for entry in (added, removed):
        assert entry.actor_id == pit_boss.pk
        assert entry.payload == {"trainee_id": other_trainee.pk, "username": "otto"}


def test_a_pit_boss_may_not_change_another_boss_s_class(pit_boss, evening, trainee, other_trainee):
    with pytest.raises(ForbiddenError, match="you do not teach Evening"):
        services.class_trainee_add(actor=pit_boss, training_class=evening, trainee=trainee)
    with pytest.raises(ForbiddenError):
        services.class_trainee_remove(actor=pit_boss, training_class=evening, trainee=other_trainee)
    assert list(evening.trainees.all()) == [other_trainee]


def test_an_admin_changes_any_class(admin_user, evening, trainee):
    services.class_trainee_add(actor=admin_user, training_class=evening, trainee=trainee)
    assert evening.trainees.filter(pk=trainee.pk).exists()


@pytest.mark.parametrize("role", ["trainee", "compliance"])
def test_trainees_and_compliance_may_not_change_a_roster(role, morning, other_trainee):
    user = UserFactory(roles=[role])
    with pytest.raises(ForbiddenError):
        services.class_trainee_add(actor=user, training_class=morning, trainee=other_trainee)


@pytest.mark.parametrize("role", ["pit_boss", "compliance", "admin"])
def test_only_trainees_go_on_a_roster(pit_boss, morning, role):
    other = UserFactory(roles=[role])
    # The one neutral answer, whatever the account is (issue #23: a pit boss must not learn
    # which usernames are staff's).
    neutral = r"^no trainee you can add has this username$"
    with pytest.raises(NotFoundError, match=neutral) as caught:
        services.class_trainee_add(actor=pit_boss, training_class=morning, trainee=other)
    assert caught.value.field == "username"
    assert other.username not in caught.value.message


def test_adding_twice_or_removing_someone_absent_is_refused(
    pit_boss, morning, trainee, other_trainee
):
    with pytest.raises(ConflictError, match="already on Morning"):
        services.class_trainee_add(actor=pit_boss, training_class=morning, trainee=trainee)
    with pytest.raises(NotFoundError):
        services.class_trainee_remove(actor=pit_boss, training_class=morning, trainee=other_trainee)
    assert not events(Event.CLASS_TRAINEE_ADDED)
    assert not events(Event.CLASS_TRAINEE_REMOVED)


# Instructors: administrators only.


def test_instructors_are_chosen_by_administrators_only(admin_user, pit_boss, morning):
    second = UserFactory(username="second-boss", roles=["pit_boss"])
    with pytest.raises(ForbiddenError):
        services.class_instructor_add(actor=pit_boss, training_class=morning, instructor=second)
    services.class_instructor_add(actor=admin_user, training_class=morning, instructor=second)
    assert set(morning.instructors.values_list("username", flat=True)) == {"boss", "second-boss"}
    with pytest.raises(ForbiddenError):
        services.class_instructor_remove(actor=pit_boss, training_class=morning, instructor=second)
    services.class_instructor_remove(actor=admin_user, training_class=morning, instructor=second)
    assert list(morning.instructors.all()) == [pit_boss]
    assert len(events(Event.CLASS_INSTRUCTOR_ADDED)) == 1
    assert len(events(Event.CLASS_INSTRUCTOR_REMOVED)) == 1


def test_an_instructor_must_be_a_pit_boss(admin_user, morning, other_trainee):
    with pytest.raises(ProductError, match="not a pit boss"):
        services.class_instructor_add(
            actor=admin_user, training_class=morning, instructor=other_trainee
        )


# Inviting.


def invitation_path(message) -> str:
    match = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_an_invitation_makes_a_trainee_and_mails_a_link_that_sets_a_password(
    client, pit_boss, morning, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invited = services.trainee_invite(
            actor=pit_boss,
            username="jdoe",
            email="jane.doe@casino.example",
            first_name="Jane",
            last_name="Doe",
            training_class=morning,
            link_base=BASE,
        )
    assert roles_of(invited) == {Role.TRAINEE}
    assert not invited.has_usable_password()
    assert morning.trainees.filter(pk=invited.pk).exists()
    [entry] = events(Event.TRAINEE_INVITED)
    assert entry.actor_id == pit_boss.pk
    assert entry.payload == {"username": "jdoe", "email": "jane.doe@casino.example"}
    assert len(events(Event.CLASS_TRAINEE_ADDED)) == 1

    [message] = mail.outbox
    assert message.to == ["jane.doe@casino.example"]
    assert message.subject == "Shoe School: your trainee account"
    assert '"jdoe"' in message.body
    page = client.get(invitation_path(message), follow=True)
    assert "Choose a new password" in page.content.decode()
    form_url = page.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    invited.refresh_from_db()
    assert invited.check_password(NEW_PASSWORD)
    signed_in = client.post(reverse("login"), {"username": "jdoe", "password": NEW_PASSWORD})
    assert signed_in.status_code == 302


@pytest.mark.parametrize(
    ("changes", "field", "error"),
    [
        ({"username": ""}, "username", ProductError),
        ({"username": "has space"}, "username", ProductError),
        ({"email": ""}, "email", ProductError),
        ({"email": "not-an-address"}, "email", ProductError),
        ({"username": "TINA"}, "username", ConflictError),
        ({"email": "TINA@casino.example"}, "email", ConflictError),
    ],
)
def test_a_bad_invitation_is_refused_at_its_field_and_sends_nothing(
    pit_boss, morning, trainee, changes, field, error, django_capture_on_commit_callbacks
):
    trainee.email = "tina@casino.example"
    trainee.save()
    details = {"username": "jdoe", "email": "jane@casino.example", **changes}
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(error) as caught:
        services.trainee_invite(actor=pit_boss, training_class=morning, link_base=BASE, **details)
    assert caught.value.field == field
    assert not mail.outbox
    assert not events(Event.TRAINEE_INVITED)
    assert get_user_model().objects.count() == 2


def test_a_pit_boss_may_not_invite_onto_another_boss_s_class(pit_boss, evening):
    with pytest.raises(ForbiddenError):
        services.trainee_invite(
            actor=pit_boss,
            username="x",
            email="x@casino.example",
            training_class=evening,
            link_base=BASE,
        )
    assert not get_user_model().objects.filter(username="x").exists()


# The roster file.

HEADER = "username,first_name,last_name,email,class\n"


def roster(*lines: str) -> list:
    return services.roster_rows_from_csv(text=HEADER + "".join(line + "\n" for line in lines))


def test_a_roster_invites_the_new_and_adds_the_existing(
    pit_boss, morning, other_trainee, django_capture_on_commit_callbacks
):
    rows = roster(
        "jdoe,Jane,Doe,jane@casino.example,Morning",
        "otto,,,,morning",  # an existing trainee: the other columns are not needed
        "tina,,,,Morning",  # already on it: said, not refused
    )
    with django_capture_on_commit_callbacks(execute=True):
        report = services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert report.applied
    assert (report.rows, report.invited, report.added, report.already) == (
        3,
        ["jdoe"],
        ["jdoe", "otto"],
        ["tina"],
    )
    assert set(morning.trainees.values_list("username", flat=True)) == {"tina", "otto", "jdoe"}
    assert [m.to for m in mail.outbox] == [["jane@casino.example"]]
    [entry] = events(Event.ROSTER_IMPORTED)
    assert entry.actor_id == pit_boss.pk
    assert entry.payload["added"] == ["jdoe", "otto"]


def test_one_bad_row_and_nothing_at_all_is_written(
    pit_boss, morning, evening, django_capture_on_commit_callbacks
):
    users_before = get_user_model().objects.count()
    ledger_before = LedgerEntry.objects.count()
    rows = roster(
        "jdoe,Jane,Doe,jane@casino.example,Morning",
        "bad name,,,bob@casino.example,Morning",
        "kim,,,not-an-address,Nowhere",
        "sam,,,sam@casino.example,Evening",  # taught by another boss
        "JDOE,,,jd@casino.example,Morning",  # the same username again
        "boss,,,,Morning",  # not a trainee
    )
    with django_capture_on_commit_callbacks(execute=True):
        report = services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert not report.applied
    assert [(p.line, p.column) for p in report.problems] == [
        (3, "username"),
        (4, "email"),
        (4, "class"),
        (5, "class"),
        (6, "username"),
        (7, "username"),
    ]
    assert "line 2" in report.problems[4].message
    assert get_user_model().objects.count() == users_before
    assert LedgerEntry.objects.count() == ledger_before
    assert list(morning.trainees.values_list("username", flat=True)) == ["tina"]
    assert not mail.outbox


def test_a_roster_refuses_the_same_address_twice_and_an_address_in_use(pit_boss, morning, trainee):
    trainee.email = "tina@casino.example"
    trainee.save()
    rows = roster(
        "a1,,,same@casino.example,Morning",
        "a2,,,SAME@casino.example,Morning",
        "a3,,,tina@casino.example,Morning",
    )
    report = services.roster_import(actor=pit_boss, rows=rows, link_base=BASE)
    assert [(p.line, p.column) for p in report.problems] == [(3, "email"), (4, "email")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("username,email\njdoe,j@x.example\n", "missing: first_name, last_name, class"),
        ("", "missing: username"),
    ],
)
def test_a_roster_without_its_columns_is_refused_whole(text, message):
    with pytest.raises(ProductError, match=message) as caught:
        services.roster_rows_from_csv(text=text)
    assert caught.value.field == "file"


def test_a_roster_with_no_rows_is_refused(pit_boss, morning):
    report = services.roster_import(actor=pit_boss, rows=roster(), link_base=BASE)
    assert [p.message for p in report.problems] == ["the roster has no rows"]


def test_a_spreadsheet_s_byte_order_mark_and_column_case_are_read():
    rows = services.roster_rows_from_csv(
        text="\ufeffUsername,First_Name,Last_Name,Email,Class\r\njdoe,J,D,j@x.example,Morning\r\n"
    )
    assert rows == [
        (
            2,
            {
                "username": "jdoe",
                "first_name": "J",
                "last_name": "D",
                "email": "j@x.example",
                "class": "Morning",
            },
        )
    ]


@pytest.mark.parametrize("role", ["trainee", "compliance"])
def test_trainees_and_compliance_may_not_import_a_roster(role, morning):
    with pytest.raises(ForbiddenError):
        services.roster_import(
            actor=UserFactory(roles=[role]), rows=roster("x,,,x@x.example,Morning"), link_base=BASE
        )


def test_an_invitee_without_a_password_gets_a_new_link(
    client, pit_boss, morning, trainee, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invited = services.trainee_invite(
            actor=pit_boss,
            username="jdoe",
            email="jane@casino.example",
            training_class=morning,
            link_base=BASE,
        )
        services.trainee_invitation_resend(
            actor=pit_boss, training_class=morning, trainee=invited, link_base=BASE
        )
    assert len(mail.outbox) == 2
    [entry] = events(Event.INVITATION_RESENT)
    assert entry.actor_id == pit_boss.pk
    page = client.get(invitation_path(mail.outbox[1]), follow=True)
    assert "Choose a new password" in page.content.decode()
    # Once a password is chosen, a reset from the login page is the way.
    with pytest.raises(ConflictError, match="has chosen a password already"):
        services.trainee_invitation_resend(
            actor=pit_boss, training_class=morning, trainee=trainee, link_base=BASE
        )


def test_only_the_class_s_instructors_resend_an_invitation(pit_boss, evening, other_trainee):
    other_trainee.set_unusable_password()
    other_trainee.save()
    with pytest.raises(ForbiddenError):
        services.trainee_invitation_resend(
            actor=pit_boss, training_class=evening, trainee=other_trainee, link_base=BASE
        )
    assert not events(Event.INVITATION_RESENT)
