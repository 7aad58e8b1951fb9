""" "Practical required" per table (#28): a table follows the jurisdiction unless an
administrator sets it on or off (trainer.services.house_rules.table_practical_set, with a
ledger event); the sign-off reads it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.services.practical import practical_refusal, practical_required
from core.errors import ConflictError, ForbiddenError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.factories import table_test
from tests.audit.test_certification import sign, sit
from tests.factories import UserFactory
from trainer.models import RuleProfile
from trainer.services.house_rules import table_practical_set

pytestmark = pytest.mark.practical


@pytest.fixture
def shoe(db):
    return RuleProfile.objects.get(name="casino-shoe")


@pytest.fixture
def admin(db):
    return UserFactory(username="boss-admin", roles=["admin"])


def test_a_table_follows_the_jurisdiction_by_default(shoe):
    assert shoe.practical_required is None
    assert practical_required(shoe) is True  # the house's jurisdiction asks for one


def test_off_signs_without_a_sheet_and_is_in_the_ledger(shoe, admin, pit, trainee, pit_boss):
    table_practical_set(profile=shoe, required=False, actor=admin)
    shoe.refresh_from_db()
    assert shoe.practical_required is False
    assert practical_refusal(trainee=trainee, profile=shoe) is None
    entry = LedgerEntry.objects.filter(event=Event.PROFILE_PRACTICAL_SET).latest("sequence")
    assert entry.payload["profile"] == "casino-shoe"
    assert entry.payload["practical_required"] == "off"
    assert sign(trainee, sit(trainee, table_test("casino-shoe")), pit_boss, shoe).pk


def test_on_refuses_the_sign_off_without_a_sheet(shoe, admin, pit, trainee, pit_boss):
    table_practical_set(profile=shoe, required=True, actor=admin)
    attempt = sit(trainee, table_test("casino-shoe"))
    with pytest.raises(ConflictError, match="no practical evaluation sheet is signed"):
        sign(trainee, attempt, pit_boss, shoe)


def test_follow_again(shoe, admin, monkeypatch):
    table_practical_set(profile=shoe, required=False, actor=admin)
    table_practical_set(profile=shoe, required=None, actor=admin)
    shoe.refresh_from_db()
    assert shoe.practical_required is None
    assert practical_required(shoe) is True


def test_only_an_administrator_sets_it(shoe, pit_boss):
    with pytest.raises(ForbiddenError):
        table_practical_set(profile=shoe, required=False, actor=pit_boss)
    shoe.refresh_from_db()
    assert shoe.practical_required is None


def test_nothing_else_is_a_setting(shoe, admin):
    with pytest.raises(ProductError):
        table_practical_set(profile=shoe, required="maybe", actor=admin)


# The house-rules page.


def test_the_table_page_sets_it(admin, shoe):
    from tests.graded import client_for

    client = client_for(admin)
    page = client.get(reverse("house_rules:table", args=["casino-shoe"])).content.decode()
    assert "The practical test" in page
    assert "As the jurisdiction says" in page
    url = reverse("house_rules:practical", args=["casino-shoe"])
    response = client.post(url, {"practical_required": "off"})
    assert response.status_code == 302
    shoe.refresh_from_db()
    assert shoe.practical_required is False
    response = client.post(url, {"practical_required": "sometimes"})
    assert response.status_code == 400
    assert "choose required, not required, or as the jurisdiction says" in (
        response.content.decode()
    )
    shoe.refresh_from_db()
    assert shoe.practical_required is False


@pytest.mark.parametrize("role", ["pit_boss", "compliance_officer", "trainee"])
def test_only_an_administrator_sets_it_on_the_page(role, request, shoe):
    from tests.graded import client_for

    client = client_for(request.getfixturevalue(role))
    url = reverse("house_rules:practical", args=["casino-shoe"])
    assert client.post(url, {"practical_required": "off"}).status_code == 403
    shoe.refresh_from_db()
    assert shoe.practical_required is None
