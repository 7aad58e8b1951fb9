"""The answer key: what the dealer must do, in round order, and how answers are graded."""

from decimal import Decimal
from typing import Any

from trainer.rules import answer_key, compare, play


def scenario(rules: Any, shoe: list[str], *boxes: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "format": "blackjack-scenario/1",
        "id": "k",
        "rules": rules,
        "boxes": list(boxes),
        "shoe": shoe,
        **extra,
    }


def box(number: int, *stakes: tuple[str, str], actions: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "box": number,
        "stakes": [{"player": p, "amount": a} for p, a in stakes],
        "actions": actions,
        **extra,
    }


def kinds(key: list[dict[str, Any]]) -> list[str]:
    return [item["kind"] for item in key]


def test_a_six_to_five_natural_is_paid_in_whole_dollars() -> None:
    # Box 1: Ah Kd natural; the dealer shows 9c, holds 7h: 16, draws Ts and busts.
    doc = scenario(
        "casino-single-deck-6to5", ["Ah", "9c", "Kd", "7h", "Ts"], box(1, ("p1", "7"), actions=[])
    )
    key = answer_key(doc)
    assert kinds(key) == ["settle_hand", "reshuffle"]  # no live hand: the dealer draws nothing
    item = key[0]
    assert item["expected"] == {"action": "pay", "amount": "8.00"}
    assert item["rule"] == (
        "Blackjack pays 6 to 5, rounded down to the 1.00 unit (casino-single-deck-6to5)"
    )
    assert (item["box"], item["hand"], item["player"]) == (1, 1, "p1")


def test_insurance_is_offered_peeked_and_settled_at_the_peek() -> None:
    # Box 1: Th 9d; box 2: 8c 8s. The dealer shows Ac with Kh in the hole: a natural.
    doc = scenario(
        "casino-shoe",
        ["Th", "8c", "Ac", "9d", "8s", "Kh"],
        box(1, ("p1", "10"), actions=[], insurance={"p1": "5"}),
        box(2, ("p2", "20"), actions=[]),
    )
    key = answer_key(doc)
    assert kinds(key) == [
        "offer_insurance",
        "peek",
        "settle_insurance",
        "settle_hand",
        "settle_hand",
        "reshuffle",
    ]
    assert key[0]["expected"] == {"answer": "offer"}
    assert key[0]["view"]["dealer"] == ["Ac", None]
    assert key[1]["expected"] == {"answer": "peek", "dealer_blackjack": True}
    assert key[2]["expected"] == {"action": "pay", "amount": "10.00"}
    # Right to left: box 2 is settled before box 1.
    assert [(i["box"], i["expected"]["action"]) for i in key[3:5]] == [(2, "take"), (1, "take")]


def test_no_insurance_is_an_answer_too() -> None:
    rules = {"profile": "casino-shoe", "overrides": {"insurance": False}}
    doc = scenario(rules, ["Th", "Ac", "9d", "7h"], box(1, ("p1", "10"), actions=["stand"]))
    key = answer_key(doc)
    assert key[0]["kind"] == "offer_insurance"
    assert key[0]["expected"] == {"answer": "no_offer"}
    assert key[1]["expected"] == {"answer": "peek", "dealer_blackjack": False}


def test_even_money_is_offered_and_paid_at_once_under_enhc() -> None:
    # Box 1: As Kd natural, takes even money; box 2: 9h 9c stands. Up card Ac; no hole card.
    doc = scenario(
        "european-enhc-6deck",
        ["As", "9h", "Ac", "Kd", "9c", "6d", "Td"],
        box(1, ("p1", "10"), actions=[], even_money=["p1"]),
        box(2, ("p2", "10"), actions=["stand"]),
    )
    key = answer_key(doc)
    assert kinds(key) == [
        "offer_insurance",
        "offer_even_money",
        "even_money",
        "dealer_play",
        "settle_hand",
        "reshuffle",
    ]
    assert key[2]["expected"] == {"action": "pay", "amount": "10.00"}
    assert key[1]["view"]["dealer"] == ["Ac"]  # no hole card under enhc
    # The dealer draws 6d: soft 17 stands under S17; box 2's 18 wins.
    assert key[3]["expected"] == {"answer": "stand", "total": 17, "soft": True}
    assert key[4]["expected"] == {"action": "pay", "amount": "10.00"}


def test_the_dealer_hits_soft_17_only_under_h17() -> None:
    doc = scenario(
        "casino-shoe", ["Th", "Ah", "9d", "6c", "4s", "2d"], box(1, ("p1", "10"), actions=["stand"])
    )
    plays = [i["expected"] for i in answer_key(doc) if i["kind"] == "dealer_play"]
    assert plays == [
        {"answer": "hit", "total": 17, "soft": True},
        {"answer": "stand", "total": 21, "soft": True},
    ]
    views = [i["view"]["dealer"] for i in answer_key(doc) if i["kind"] == "dealer_play"]
    assert views == [["Ah", "6c"], ["Ah", "6c", "4s"]]
    doc["rules"] = {"profile": "casino-shoe", "overrides": {"dealer_hits_soft_17": False}}
    plays = [i["expected"] for i in answer_key(doc) if i["kind"] == "dealer_play"]
    assert plays == [{"answer": "stand", "total": 17, "soft": True}]


