"""Every fault the spec names is rejected with a ScenarioError naming its field and box."""

import copy
from typing import Any

import pytest

from trainer.rules import (
    PROFILES,
    ScenarioError,
    play,
    profile_from_dict,
    profile_from_rules,
    profile_to_dict,
)


def scenario(**changes: Any) -> dict[str, Any]:
    """Box 1 holds Th 9d against the dealer's 5c 7h, stands; the dealer draws Ts and busts."""
    doc: dict[str, Any] = {
        "format": "blackjack-scenario/1",
        "id": "base",
        "rules": "casino-shoe",
        "boxes": [{"box": 1, "stakes": [{"player": "p1", "amount": "10"}], "actions": ["stand"]}],
        "shoe": ["Th", "5c", "9d", "7h", "Ts"],
    }
    doc.update(changes)
    return doc


def box(**changes: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "box": 1,
        "stakes": [{"player": "p1", "amount": "10"}],
        "actions": ["stand"],
    }
    item.update(changes)
    return item


def rejected(doc: Any) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        play(doc)
    return caught.value


def test_the_base_scenario_plays() -> None:
    result = play(scenario())
    assert result.boxes[0].players[0].net == 10


@pytest.mark.parametrize(
    ("amount", "reason"),
    [
        (10.5, "bad_amount"),
        (10, "bad_amount"),
        (True, "bad_amount"),
        (None, "bad_amount"),
        ("10.555", "bad_amount"),
        ("ten", "bad_amount"),
        ("1e3", "bad_amount"),
        ("NaN", "bad_amount"),
        ("Infinity", "bad_amount"),
        (" 10", "bad_amount"),
        ("99999999999999999999", "bad_amount"),
        ("-5", "negative_amount"),
        ("0", "zero_amount"),
        ("0.00", "zero_amount"),
        ("1", "stake_below_min"),
    ],
)
def test_a_bad_stake_amount_is_rejected(amount: Any, reason: str) -> None:
    stakes = [{"player": "p1", "amount": amount}]
    error = rejected(scenario(boxes=[box(stakes=stakes)]))
    assert error.reason == reason
    assert error.field == "boxes[0].stakes[0].amount"
    assert error.box == 1


def test_the_box_total_must_stay_within_the_box_maximum() -> None:
    stakes = [{"player": "p1", "amount": "300"}, {"player": "p2", "amount": "250"}]
    error = rejected(scenario(boxes=[box(stakes=stakes)]))
    assert (error.reason, error.field) == ("stake_over_max", "boxes[0].stakes")


@pytest.mark.parametrize(
    ("number", "reason"),
    [(8, "box_out_of_range"), (0, "box_out_of_range"), ("1", "wrong_type"), (True, "wrong_type")],
)
def test_a_box_number_must_be_on_the_layout(number: Any, reason: str) -> None:
    error = rejected(scenario(boxes=[box(box=number)]))
    assert (error.reason, error.field) == (reason, "boxes[0].box")


def test_a_box_may_appear_only_once() -> None:
    error = rejected(scenario(boxes=[box(), box()]))
    assert (error.reason, error.field, error.box) == ("duplicate_box", "boxes[1].box", 1)


def test_a_box_number_outside_a_smaller_layout_is_rejected() -> None:
    rules = {"profile": "casino-shoe", "overrides": {"boxes": 3}}
    assert rejected(scenario(rules=rules, boxes=[box(box=4)])).reason == "box_out_of_range"


def test_insurance_is_at_most_half_the_stake() -> None:
    error = rejected(scenario(boxes=[box(insurance={"p1": "5.01"})]))
    assert (error.reason, error.field) == ("insurance_over_half", "boxes[0].insurance.p1")


def test_insurance_and_even_money_only_for_players_on_the_box() -> None:
    assert rejected(scenario(boxes=[box(insurance={"p2": "5"})])).reason == "not_on_box"
    assert rejected(scenario(boxes=[box(even_money=["p2"])])).reason == "not_on_box"


def test_insurance_scripted_without_an_ace_up_is_not_offered() -> None:
    error = rejected(scenario(boxes=[box(insurance={"p1": "5"})]))
    assert (error.reason, error.box) == ("insurance_not_offered", 1)
    assert "5c" in str(error)


def test_insurance_is_not_offered_when_the_profile_has_none() -> None:
    rules = {"profile": "casino-shoe", "overrides": {"insurance": False}}
    shoe = ["Th", "Ac", "9d", "7h", "Ts"]
    error = rejected(scenario(rules=rules, shoe=shoe, boxes=[box(insurance={"p1": "5"})]))
    assert error.reason == "insurance_not_offered"


