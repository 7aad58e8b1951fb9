"""The class pages under /teach/classes/: the list, a new class, the roster with its add,
invite and remove, and a roster file with its per-line report."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ledger.models import LedgerEntry
from tests.audit.factories import TrainingClassFactory
from tests.factories import UserFactory
from tests.graded import client_for
from trainer.models import TrainingClass

pytestmark = pytest.mark.django_db

HEADER = "username,first_name,last_name,email,class\n"


@pytest.fixture
def morning(trainee, pit_boss):
    trainee.email = "tina@casino.example"
    trainee.save()
    return TrainingClassFactory(name="Morning", trainees=[trainee], instructors=[pit_boss])


def test_the_workspace_links_to_the_classes(pit_boss):
    html = client_for(pit_boss).get(reverse("teach:index")).content.decode()
    assert f'href="{reverse("teach:classes")}"' in html


def test_the_list_shows_a_pit_boss_their_classes_with_counts(pit_boss, morning, other_trainee):
    TrainingClassFactory(name="Not mine", trainees=[other_trainee])
    html = client_for(pit_boss).get(reverse("teach:classes")).content.decode()
    assert "Morning" in html
    assert "Not mine" not in html
    row = re.search(rf'<tr data-class="{morning.pk}">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r"<td>(\d+)</td>", row) == ["1", "1"]


def test_creating_a_class_leads_to_its_page(pit_boss):
    client = client_for(pit_boss)
    response = client.post(reverse("teach:class_create"), {"name": "Night"})
    created = TrainingClass.objects.get(name="Night")
    assert response.status_code == 302
    assert response["Location"] == reverse("teach:class", args=[created.pk])
    assert list(created.instructors.all()) == [pit_boss]


def test_a_taken_name_is_shown_at_the_field(pit_boss, morning):
    response = client_for(pit_boss).post(reverse("teach:class_create"), {"name": "MORNING"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_name_error"' in html
    assert "there is already a class named" in html
    assert TrainingClass.objects.count() == 1


def test_the_class_page_shows_the_roster(pit_boss, morning, trainee):
    html = client_for(pit_boss).get(reverse("teach:class", args=[morning.pk])).content.decode()
    row = re.search(rf'<tr data-trainee="{trainee.pk}">(.*?)</tr>', html, re.S).group(1)
    assert trainee.get_full_name() in row
    assert "tina" in row
    assert "tina@casino.example" in row
    assert "Not started" in row
    assert reverse("teach:class_trainee_remove", args=[morning.pk, trainee.pk]) in row


def test_adding_an_existing_trainee(pit_boss, morning, other_trainee):
    client = client_for(pit_boss)
    url = reverse("teach:class_trainee_add", args=[morning.pk])
    response = client.post(url, {"username": "OTTO"})
    assert response.status_code == 302
    assert morning.trainees.filter(pk=other_trainee.pk).exists()


@pytest.mark.parametrize(
    ("username", "message"),
    [("nobody", "no trainee you can add has this username"), ("tina", "is already on Morning")],
)
def test_a_refused_add_is_shown_at_the_username(pit_boss, morning, username, message):
    url = reverse("teach:class_trainee_add", args=[morning.pk])
    response = client_for(pit_boss).post(url, {"username": username})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_username_error"' in html
    assert message in html


def test_removing_asks_first_then_removes(pit_boss, morning, trainee):
    client = client_for(pit_boss)
    url = reverse("teach:class_trainee_remove", args=[morning.pk, trainee.pk])
    page = client.get(url)
    assert "Remove from the class" in page.content.decode()
    assert morning.trainees.filter(pk=trainee.pk).exists()
    response = client.post(url)
    assert response.status_code == 302
    assert not morning.trainees.exists()
    assert client.get(url).status_code == 404


def test_inviting_from_the_class_page(pit_boss, morning, django_capture_on_commit_callbacks):
    url = reverse("teach:class_invite", args=[morning.pk])
    details = {"username": "jdoe", "email": "jane@casino.example", "first_name": "Jane"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(pit_boss).post(url, details)
    assert response.status_code == 302
    assert morning.trainees.filter(username="jdoe").exists()
    [message] = mail.outbox
    assert "http://testserver/accounts/password/reset/" in message.body


def test_a_refused_invitation_is_shown_at_its_field(pit_boss, morning):
    url = reverse("teach:class_invite", args=[morning.pk])
    response = client_for(pit_boss).post(url, {"username": "jdoe", "email": "tina@casino.example"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="invite_email_error"' in html
    # One answer for an address in use, whoever holds it; the address is not repeated.
    assert "no invitation can go to this address" in html
    assert "tina@casino.example" not in html.split("invite_email_error")[1][:400]
    assert not get_user_model().objects.filter(username="jdoe").exists()


def upload(text: str) -> dict:
    return {"file": SimpleUploadedFile("roster.csv", text.encode(), content_type="text/csv")}


def test_a_roster_file_is_loaded(
    pit_boss, morning, other_trainee, django_capture_on_commit_callbacks
):
    text = HEADER + "jdoe,Jane,Doe,jane@casino.example,Morning\notto,,,,Morning\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(pit_boss).post(reverse("teach:roster_import"), upload(text))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Roster loaded" in html
    assert "1 invited, 2 added to a class" in html
    assert set(morning.trainees.values_list("username", flat=True)) == {"tina", "otto", "jdoe"}
    assert len(mail.outbox) == 1


def test_a_roster_file_with_a_bad_line_changes_nothing_and_names_it(pit_boss, morning):
    ledger = LedgerEntry.objects.count()
    text = HEADER + "jdoe,Jane,Doe,jane@casino.example,Morning\nkim,,,kim@casino.example,Nowhere\n"
    response = client_for(pit_boss).post(reverse("teach:roster_import"), upload(text))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was changed" in html
    assert re.search(r"<tr><td>3</td><td>class</td><td>no class &#x27;Nowhere&#x27;", html)
    assert not get_user_model().objects.filter(username="jdoe").exists()
    assert LedgerEntry.objects.count() == ledger


def test_a_file_that_is_not_a_roster_is_refused_at_the_file(pit_boss):
    response = client_for(pit_boss).post(reverse("teach:roster_import"), upload("a,b\n1,2\n"))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_file_error"' in html
    assert "missing: username" in html


def test_a_file_that_is_not_utf8_is_refused_at_the_file(pit_boss):
    data = {"file": SimpleUploadedFile("roster.csv", "é".encode("latin-1"))}
    response = client_for(pit_boss).post(reverse("teach:roster_import"), data)
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()


def test_the_template_names_the_columns_and_the_classes(pit_boss, morning):
    response = client_for(pit_boss).get(reverse("teach:roster_template"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    assert lines == [HEADER.strip(), "jdoe,Jane,Doe,jane.doe@example.com,Morning"]


def test_a_pit_boss_does_not_see_another_s_class(pit_boss, other_trainee):
    theirs = TrainingClassFactory(
        name="Theirs",
        trainees=[other_trainee],
        instructors=[UserFactory(roles=["pit_boss"])],
    )
    client = client_for(pit_boss)
    assert client.get(reverse("teach:class", args=[theirs.pk])).status_code == 404
    url = reverse("teach:class_trainee_remove", args=[theirs.pk, other_trainee.pk])
    assert client.post(url).status_code == 404
    assert theirs.trainees.exists()


def test_sending_an_invitation_again_from_the_roster(
    pit_boss, morning, django_capture_on_commit_callbacks
):
    client = client_for(pit_boss)
    invite = reverse("teach:class_invite", args=[morning.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(invite, {"username": "jdoe", "email": "jane@casino.example"})
    invited = get_user_model().objects.get(username="jdoe")
    again = reverse("teach:class_invitation_resend", args=[morning.pk, invited.pk])
    assert again in client.get(reverse("teach:class", args=[morning.pk])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(again, follow=True)
    assert "A new invitation went to jane@casino.example." in response.content.decode()
    assert len(mail.outbox) == 2


def test_the_class_page_gives_every_field_an_id_of_its_own(pit_boss, morning):
    # The add and invite forms both have a username: with the same id, the invite form's
    # "Username" label named the add form's field.
    html = client_for(pit_boss).get(reverse("teach:class", args=[morning.pk])).content.decode()
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert 'for="invite_username"' in html