def test_surrender_takes_half_and_three_sevens_pay_a_prize() -> None:
    # Box 1 surrenders Th 6d (casino-shoe: late surrender). Box 2 on enhc-style prize.
    doc = scenario(
        "casino-shoe", ["Th", "9c", "6d", "8h", "Ts"], box(1, ("p1", "15"), actions=["surrender"])
    )
    item = next(i for i in answer_key(doc) if i["kind"] == "settle_hand")
    assert item["expected"] == {"action": "take_half", "amount": "7.50"}
    sevens = scenario(
        "european-enhc-6deck", ["7h", "9c", "7d", "7s", "Td"], box(1, ("p1", "10"), actions=["hit"])
    )
    key = answer_key(sevens)
    assert kinds(key)[-3:] == ["settle_hand", "bonus_777", "reshuffle"]
    assert key[-2]["expected"] == {"action": "pay", "amount": "10.00"}


def test_the_reshuffle_follows_the_cut_card() -> None:
    doc = scenario(
        "casino-shoe",
        ["Th", "9c", "8d", "8h"],
        box(1, ("p1", "10"), actions=["stand"]),
        cut_card_at=3,
    )
    assert answer_key(doc)[-1]["expected"] == {"answer": "reshuffle"}
    doc["cut_card_at"] = 4
    assert answer_key(doc)[-1]["expected"] == {"answer": "continue"}


def test_answer_key_takes_a_played_round_too() -> None:
    doc = scenario("casino-shoe", ["Th", "9c", "8d", "8h"], box(1, ("p1", "10"), actions=["stand"]))
    assert answer_key(play(doc)) == answer_key(doc)


def settle_item(expected: dict[str, Any], kind: str = "settle_hand") -> dict[str, Any]:
    return {"kind": kind, "expected": expected}


def test_compare_grades_money_from_the_houses_view() -> None:
    pay = settle_item({"action": "pay", "amount": "15.00"})
    assert compare(pay, {"action": "pay", "amount": "15"}).right
    under = compare(pay, {"action": "pay", "amount": "10.00"})
    assert (under.right, under.money_diff, under.category) == (False, Decimal(-5), "underpay")
    over = compare(pay, {"action": "pay", "amount": "20.00"})
    assert (over.money_diff, over.category) == (Decimal(5), "overpay")
    wrong = compare(pay, {"action": "take", "amount": "10.00"})
    assert (wrong.money_diff, wrong.category) == (Decimal(-25), "wrong_outcome")
    take = settle_item({"action": "take", "amount": "10.00"})
    kept = compare(take, {"action": "take", "amount": "5.00"})
    assert (kept.money_diff, kept.category) == (Decimal(5), "overpay")
    push = compare(take, {"action": "push", "amount": "0.00"})
    assert (push.money_diff, push.category) == (Decimal(10), "wrong_outcome")


def test_compare_names_side_bet_and_procedure_errors() -> None:
    insurance = settle_item({"action": "pay", "amount": "10.00"}, "settle_insurance")
    assert compare(insurance, {"action": "take", "amount": "5"}).category == "insurance_error"
    even = settle_item({"action": "pay", "amount": "10.00"}, "even_money")
    assert compare(even, {"action": "pay", "amount": "15"}).category == "even_money_error"
    prize = settle_item({"action": "pay", "amount": "10.00"}, "bonus_777")
    assert compare(prize, {"action": "push", "amount": "0"}).category == "prize_error"
    peek = {"kind": "peek", "expected": {"answer": "peek", "dealer_blackjack": False}}
    assert compare(peek, {"answer": "peek", "dealer_blackjack": False}).right
    missed = compare(peek, {"answer": "peek", "dealer_blackjack": True})
    assert (missed.right, missed.money_diff, missed.category) == (False, 0, "procedure_error")
    draw = {"kind": "dealer_play", "expected": {"answer": "hit", "total": 17, "soft": True}}
    assert compare(draw, {"answer": "hit"}).right
    assert not compare(draw, {"answer": "hit", "total": 7}).right


def test_compare_treats_an_unreadable_answer_as_moving_nothing() -> None:
    pay = settle_item({"action": "pay", "amount": "15.00"})
    for given in (
        {},
        {"action": "pay", "amount": 1.5},
        {"action": "pay", "amount": "abc"},
        {"action": "give", "amount": "15"},
        {"action": "pay", "amount": "-15"},
    ):
        verdict = compare(pay, given)
        assert not verdict.right
        assert verdict.money_diff == Decimal(-15)
