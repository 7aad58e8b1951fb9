"""The Administration pages (issue #24, "the administrator cannot run the department"): an
administrator adds people, changes roles, closes, opens and unlocks accounts, sends an
invitation again, chooses a class's instructors and moves a trainee, all in pages; anyone
else is refused and nothing changes; an administrator's own account is refused on the page
that says why."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from core.lockout import lockout_state
from core.roles import Role, roles_of
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from trainer.selectors.visibility import viewer_may_act_for

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fresh(user):
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def ada(db):
    return UserFactory(username="ada", roles=["admin"])


@pytest.fixture
def admin(ada) -> Client:
    return signed_in(ada)


@pytest.fixture
def morning(trainee, pit_boss):
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


@pytest.fixture
def evening(other_trainee):
    return TrainingClassFactory(name="Evening", trainees=[other_trainee])


def test_the_home_page_leads_the_administrator_to_people_and_classes(admin):
    html = admin.get("/").content.decode()
    panel = html.split('data-panel="admin"', 1)[1].split("</section>", 1)[0]
    assert 'href="/administration/"' in panel
    assert "people and their roles, classes and their instructors" in panel
    index = admin.get(reverse("administration:index")).content.decode()
    for name in ("people", "person_create", "classes", "trainee_move"):
        assert f'href="{reverse(f"administration:{name}")}"' in index


def test_an_admin_adds_a_pit_boss_in_the_page_and_the_link_works_for_days(
    admin, django_capture_on_commit_callbacks
):
    form = admin.get(reverse("administration:person_create")).content.decode()
    assert "The link works for 7 days" in form
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(
            reverse("administration:person_create"),
            {
                "username": "paula",
                "first_name": "Paula",
                "last_name": "Pit",
                "email": "paula@casino.example",
                "roles": ["pit_boss"],
            },
            follow=True,
        )
    html = response.content.decode()
    assert "paula added" in html
    assert "works for 7 days" in html
    paula = get_user_model().objects.get(username="paula")
    assert roles_of(paula) == {Role.PIT_BOSS}
    [message] = mail.outbox
    assert "within 7 days" in message.body
    assert 'data-status="invited"' in html
    assert "Send the invitation again" in html


def test_a_person_without_a_role_is_refused_at_the_field(admin):
    response = admin.post(
        reverse("administration:person_create"),
        {"username": "x", "email": "x@x.example"},
    )
    assert response.status_code == 400
    assert "choose at least one role" in response.content.decode()
    assert not get_user_model().objects.filter(username="x").exists()


def test_roles_change_in_the_page(admin, trainee):
    url = reverse("administration:person_roles", args=[trainee.pk])
    response = admin.post(url, {"roles": ["trainee", "pit_boss"]})
    assert response.status_code == 302
    assert roles_of(fresh(trainee)) == {Role.TRAINEE, Role.PIT_BOSS}


def test_an_admin_acting_on_themselves_is_told_why_on_their_page(admin, ada):
    response = admin.post(
        reverse("administration:person_roles", args=[ada.pk]), {"roles": ["trainee"]}
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert "nobody takes away their own administrator role" in html
    assert "This is you" in html
    response = admin.post(reverse("administration:person_deactivate", args=[ada.pk]))
    assert response.status_code == 403
    assert "nobody closes or opens their own account" in response.content.decode()
    ada = fresh(ada)
    assert ada.is_active
    assert Role.ADMIN in roles_of(ada)


def test_a_locked_trainee_is_listed_and_unlocked_from_their_page(admin, trainee):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "tina", "password": "wrong"})
    listed = admin.get(reverse("administration:people") + "?status=locked").content.decode()
    assert 'data-person="tina"' in listed
    assert "1 account locked out" in admin.get(reverse("administration:index")).content.decode()
    page = admin.get(reverse("administration:person", args=[trainee.pk])).content.decode()
    assert "Unlock the account" in page
    assert "wrong passwords" in page
    response = admin.post(reverse("administration:person_unlock", args=[trainee.pk]), follow=True)
    assert "tina is unlocked" in response.content.decode()
    assert lockout_state("tina") is None


def test_closing_and_opening_an_account_in_the_page(admin, trainee):
    admin.post(reverse("administration:person_deactivate", args=[trainee.pk]))
    assert not fresh(trainee).is_active
    page = admin.get(reverse("administration:person", args=[trainee.pk])).content.decode()
    assert "Open the account again" in page
    again = admin.post(reverse("administration:person_deactivate", args=[trainee.pk]))
    assert again.status_code == 409
    assert "already closed" in again.content.decode()
    admin.post(reverse("administration:person_reactivate", args=[trainee.pk]))
    assert fresh(trainee).is_active


def test_a_second_pit_boss_shares_a_class_chosen_in_the_page(admin, morning, trainee, pit_boss):
    sam = UserFactory(username="sam", roles=["pit_boss"])
    assert not viewer_may_act_for(user=sam, trainee=trainee)
    page = admin.get(reverse("administration:class", args=[morning.pk])).content.decode()
    assert f'<option value="{sam.pk}">' in page
    assert f'<option value="{pit_boss.pk}">' not in page  # already teaches it
    response = admin.post(
        reverse("administration:class_instructor_add", args=[morning.pk]), {"instructor": sam.pk}
    )
    assert response.status_code == 302
    assert set(morning.instructors.all()) == {pit_boss, sam}
    assert viewer_may_act_for(user=fresh(sam), trainee=trainee)
    assert signed_in(sam).get(reverse("teach:class", args=[morning.pk])).status_code == 200
    [entry] = LedgerEntry.objects.filter(event=Event.CLASS_INSTRUCTOR_ADDED)
    assert entry.payload["username"] == "sam"
    admin.post(reverse("administration:class_instructor_remove", args=[morning.pk, pit_boss.pk]))
    assert list(morning.instructors.all()) == [sam]


def test_a_trainee_is_not_offered_as_an_instructor(admin, morning, trainee):
    response = admin.post(
        reverse("administration:class_instructor_add", args=[morning.pk]),
        {"instructor": trainee.pk},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert trainee not in morning.instructors.all()


def test_a_trainee_is_moved_between_classes_in_its_own_page(admin, morning, evening, trainee):
    page = admin.get(reverse("administration:trainee_move") + f"?trainee={trainee.pk}")
    assert f'<option value="{trainee.pk}" selected>' in page.content.decode()
    response = admin.post(
        reverse("administration:trainee_move"),
        {"trainee": trainee.pk, "training_class": evening.pk},
        follow=True,
    )
    assert "moved to Evening (they left Morning)" in response.content.decode()
    assert list(trainee.classes_attended.all()) == [evening]
    assert LedgerEntry.objects.filter(event=Event.CLASS_TRAINEE_TRANSFERRED).count() == 1
    again = admin.post(
        reverse("administration:trainee_move"),
        {"trainee": trainee.pk, "training_class": evening.pk},
    )
    assert again.status_code == 400
    assert "is on Evening only already" in again.content.decode()


@pytest.mark.parametrize("who", ["trainee", "pit_boss", "compliance_officer", "double"])
def test_nobody_but_an_administrator_posts_to_the_administration_pages(
    request, who, morning, evening, trainee, other_trainee
):
    if who == "double":
        actor = UserFactory(username="dbl", roles=["trainee", "pit_boss"])
    else:
        actor = request.getfixturevalue(who)
    client = signed_in(actor)
    before = LedgerEntry.objects.count()
    posts = [
        (
            reverse("administration:person_create"),
            {"username": "z", "email": "z@z.example", "roles": ["admin"]},
        ),
        (reverse("administration:person_roles", args=[actor.pk]), {"roles": ["admin"]}),
        (reverse("administration:person_deactivate", args=[other_trainee.pk]), {}),
        (reverse("administration:person_unlock", args=[other_trainee.pk]), {}),
        (
            reverse("administration:class_instructor_add", args=[morning.pk]),
            {"instructor": actor.pk},
        ),
        (
            reverse("administration:trainee_move"),
            {"trainee": other_trainee.pk, "training_class": morning.pk},
        ),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert "Administration is for administrators" in response.content.decode()
    assert LedgerEntry.objects.count() == before
    assert Role.ADMIN not in roles_of(fresh(actor))
    assert fresh(other_trainee).is_active
    assert actor not in evening.instructors.all()
    assert list(other_trainee.classes_attended.all()) == [evening]


def test_a_pit_boss_with_no_class_is_told_what_to_do(db):
    newcomer = UserFactory(username="newbie", roles=["pit_boss"])
    html = signed_in(newcomer).get(reverse("pit:dashboard")).content.decode()
    assert "You teach no class yet. Create one under" in html
    assert f'href="{reverse("teach:classes")}"' in html
    assert "ask an administrator to make you an instructor" in html


def test_send_again_is_offered_on_the_people_page(admin, django_capture_on_commit_callbacks):
    invited = UserFactory(username="nia", roles=["pit_boss"], email="nia@x.example")
    invited.set_unusable_password()
    invited.save()
    html = admin.get(reverse("administration:people")).content.decode()
    row = html.split('data-person="nia"', 1)[1].split("</tr>", 1)[0]
    action = reverse("administration:person_invitation", args=[invited.pk])
    assert f'action="{action}"' in row
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(action, follow=True)
    assert "A new link went to nia@x.example; it works for 7 days." in response.content.decode()
    [message] = mail.outbox
    assert message.to == ["nia@x.example"]