def test_even_money_is_offered_only_to_a_natural_against_an_ace() -> None:
    shoe = ["Ah", "Ac", "Kd", "7h", "Ts"]
    error = rejected(scenario(shoe=shoe, boxes=[box(even_money=["p1"], actions=[])]))
    assert error.reason == "even_money_not_offered"  # casino-shoe offers no even money
    enhc_shoe = ["Ah", "Ac", "9d", "7h", "Ts"]
    doc = scenario(rules="european-enhc-6deck", shoe=enhc_shoe, boxes=[box(even_money=["p1"])])
    assert "not a natural" in str(rejected(doc))


@pytest.mark.parametrize("bad", ["1h", "Xx", "A", "Ahh", 10, None, ["Ah"]])
def test_a_bad_card_is_named(bad: Any) -> None:
    error = rejected(scenario(shoe=["Th", "5c", bad, "7h", "Ts"]))
    assert (error.reason, error.field) == ("bad_card", "shoe[2]")


def test_cards_are_read_in_any_case_and_ten_as_10() -> None:
    result = play(scenario(shoe=["10h", "5C", "9D", "7h", "ts"]))
    assert result.boxes[0].hands[0].cards == ("Th", "9d")
    assert result.dealer.cards == ("5c", "7h", "Ts")


def test_burn_and_shoe_hold_no_card_more_often_than_the_decks() -> None:
    doc = scenario(rules="casino-single-deck-6to5", burn=["Ts"])
    error = rejected(doc)
    assert (error.reason, error.field) == ("too_many_cards", "shoe[4]")


def test_the_burn_must_match_the_profile() -> None:
    error = rejected(scenario(burn=["2c", "3c"]))
    assert (error.reason, error.field) == ("bad_burn", "burn")
    assert play(scenario(burn=["2c"])).cards_used == 5


@pytest.mark.parametrize("cut", [-1, "3", True, 2.0])
def test_the_cut_card_is_a_whole_number(cut: Any) -> None:
    assert rejected(scenario(cut_card_at=cut)).field == "cut_card_at"


def test_the_cut_card_decides_the_reshuffle() -> None:
    assert play(scenario(cut_card_at=4)).reshuffle is True
    assert play(scenario(cut_card_at=5)).reshuffle is False


@pytest.mark.parametrize("action", ["fly", "Hit", "double:abc", "double:-1", 3, None])
def test_an_unknown_action_is_rejected(action: Any) -> None:
    error = rejected(scenario(boxes=[box(actions=[action])]))
    assert error.field == "boxes[0].actions[0]"
    assert error.reason in ("unknown_action", "wrong_type", "bad_amount", "negative_amount")


def test_an_illegal_action_is_an_error_not_a_stand() -> None:
    error = rejected(scenario(boxes=[box(actions=["split"])]))
    assert (error.reason, error.field, error.box) == ("illegal_action", "boxes[0].actions[0]", 1)
    assert str(error).startswith("box 1: 'split' needs a pair")


def test_double_after_split_follows_the_profile() -> None:
    rules = {"profile": "casino-double-deck", "overrides": {"double_after_split": False}}
    shoe = ["8h", "5c", "8d", "7h", "3s", "Ts", "9c", "Tc"]
    doc = scenario(rules=rules, shoe=shoe, boxes=[box(box=2, actions=["split", "double"])])
    error = rejected(doc)
    assert str(error) == (
        "box 2: 'double' is not allowed after a split under "
        "casino-double-deck with double_after_split=false"
    )


def test_a_missing_decision_is_an_error() -> None:
    error = rejected(scenario(boxes=[box(actions=[])]))
    assert (error.reason, error.field) == ("missing_action", "boxes[0].actions[0]")


def test_left_over_actions_are_an_error() -> None:
    error = rejected(scenario(boxes=[box(actions=["stand", "hit"])]))
    assert (error.reason, error.field) == ("actions_left_over", "boxes[0].actions[1]")


def test_a_shoe_that_runs_out_is_an_error() -> None:
    assert rejected(scenario(shoe=["Th", "5c", "9d", "7h"])).reason == "shoe_exhausted"


