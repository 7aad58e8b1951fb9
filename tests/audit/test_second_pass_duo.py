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
from tests.audit.conftest import client_for
from tests.audit.test_separation_of_duties import duo  # noqa: F401 (a fixture)
from trainer.services import classes as services

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
