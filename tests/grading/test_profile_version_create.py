import pytest

from core.errors import ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import entries_written
from trainer.models import RuleProfile
from trainer.services.profiles import profile_version_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def casino_shoe():
    return RuleProfile.objects.get(name="casino-shoe")


def test_a_correction_is_the_next_version_and_leaves_the_first_as_it_was(casino_shoe, admin_user):
    first = casino_shoe.current_version
    version = profile_version_create(
        profile=casino_shoe,
        parameters={"dealer_hits_soft_17": False},
        notes="The house stands on soft 17",
        user=admin_user,
    )
    assert version.version == first.version + 1
    assert version.parameters["dealer_hits_soft_17"] is False
    assert version.parameters["decks"] == first.parameters["decks"]
    first.refresh_from_db()
    assert first.parameters["dealer_hits_soft_17"] is True
    assert casino_shoe.current_version == version
    assert version.engine_profile.dealer_hits_soft_17 is False


def test_it_records_the_new_version_in_the_ledger(casino_shoe, admin_user):
    version = profile_version_create(
        profile=casino_shoe, parameters={"decks": 8}, notes="Eight decks", user=admin_user
    )
    entry = LedgerEntry.objects.get(event=Event.PROFILE_VERSION_CREATED)
    assert entry.subject_id == str(version.pk)
    assert entry.payload["parameters"]["decks"] == 8
    assert entry.actor_id == admin_user.pk


def test_it_refuses_a_parameter_the_engine_refuses_and_names_it(casino_shoe):
    with pytest.raises(ProductError) as caught:
        profile_version_create(profile=casino_shoe, parameters={"decks": 9}, notes="oops")
    assert caught.value.field == "parameters.decks"
    assert casino_shoe.versions.count() == 1
    assert not entries_written().exists()


def test_it_refuses_a_malformed_amount(casino_shoe):
    with pytest.raises(ProductError, match="min_bet"):
        profile_version_create(profile=casino_shoe, parameters={"min_bet": "abc"}, notes="x")


def test_it_refuses_a_version_that_says_nothing_of_why(casino_shoe):
    with pytest.raises(ProductError, match="corrects"):
        profile_version_create(profile=casino_shoe, parameters={"decks": 8}, notes="  ")