@pytest.mark.parametrize(
    ("rules", "field", "reason"),
    [
        ("no-such-profile", "rules", "unknown_profile"),
        (7, "rules", "wrong_type"),
        ({"profile": "nope"}, "rules.profile", "unknown_profile"),
        ({"overrides": {}}, "rules.profile", "missing_field"),
        ({"profile": "casino-shoe", "extra": 1}, "rules.extra", "unknown_field"),
        ({"profile": "casino-shoe", "overrides": []}, "rules.overrides", "wrong_type"),
        (
            {"profile": "casino-shoe", "overrides": {"free": 1}},
            "rules.overrides.free",
            "unknown_rule_parameter",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"decks": 9}},
            "rules.overrides.decks",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"decks": True}},
            "rules.overrides.decks",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"decks": "6"}},
            "rules.overrides.decks",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"payout_unit": 0.5}},
            "rules.overrides.payout_unit",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"payout_unit": "0.005"}},
            "rules.overrides.payout_unit",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"hole_card": "open"}},
            "rules.overrides.hole_card",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"insurance": 1}},
            "rules.overrides.insurance",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"min_bet": "600"}},
            "rules.overrides.min_bet",
            "bad_rule_value",
        ),
        (
            {"profile": "casino-shoe", "overrides": {"max_split_hands": []}},
            "rules.overrides.max_split_hands",
            "bad_rule_value",
        ),
    ],
)
def test_bad_rules_are_named(rules: Any, field: str, reason: str) -> None:
    error = rejected(scenario(rules=rules))
    assert (error.field, error.reason) == (field, reason)


@pytest.mark.parametrize(
    ("doc", "field", "reason"),
    [
        ([], "", "not_an_object"),
        ("text", "", "not_an_object"),
        ({}, "format", "missing_field"),
        (scenario(format="blackjack-scenario/2"), "format", "bad_format"),
        (scenario(extra=1), "extra", "unknown_field"),
        (scenario(boxes={}), "boxes", "wrong_type"),
        (scenario(boxes=[]), "boxes", "no_boxes"),
        (scenario(boxes=[7]), "boxes[0]", "wrong_type"),
        (scenario(boxes=[box(stakes="p1")]), "boxes[0].stakes", "wrong_type"),
        (scenario(boxes=[box(stakes=[])]), "boxes[0].stakes", "no_stakes"),
        (scenario(boxes=[box(stakes=[["p1", "10"]])]), "boxes[0].stakes[0]", "wrong_type"),
        (
            scenario(boxes=[box(stakes=[{"player": "", "amount": "10"}])]),
            "boxes[0].stakes[0].player",
            "bad_player",
        ),
        (
            scenario(boxes=[box(stakes=[{"player": "p1", "amount": "10"}] * 2)]),
            "boxes[0].stakes[1].player",
            "duplicate_player",
        ),
        (scenario(boxes=[box(colour="red")]), "boxes[0].colour", "unknown_field"),
        (scenario(boxes=[box(actions="stand")]), "boxes[0].actions", "wrong_type"),
        (scenario(boxes=[box(insurance=["p1"])]), "boxes[0].insurance", "wrong_type"),
        (scenario(shoe="Th 5c"), "shoe", "wrong_type"),
        (scenario(id=["x"]), "id", "wrong_type"),
        (scenario(skills=[1]), "skills[0]", "wrong_type"),
    ],
)
def test_malformed_documents_are_rejected_cleanly(doc: Any, field: str, reason: str) -> None:
    error = rejected(doc)
    assert (error.field, error.reason) == (field, reason)


def test_an_error_knows_its_box_and_reads_as_a_sentence() -> None:
    error = rejected(scenario(boxes=[box(box=3, actions=["split"])]))
    assert error.to_dict() == {
        "error": str(error),
        "field": "boxes[0].actions[0]",
        "box": 3,
        "reason": "illegal_action",
    }
    assert str(error).startswith("box 3: ")


def test_the_document_is_not_changed_by_playing_it() -> None:
    doc = scenario()
    before = copy.deepcopy(doc)
    play(doc)
    assert doc == before


def test_the_six_profiles_round_trip_through_dicts() -> None:
    assert set(PROFILES) == {
        "scarne-4deck",
        "casino-single-deck-6to5",
        "casino-double-deck",
        "casino-shoe",
        "bicycle-6deck",
        "european-enhc-6deck",
    }
    for profile in PROFILES.values():
        assert profile_from_dict(profile_to_dict(profile)) == profile


def test_a_custom_profile_is_validated_in_full() -> None:
    data = profile_to_dict(PROFILES["casino-shoe"]) | {"name": "house-a", "decks": 0}
    with pytest.raises(ScenarioError) as caught:
        profile_from_dict(data)
    assert caught.value.field == "profile.decks"
    missing = profile_to_dict(PROFILES["casino-shoe"])
    del missing["surrender"]
    with pytest.raises(ScenarioError):
        profile_from_dict(missing)


def test_overrides_are_resolved_once_and_named() -> None:
    rules = {"profile": "casino-shoe", "overrides": {"surrender": "none"}}
    first = profile_from_rules(rules)
    assert first is profile_from_rules(dict(rules))
    assert first.surrender == "none"
    assert first.name == "casino-shoe with surrender=none"
    assert profile_from_rules("casino-shoe") is PROFILES["casino-shoe"]
