"""Second pass of issue #23, as a trainee who is also a pit boss ("duo", on the Morning
class they also teach, with the boss). Taking themselves off the class used to be
allowed: then the boss could no longer act for them (their flag stayed, but nobody of the
class could lift it, certify or assign), and, on no class, any friendly pit boss could add
them and lift the flag and sign. Nobody takes themselves off a class."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from audit.services.reviews import retraining_flag_create
from core.errors import ForbiddenError
from ledger.events import Event
from ledger.models import LedgerEntry
from teaching.services import classes as services
from tests.audit.test_separation_of_duties import duo  # noqa: F401 (a fixture)
from tests.graded import client_for

pytestmark = pytest.mark.django_db


def test_duo_cannot_take_themselves_off_the_class_by_service(pit, duo, pit_boss):  # noqa: F811
    retraining_flag_create(trainee=duo, flagged_by=pit_boss, reason="Rounding")
    with pytest.raises(ForbiddenError, match="nobody takes themselves off"):
        services.class_trainee_remove(actor=duo, training_class=pit["mine"], trainee=duo)
    assert pit["mine"].trainees.filter(pk=duo.pk).exists()
    assert not LedgerEntry.objects.filter(event=Event.CLASS_TRAINEE_REMOVED).exists()


def test_nor_by_the_page_or_the_api(pit, duo):  # noqa: F811
    page = client_for(duo).post(
        reverse("teach:class_trainee_remove", args=[pit["mine"].pk, duo.pk])
    )
    api = APIClient()
    api.force_authenticate(duo)
    response = api.delete(f"/api/classes/{pit['mine'].pk}/trainees/{duo.pk}/")
    assert (page.status_code, response.status_code) == (403, 403)
    assert pit["mine"].trainees.filter(pk=duo.pk).exists()


def test_another_instructor_still_takes_duo_off(pit, duo, pit_boss):  # noqa: F811
    services.class_trainee_remove(actor=pit_boss, training_class=pit["mine"], trainee=duo)
    assert not pit["mine"].trainees.filter(pk=duo.pk).exists()


# A fixed exam pool is sealed from its trainees: results never show the expected answers
# while it is open. But duo, a pit boss too, reads every pool round in the library (the
# scenario API and page, the drill builder's preview with its answer key) and the
# classmates' graded sittings with their expected answers on the pit's pages: the pool was
# open to them before they sat it. Someone who can read pools cannot sit one.


@pytest.fixture
def duo_pool(pit, duo, pit_boss):  # noqa: F811
    from teaching.services.assignments import assignment_create
    from tests.trainer.test_pool_replay import make_pool
    from trainer.models import Mode

    pool = make_pool(pit_boss)
    assignment = assignment_create(
        drill=pool, mode=Mode.EXAM, training_class=pit["mine"], assigned_by=pit_boss
    )
    return pool, assignment


def test_duo_could_read_their_own_pool_s_rounds_as_a_pit_boss(duo, duo_pool):  # noqa: F811
    pool, _ = duo_pool
    api = APIClient()
    api.force_authenticate(duo)
    scenario_id = api.get(f"/api/drills/{pool.pk}/").json()["scenarios"][0]["id"]
    # What the pit boss's door shows: the round itself, from which the engine settles it.
    assert api.get(f"/api/scenarios/{scenario_id}/").json()["document"]["boxes"]


def test_someone_who_reads_pools_cannot_sit_one(pit, duo, duo_pool, trainee):  # noqa: F811
    from core.errors import ConflictError
    from trainer.models import Attempt, Mode
    from trainer.services.attempts import attempt_start

    pool, assignment = duo_pool
    with pytest.raises(ConflictError) as refused:
        attempt_start(trainee=duo, drill=pool, mode=Mode.EXAM, assignment=assignment)
    assert refused.value.code == "pool_readable"
    assert "table test" in refused.value.message
    assert not Attempt.objects.filter(trainee=duo).exists()
    # The API says the same, as JSON.
    api = APIClient()
    api.force_authenticate(duo)
    response = api.post(
        "/api/attempts/",
        {"drill": pool.pk, "assignment": assignment.pk, "mode": "exam"},
        format="json",
    )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "pool_readable"
    # A trainee of the class sits it as before.
    assert attempt_start(trainee=trainee, drill=pool, mode=Mode.EXAM, assignment=assignment)
