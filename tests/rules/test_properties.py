"""Properties of random legal rounds (made through fill_actions) and of junk documents."""

import contextlib
import json
from collections import Counter
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from trainer.rules import ScenarioError, answer_key, fill_actions, json_line, play, settle
from trainer.rules.answer_key import signed_amount
from trainer.rules.cards import CANONICAL

from .strategies import rounds, with_overrides

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_or_skip(doc: dict[str, Any]) -> Any:
    """Play a variant of a legal round; a variant may run the shoe dry (more dealer draws)."""
    try:
        return play(doc)
    except ScenarioError as error:
        assume(error.reason != "shoe_exhausted")
        raise


@SETTINGS
@given(rounds())
def test_cards_are_dealt_in_shoe_order_and_counted_without_the_burn(doc: dict[str, Any]) -> None:
    # cards_used counts the cards dealt from the shoe; the burn is not among them
    # (all 63 conformance examples with a burn agree).
    result = play(doc)
    shoe = [CANONICAL[c] for c in doc["shoe"]]
    dealt = Counter(result.dealer.cards)
    for box in result.boxes:
        for hand in box.hands:
            dealt.update(hand.cards)
    assert dealt == Counter(shoe[: result.cards_used])
    n = len(result.boxes)
    for i, box in enumerate(result.boxes):
        assert box.initial == (shoe[i], shoe[n + 1 + i])
    assert result.dealer.cards[0] == shoe[n]
    if len(result.dealer.cards) > 1 and result.profile.hole_card == "peek":
        assert result.dealer.cards[1] == shoe[2 * n + 1]
    cut = doc.get("cut_card_at")
    assert result.reshuffle == (cut is not None and result.cards_used > cut)


@SETTINGS
@given(rounds())
def test_a_players_net_is_main_plus_insurance_plus_bonus(doc: dict[str, Any]) -> None:
    for box in play(doc).boxes:
        for player in box.players:
            assert player.net == player.main + player.insurance + player.bonus


@SETTINGS
@given(rounds())
def test_six_to_five_never_pays_more_than_three_to_two(doc: dict[str, Any]) -> None:
    low = play(with_overrides(doc, blackjack_pays="6:5"))
    high = play(with_overrides(doc, blackjack_pays="3:2"))
    for low_box, high_box in zip(low.boxes, high.boxes, strict=True):
        for low_player, high_player in zip(low_box.players, high_box.players, strict=True):
            assert low_player.net <= high_player.net


@SETTINGS
@given(rounds())
def test_s17_and_h17_differ_only_when_the_dealer_reached_soft_17(doc: dict[str, Any]) -> None:
    stands = play_or_skip(with_overrides(doc, dealer_hits_soft_17=False))
    hits = play_or_skip(with_overrides(doc, dealer_hits_soft_17=True))
    dealer = stands.dealer
    # A dealer who draws nothing (every hand busted, surrendered or paid) never decides
    # at soft 17, even holding it: the spec's step 5.
    reached_soft_17 = (
        stands.dealer_draw == "full"
        and len(dealer.cards) >= 2
        and dealer.total == 17
        and dealer.soft
    )
    if not reached_soft_17:
        s17 = settle(with_overrides(doc, dealer_hits_soft_17=False))
        h17 = settle(with_overrides(doc, dealer_hits_soft_17=True))
        assert {**s17, "rules": None} == {**h17, "rules": None}
    else:
        assert len(hits.dealer.cards) > len(dealer.cards) or dealer.blackjack


@SETTINGS
@given(rounds())
def test_the_answer_key_reconciles_with_the_settlement(doc: dict[str, Any]) -> None:
    result = play(doc)
    key = answer_key(result)
    assert [item["n"] for item in key] == list(range(1, len(key) + 1))
    assert key[-1]["kind"] == "reshuffle"
    moved: dict[tuple[int, str], Decimal] = {}
    for item in key:
        if "action" in item["expected"]:
            where = (item["box"], item["player"])
            moved[where] = moved.get(where, Decimal(0)) + signed_amount(item["expected"])
    for box in result.boxes:
        for player in box.players:
            assert moved.get((box.box, player.player), Decimal(0)) == player.net


@SETTINGS
@given(rounds())
def test_a_filled_round_replays_without_asking(doc: dict[str, Any]) -> None:
    def never(point: object) -> str:
        raise AssertionError(f"asked about {point}")

    assert fill_actions(doc, never) == doc


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_junk_documents_raise_only_scenario_errors(doc: Any) -> None:
    try:
        play(doc)
    except ScenarioError as error:
        outcome = error.to_dict()["error"]
    else:
        outcome = "played"
    assert outcome


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value[:6]):
            found += paths(inner, (*prefix, i))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds(), st.data())
def test_a_legal_round_with_one_part_replaced_by_junk_raises_only_scenario_errors(
    doc: dict[str, Any], data: st.DataObject
) -> None:
    path = data.draw(st.sampled_from(paths(doc)[1:]))
    junk = data.draw(JSON)
    broken = json.loads(json.dumps(doc))
    target = broken
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    with contextlib.suppress(ScenarioError):
        play(broken)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_json_line_never_raises(text: str) -> None:
    out = json.loads(json_line(text))
    assert "error" in out or out["format"] == "blackjack-settlement/1"
