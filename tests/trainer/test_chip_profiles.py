"""Profile versions recorded before chips were rules keep working: they load with their
profile's chips, they still match the engine's profile, and a new version records chips."""

from decimal import Decimal

from trainer import rules
from trainer.games.blackjack import under_profile
from trainer.models import RuleProfile, RuleProfileVersion
from trainer.rules.profiles import CHIP_PARAMETERS
from trainer.services.profiles import profile_version_create
from trainer.services.scenarios import profile_version_for, scenario_import


def _recorded_before_chips(name: str) -> RuleProfileVersion:
    """Version 1 of a profile as migration 0003 stored it before the chip parameters."""
    version = RuleProfileVersion.objects.get(profile__name=name, version=1)
    old = {k: v for k, v in version.parameters.items() if k not in CHIP_PARAMETERS}
    RuleProfileVersion.objects.filter(pk=version.pk).update(parameters=old)
    return RuleProfileVersion.objects.get(pk=version.pk)


def test_a_version_without_chips_plays_with_its_profiles_chips_and_still_matches(db):
    version = _recorded_before_chips("european-enhc-6deck")
    assert "chip_set" not in version.parameters
    assert version.engine_profile == rules.PROFILES["european-enhc-6deck"]
    assert version.engine_profile.chip_rule == "match"
    assert profile_version_for("european-enhc-6deck", game="blackjack") == version


def test_a_chip_document_imports_against_a_version_recorded_before_chips(db):
    _recorded_before_chips("casino-shoe")
    document = {
        "format": "blackjack-scenario/1",
        "id": "chips-import",
        "title": "A natural paid in chips",
        "skills": ["pay-in-chips"],
        "rules": "casino-shoe",
        "boxes": [{"box": 3, "stakes": [{"player": "p1", "amount": "25"}]}],
        "shoe": ["As", "9s", "Ks", "8s"],
        "chips": {"pay": "all"},
    }
    (row,) = scenario_import(documents=[document])
    assert row.profile_version.version == 1
    assert row.profile_version.profile.name == "casino-shoe"


def test_a_new_version_records_the_chip_parameters(db, pit_boss):
    _recorded_before_chips("casino-shoe")
    profile = RuleProfile.objects.get(name="casino-shoe")
    version = profile_version_create(
        profile=profile,
        parameters={"chip_rule": "match", "chip_set": ["1", "5", "25", "100"]},
        notes="This house pays the bet's colours and has no pinks or halves.",
        user=pit_boss,
    )
    assert version.parameters["chip_rule"] == "match"
    assert version.parameters["chip_set"] == ["1", "5", "25", "100"]
    assert version.parameters["change_chip"] == "25"
    assert version.engine_profile.chip_set == tuple(Decimal(c) for c in ("1", "5", "25", "100"))


def test_a_custom_version_without_chips_keeps_its_documents_rules_to_the_letter():
    # A casino's own copy of the European table, recorded before chips were rules.
    parameters = rules.profile_to_dict(rules.PROFILES["european-enhc-6deck"])
    parameters = {k: v for k, v in parameters.items() if k not in CHIP_PARAMETERS}
    parameters["bonus_777"] = "2"
    document = {"format": "blackjack-scenario/1", "rules": "european-enhc-6deck"}
    out = under_profile(document, profile="house-a", parameters=parameters)
    assert out["rules"] == {"profile": "european-enhc-6deck", "overrides": {"bonus_777": "2"}}
    stated = {**parameters, "chip_rule": "fewest"}
    out = under_profile(document, profile="house-a", parameters=stated)
    assert out["rules"]["overrides"] == {"bonus_777": "2", "chip_rule": "fewest"}
