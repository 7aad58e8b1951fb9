"""A refresher is made for one trainee: it is theirs to practise, nobody else's (issue #24,
found point 9). Before, it appeared in every trainee's "Practise any drill", and any
trainee could start it by its id on the page or in the API."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from audit.services.remediation import refresher_assign
from core.errors import NotFoundError
from tests.factories import UserFactory
from tests.graded import client_for, make_attempt, wrong
from trainer.models import Attempt, Mode
from trainer.selectors.attempts import practice_drills
from trainer.services.attempts import attempt_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def refresher(pit, trainee, pit_boss):
    make_attempt(trainee=trainee, answers=[wrong("5.00"), wrong("2.50")])
    return refresher_assign(trainee=trainee, user=pit_boss, skills=["natural-3to2"])


def test_a_refresher_is_in_no_other_trainees_practice_list(refresher, trainee, other_trainee):
    drill = refresher.assignment.drill
    assert drill.made_for_id == trainee.pk
    assert drill not in list(practice_drills(user=other_trainee))
    page = client_for(other_trainee).get(reverse("train:home")).content.decode()
    assert drill.title not in page
    # Its trainee practises it from their own list as well as from the assignment.
    assert drill in list(practice_drills(user=trainee))


def test_another_trainee_cannot_start_it_by_its_id(refresher, other_trainee):
    drill = refresher.assignment.drill
    with pytest.raises(NotFoundError):
        attempt_start(trainee=other_trainee, drill=drill, mode=Mode.PRACTICE)
    response = client_for(other_trainee).post(
        reverse("train:start"), {"drill": drill.pk, "mode": "practice"}
    )
    assert response.status_code == 404
    api = APIClient()
    api.force_login(other_trainee)
    refused = api.post("/api/attempts/", {"drill": drill.pk, "mode": "practice"}, format="json")
    assert refused.status_code == 404, refused.content
    assert refused.json()["field"] == "drill"
    # Nor through the trainee's list of drills to practise.
    listed = api.get("/api/practice-drills/")
    assert listed.status_code == 200
    assert drill.pk not in [row["id"] for row in listed.json()["results"]]
    assert not Attempt.objects.filter(trainee=other_trainee).exists()


def test_a_trainee_who_is_also_a_pit_boss_does_not_see_it_either(refresher):
    both = UserFactory(username="tb", roles=["trainee", "pit_boss"])
    assert refresher.assignment.drill not in list(practice_drills(user=both))
    with pytest.raises(NotFoundError):
        attempt_start(trainee=both, drill=refresher.assignment.drill, mode=Mode.PRACTICE)


def test_its_trainee_practises_it_by_id_in_the_api(refresher, trainee):
    api = APIClient()
    api.force_login(trainee)
    listed = api.get("/api/practice-drills/").json()["results"]
    assert refresher.assignment.drill.pk in [row["id"] for row in listed]
    started = api.post(
        "/api/attempts/",
        {"drill": refresher.assignment.drill.pk, "mode": "practice"},
        format="json",
    )
    assert started.status_code == 201, started.content
