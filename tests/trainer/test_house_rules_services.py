"""House rules through their services (issue #24): an administrator changes a table's rules
from a date, or opens a new table from a copy of one; a rule profile's slug is fixed once
used; records keep the version they were made under."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from core.errors import ForbiddenError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import entries_written
from trainer.models import RuleProfile, RuleProfileVersion
from trainer.services.house_rules import house_rules_change, table_copy_create
from trainer.services.profiles import profile_version_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def shoe() -> RuleProfile:
    return RuleProfile.objects.get(name="casino-shoe")


def today() -> dt.date:
    return timezone.localdate()


def h17_off(profile: RuleProfile) -> dict:
    current = profile.current_version
    assert current is not None
    return {**current.parameters, "dealer_hits_soft_17": False}


def test_an_administrator_changes_a_rule_from_a_later_date(shoe, admin_user, settings):
    settings.TIME_ZONE = "Europe/Malta"
    first = shoe.current_version
    start = today() + dt.timedelta(days=3)
    with timezone.override(zoneinfo.ZoneInfo("Europe/Malta")):
        version = house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters=h17_off(shoe),
            effective_on=start,
            notes="The house stands on soft 17",
        )
    assert version.version == first.version + 1
    assert version.parameters["dealer_hits_soft_17"] is False
    # From the start of that day in the house's time zone.
    local = timezone.localtime(version.effective_from, zoneinfo.ZoneInfo("Europe/Malta"))
    assert (local.date(), local.time()) == (start, dt.time(0, 0))
    # Until then the old rules are the table's rules.
    assert shoe.current_version == first
    assert shoe.version_in_effect(at=version.effective_from) == version
    first.refresh_from_db()
    assert first.parameters["dealer_hits_soft_17"] is True
    entry = LedgerEntry.objects.get(event=Event.PROFILE_VERSION_CREATED)
    assert entry.actor_id == admin_user.pk
    assert entry.subject_id == str(version.pk)
    assert entry.payload["effective_from"] == version.effective_from.isoformat()
    assert entry.payload["parameters"]["dealer_hits_soft_17"] is False


def test_a_change_from_today_takes_effect_at_once(shoe, admin_user):
    version = house_rules_change(
        actor=admin_user, profile=shoe, parameters=h17_off(shoe), effective_on=today(), notes="S17"
    )
    assert version.effective_from <= timezone.now()
    assert shoe.current_version == version


@pytest.mark.parametrize("role", ["pit_boss", "compliance_officer", "trainee"])
def test_only_an_administrator_changes_house_rules(shoe, role, request):
    user = request.getfixturevalue(role)
    with pytest.raises(ForbiddenError):
        house_rules_change(
            actor=user, profile=shoe, parameters=h17_off(shoe), effective_on=today(), notes="x"
        )
    with pytest.raises(ForbiddenError):
        table_copy_create(actor=user, source=shoe, name="mine", title="Mine")
    assert shoe.versions.count() == 1
    assert not RuleProfile.objects.filter(name="mine").exists()
    assert not entries_written().exists()


def test_a_date_in_the_past_is_refused_at_the_date(shoe, admin_user):
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters=h17_off(shoe),
            effective_on=today() - dt.timedelta(days=1),
            notes="S17",
        )
    assert caught.value.field == "effective_on"
    assert "past" in caught.value.message
    assert shoe.versions.count() == 1


def test_a_date_more_than_a_year_ahead_is_refused(shoe, admin_user):
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters=h17_off(shoe),
            effective_on=dt.date(9999, 12, 31),
            notes="S17",
        )
    assert caught.value.field == "effective_on"
    assert shoe.versions.count() == 1


def test_a_scheduled_change_is_undone_by_the_old_rules_from_the_same_day(shoe, admin_user):
    first = shoe.current_version
    later = today() + dt.timedelta(days=4)
    house_rules_change(
        actor=admin_user, profile=shoe, parameters=h17_off(shoe), effective_on=later, notes="S17"
    )
    undo = house_rules_change(
        actor=admin_user,
        profile=shoe,
        parameters=first.parameters,
        effective_on=later,
        notes="Not after all: the house keeps hitting soft 17",
    )
    assert shoe.version_in_effect(at=undo.effective_from) == undo
    assert undo.parameters["dealer_hits_soft_17"] is True


def test_a_change_that_changes_nothing_is_refused(shoe, admin_user):
    with pytest.raises(ProductError, match="same rules"):
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters=dict(shoe.current_version.parameters),
            effective_on=today(),
            notes="nothing",
        )
    assert shoe.versions.count() == 1


def test_a_change_needs_a_note(shoe, admin_user):
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user, profile=shoe, parameters=h17_off(shoe), effective_on=today(), notes=""
        )
    assert caught.value.field == "notes"


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"decks": 9}, "decks", "Decks in the shoe"),
        ({"min_bet": "600", "max_bet": "500"}, "min_bet", "Smallest bet"),
        ({"change_chip": "7"}, "change_chip", "Largest chip given for cash"),
        ({"min_bet": "abc"}, "min_bet", "Smallest bet"),
    ],
)
def test_a_bad_rule_is_refused_at_its_field_in_words(shoe, admin_user, changes, field, words):
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters={**shoe.current_version.parameters, **changes},
            effective_on=today(),
            notes="bad",
        )
    assert caught.value.field == field
    assert words in caught.value.message
    # No parameter key, no engine path in what a person reads.
    assert "parameters." not in caught.value.message
    assert field not in caught.value.message
    assert shoe.versions.count() == 1
    assert not entries_written().exists()


def test_a_second_change_cannot_come_before_one_already_scheduled(shoe, admin_user):
    later = today() + dt.timedelta(days=10)
    house_rules_change(
        actor=admin_user, profile=shoe, parameters=h17_off(shoe), effective_on=later, notes="S17"
    )
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters={**h17_off(shoe), "decks": 8},
            effective_on=later - dt.timedelta(days=2),
            notes="eight decks",
        )
    assert caught.value.field == "effective_on"
    # The form starts from the newest rules recorded: the scheduled ones.
    assert shoe.newest_version.parameters["dealer_hits_soft_17"] is False


def test_a_correction_in_the_shell_is_refused_while_a_change_is_scheduled(shoe, admin_user):
    house_rules_change(
        actor=admin_user,
        profile=shoe,
        parameters=h17_off(shoe),
        effective_on=today() + dt.timedelta(days=5),
        notes="S17",
    )
    with pytest.raises(ProductError, match="scheduled"):
        profile_version_create(profile=shoe, parameters={"decks": 8}, notes="Eight decks")


def test_a_regrade_keeps_the_rules_a_round_was_dealt_under(shoe, admin_user):
    """A house change is not a correction: rounds dealt under the old version replay under
    it (or its corrections), never under rules that came in later."""
    from trainer.services.grading.basis import BasisCache

    first = shoe.current_version
    house_rules_change(
        actor=admin_user, profile=shoe, parameters=h17_off(shoe), effective_on=today(), notes="S17"
    )
    assert BasisCache()._newest_version(first) == first
    corrected = RuleProfileVersion.objects.get(pk=first.pk)
    assert shoe.version_in_effect(at=corrected.effective_from) == first


def test_a_new_table_from_a_copy_of_one(shoe, admin_user):
    table = table_copy_create(
        actor=admin_user,
        source=shoe,
        name="high-limit-shoe",
        title="High limit shoe",
        parameters={**shoe.current_version.parameters, "min_bet": "100", "max_bet": "5000"},
    )
    assert (table.name, table.title) == ("high-limit-shoe", "High limit shoe")
    version = table.current_version
    assert version.version == 1
    assert version.parameters["min_bet"] == "100"
    assert version.parameters["decks"] == shoe.current_version.parameters["decks"]
    assert "Six-deck shoe" in version.notes
    entry = LedgerEntry.objects.get(event=Event.PROFILE_CREATED)
    assert entry.actor_id == admin_user.pk
    assert entry.payload["copied_from"] == "casino-shoe"
    assert entry.payload["name"] == "high-limit-shoe"
    # It plays: the engine reads its rules under its own name.
    assert version.engine_profile.min_bet == 100


def test_a_copy_without_changes_copies_every_rule(shoe, admin_user):
    table = table_copy_create(actor=admin_user, source=shoe, name="shoe-two", title="Shoe two")
    mine, theirs = table.current_version.parameters, shoe.current_version.parameters
    assert mine.pop("name") == "shoe-two"
    assert theirs.pop("name") == "casino-shoe"
    assert mine == theirs


@pytest.mark.parametrize(
    ("name", "title", "field"),
    [
        ("casino-shoe", "Another", "name"),
        ("Casino-Shoe", "Another", "name"),
        ("casino double", "Another", "name"),
        ("", "Another", "name"),
        ("bicycle-6deck", "Another", "name"),
        ("fresh", "", "title"),
        ("fresh", "six-deck SHOE", "title"),
    ],
)
def test_a_copy_needs_a_free_short_name_and_title(shoe, admin_user, name, title, field):
    with pytest.raises(ProductError) as caught:
        table_copy_create(actor=admin_user, source=shoe, name=name, title=title)
    assert caught.value.field == field
    assert RuleProfile.objects.count() == 7  # six blackjack tables and Casino's


def test_the_slug_of_a_table_is_fixed_once_it_has_rules(shoe):
    shoe.name = "renamed"
    with pytest.raises(ValidationError, match="fixed"):
        shoe.save()
    shoe.refresh_from_db()
    assert shoe.name == "casino-shoe"
    # Its title, what people read, may be saved as before.
    shoe.title = "Main shoe"
    shoe.save()


def test_records_keep_the_version_they_were_made_under(shoe, admin_user, pit_boss, trainee):
    from teaching.selectors.drills import current_versions
    from trainer.models import Mode
    from trainer.selectors.attempts import round_rules
    from trainer.selectors.tables import table_card_get
    from trainer.services.attempts import attempt_start
    from trainer.services.drills import drill_create

    def generated(version: RuleProfileVersion):
        return drill_create(
            title=f"Soft 17 under version {version.version}",
            kind="generated",
            user=pit_boss,
            profile_version=version,
            skills=["soft-17"],
            count=2,
        )

    first = shoe.current_version
    old_drill = generated(first)
    old_attempt = attempt_start(trainee=trainee, drill=old_drill, mode=Mode.PRACTICE)
    later = house_rules_change(
        actor=admin_user,
        profile=shoe,
        parameters=h17_off(shoe),
        effective_on=today() + dt.timedelta(days=2),
        notes="S17",
    )
    # Scheduled: new drills and the table card still take the rules in force.
    assert [v for v in current_versions() if v.profile_id == shoe.pk] == [first]
    assert table_card_get(name="casino-shoe").version == first.version
    # Once in force (moved to its day), a new drill deals the new rules...
    RuleProfileVersion.objects.filter(pk=later.pk).update(effective_from=timezone.now())
    assert [v for v in current_versions() if v.profile_id == shoe.pk] == [later]
    new_drill = generated(later)
    new_attempt = attempt_start(trainee=trainee, drill=new_drill, mode=Mode.PRACTICE)
    assert {i.profile_version_id for i in new_attempt.items.all()} == {later.pk}
    assert "Dealer stands on all 17s" in round_rules(new_attempt.items.first()).placard
    # ...and every record made before keeps the version it was made under.
    old_drill.refresh_from_db()
    assert old_drill.profile_version_id == first.pk
    assert {i.profile_version_id for i in old_attempt.items.all()} == {first.pk}
    assert "Dealer hits soft 17" in round_rules(old_attempt.items.first()).placard
    assert table_card_get(name="casino-shoe").version == later.version


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"min_bet": "600", "max_bet": "500"},
            "Smallest bet: must not be above the largest bet (500)",
        ),
        (
            {"change_chip": "7"},
            "Largest chip given for cash: must be one of the table's chips "
            "(0.50, 1, 2.50, 5, 25, 100, 500)",
        ),
    ],
)
def test_a_rule_refused_beside_another_names_the_others_value(shoe, admin_user, changes, message):
    """The game says which rule bounds another (its parameters' ``refused``/``beside``)."""
    with pytest.raises(ProductError) as caught:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters={**shoe.current_version.parameters, **changes},
            effective_on=today(),
            notes="bad",
        )
    assert caught.value.message == message
