"""Each rule the seed documents state, as a hand-staged round with hand-worked money.

Every case names the document the rule comes from (`/work/shared/seeds/`, or the spec's
`rule-profiles.md` for what the profile table decides). Shoes follow the spec's order of
cards exactly: one card to each box in box order, the dealer's up card, a second card to
each box, the dealer's hole card (none under `enhc`); then the boxes act in box order, each
split hand getting its second card when its turn comes; then the dealer draws. The
expected money is worked out by hand from the rule, never by running the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from trainer.rules import ScenarioError, settle

SCARNE = "scarne-blackjack.txt"
HOUSE = "casino-house-rules.txt"
BICYCLE = "bicycle-blackjack.txt"
EUROPEAN = "european-casino-blackjack.txt"
PROFILES = "rule-profiles.md"

# Cards no round below ever reaches; they keep an engine that draws too much from running
# the shoe dry, so the assertion on the dealer's cards is what reports it.
SPARE = ["2h", "3h", "4h"]


def box(
    number: int, stakes: dict[str, str], actions: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    """One box entry; the first player in `stakes` is the host."""
    return {
        "box": number,
        "stakes": [{"player": p, "amount": a} for p, a in stakes.items()],
        "actions": actions or [],
        **extra,
    }


def scenario(
    rules: str | dict[str, Any], boxes: list[dict[str, Any]], shoe: list[str], **extra: Any
) -> dict[str, Any]:
    """A blackjack-scenario/1 document."""
    return {"format": "blackjack-scenario/1", "rules": rules, "boxes": boxes, "shoe": shoe, **extra}


@dataclass(frozen=True)
class Settles:
    """What the settlement must say; fields left as None are not checked."""

    net: dict[str, str]
    main: dict[str, str] | None = None
    insurance: dict[str, str] | None = None
    bonus: dict[str, str] | None = None
    even_money: dict[str, bool] | None = None
    outcomes: dict[int, list[str]] | None = None
    hands: dict[int, list[list[str]]] | None = None
    hand_stakes: dict[int, list[dict[str, str]]] | None = None
    dealer: list[str] | None = None
    dealer_total: int | None = None
    dealer_blackjack: bool | None = None
    cards_used: int | None = None
    reshuffle: bool | None = None


@dataclass(frozen=True)
class Refused:
    """The engine must raise ScenarioError whose message contains every one of `words`.

    Words are compared case-insensitively, with underscores read as spaces.
    """

    words: tuple[str, ...]
    field: str | None = None


@dataclass(frozen=True)
class Case:
    source: str
    rule: str
    scenario: dict[str, Any]
    expect: Settles | Refused = field(repr=False)


CASES = [
    # --- Naturals and the blackjack payout -------------------------------------------
    Case(
        SCARNE,
        "a natural pays 3 to 2: a $2 bet collects $3 more",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "2"})],
            # box 1 Ah, dealer up 9c, box 1 Kh, hole 7d: dealer 16 but no live hand left.
            ["Ah", "9c", "Kh", "7d", *SPARE],
        ),
        Settles(
            net={"p1": "3.00"},
            main={"p1": "3.00"},
            outcomes={1: ["blackjack"]},
            dealer=["9c", "7d"],
            cards_used=4,
        ),
    ),
    Case(
        SCARNE,
        "a $7 natural at 3 to 2 pays 10.50",
        scenario("scarne-4deck", [box(1, {"p1": "7"})], ["Ah", "9c", "Kh", "7d", *SPARE]),
        Settles(net={"p1": "10.50"}, outcomes={1: ["blackjack"]}, cards_used=4),
    ),
    Case(
        SCARNE,
        "naturals on $5, $3 and $1 pay 7.50, 4.50 and 1.50 (multiples of the 0.50 unit)",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "5"}), box(2, {"p2": "3"}), box(3, {"p3": "1"})],
            ["Ah", "As", "Ad", "9c", "Kh", "Qs", "Jd", "8c", *SPARE],
        ),
        Settles(
            net={"p1": "7.50", "p2": "4.50", "p3": "1.50"},
            outcomes={1: ["blackjack"], 2: ["blackjack"], 3: ["blackjack"]},
            dealer=["9c", "8c"],
            cards_used=8,
        ),
    ),
    Case(
        PROFILES,
        "a natural's winnings are rounded down to the 0.50 payout unit: $5.50 pays 8.00",
        scenario("scarne-4deck", [box(1, {"p1": "5.50"})], ["Ah", "9c", "Kh", "7d", *SPARE]),
        Settles(net={"p1": "8.00"}, outcomes={1: ["blackjack"]}),
    ),
    Case(
        HOUSE,
        "6:5 on single deck in whole dollars: $7 is paid 8.00, not 8.40",
        scenario(
            "casino-single-deck-6to5",
            [box(1, {"p1": "7"}), box(2, {"p2": "5"}), box(3, {"p3": "10"})],
            # one deck: every card distinct.
            ["Ah", "As", "Ad", "9c", "Kh", "Qs", "Jd", "8c", "2d", "3d", "4d"],
        ),
        Settles(
            net={"p1": "8.00", "p2": "6.00", "p3": "12.00"},
            outcomes={1: ["blackjack"], 2: ["blackjack"], 3: ["blackjack"]},
            dealer=["9c", "8c"],
            cards_used=8,
        ),
    ),
    Case(
        SCARNE,
        "a player natural against a dealer natural is a push; other hands lose",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}), box(2, {"p2": "10"})],
            # box 1 Ah, box 2 Ts, up Kc, box 1 Qh, box 2 8s, hole Ad: dealer natural.
            ["Ah", "Ts", "Kc", "Qh", "8s", "Ad", *SPARE],
        ),
        Settles(
            net={"p1": "0.00", "p2": "-10.00"},
            outcomes={1: ["push"], 2: ["lose"]},
            dealer=["Kc", "Ad"],
            dealer_blackjack=True,
            cards_used=6,
        ),
    ),
    Case(
        HOUSE,
        "you cannot lose with blackjack but tie a dealer blackjack (6:5 game)",
        scenario(
            "casino-single-deck-6to5",
            [box(1, {"p1": "10"})],
            ["Ah", "Kc", "Qh", "Ad", "2d", "3d"],
        ),
        Settles(net={"p1": "0.00"}, outcomes={1: ["push"]}, dealer_blackjack=True),
    ),
    # --- Insurance and even money ------------------------------------------------------
    Case(
        SCARNE,
        "insurance of half the wager pays 2 to 1 when the hole card is a ten",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, insurance={"p1": "5"})],
            ["Th", "Ac", "9h", "Kd", *SPARE],
        ),
        Settles(
            net={"p1": "0.00"},
            main={"p1": "-10.00"},
            insurance={"p1": "10.00"},
            outcomes={1: ["lose"]},
            dealer=["Ac", "Kd"],
            cards_used=4,
        ),
    ),
    Case(
        SCARNE,
        "insurance is lost when the hole card is not a ten; dealer stands on soft 17",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"], insurance={"p1": "5"})],
            # box 1 Th 9h = 19; dealer Ac 6d = soft 17, stands under Scarne.
            ["Th", "Ac", "9h", "6d", *SPARE],
        ),
        Settles(
            net={"p1": "5.00"},
            main={"p1": "10.00"},
            insurance={"p1": "-5.00"},
            outcomes={1: ["win"]},
            dealer=["Ac", "6d"],
            dealer_total=17,
            cards_used=4,
        ),
    ),
    Case(
        HOUSE,
        "insurance is any amount up to half the bet: more than half is refused",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["stand"], insurance={"p1": "6"})],
            ["Th", "Ac", "9h", "6d", *SPARE],
        ),
        Refused(("box 1", "insurance")),
    ),
    Case(
        HOUSE,
        "insurance is only offered on a dealer ace",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["stand"], insurance={"p1": "5"})],
            ["Th", "9c", "9h", "6d", *SPARE],
        ),
        Refused(("box 1", "insurance")),
    ),
    Case(
        EUROPEAN,
        "even money: a natural against an ace takes 1:1 at once",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, even_money=["p1"])],
            ["Ah", "Ac", "Kh", "9d", *SPARE],
        ),
        Settles(net={"p1": "10.00"}, main={"p1": "10.00"}, even_money={"p1": True}),
    ),
    Case(
        EUROPEAN,
        "even money keeps its 1:1 when the dealer makes blackjack; a partner who declined pushes",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10", "p2": "10"}, even_money=["p1"])],
            # box 1 Ah, up Ac, box 1 Kh; the natural faces an ace, so the dealer draws his
            # second card (Kd, blackjack) and only that card.
            ["Ah", "Ac", "Kh", "Kd", *SPARE],
        ),
        Settles(
            net={"p1": "10.00", "p2": "0.00"},
            even_money={"p1": True, "p2": False},
            dealer=["Ac", "Kd"],
            dealer_blackjack=True,
            cards_used=4,
        ),
    ),
    Case(
        PROFILES,
        "even money is not offered without the even_money rule (Scarne)",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, even_money=["p1"])],
            ["Ah", "Ac", "Kh", "9d", *SPARE],
        ),
        Refused(("box 1", "even money")),
    ),
    Case(
        EUROPEAN,
        "a busted box's insurance stays in play and is paid 2:1 on a dealer blackjack",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit"], insurance={"p1": "5"})],
            # box 1 Th, up Ac, box 1 6d; hit 9s = 25 bust; the open insurance makes the
            # dealer draw his second card: Kd, blackjack.
            ["Th", "Ac", "6d", "9s", "Kd", *SPARE],
        ),
        Settles(
            net={"p1": "0.00"},
            main={"p1": "-10.00"},
            insurance={"p1": "10.00"},
            outcomes={1: ["bust"]},
            dealer=["Ac", "Kd"],
            cards_used=5,
        ),
    ),
    # --- The peek ----------------------------------------------------------------------
    Case(
        SCARNE,
        "a dealer natural found on the peek ends the round: no player acts",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}), box(2, {"p2": "10"})],
            # pair of eights and a hard 12 lose without a decision.
            ["8h", "Ts", "Kc", "8d", "2s", "Ah", *SPARE],
        ),
        Settles(
            net={"p1": "-10.00", "p2": "-10.00"},
            outcomes={1: ["lose"], 2: ["lose"]},
            dealer=["Kc", "Ah"],
            dealer_blackjack=True,
            cards_used=6,
        ),
    ),
    Case(
        SCARNE,
        "after a dealer natural no decision is asked: a scripted split is an error",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["split"])],
            ["8h", "Kc", "8d", "Ah", *SPARE],
        ),
        Refused(("box 1", "left over"), field="actions"),
    ),
    Case(
        HOUSE,
        "no surrender against a dealer natural (late surrender comes after the peek)",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["surrender"])],
            ["Th", "Ac", "6d", "Kd", *SPARE],
        ),
        Refused(("box 1", "left over"), field="actions"),
    ),
    # --- European no hole card ---------------------------------------------------------
    Case(
        EUROPEAN,
        "no hole card: a dealer natural takes doubled and split stakes too",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["double"]), box(2, {"p2": "10"}, ["split", "stand", "stand"])],
            # box 1 6h, box 2 8s, up Kd, box 1 5h, box 2 8c (no hole card);
            # box 1 doubles 11 + Th = 21; box 2 splits: 8s + Ts = 18, 8c + 9c = 17;
            # dealer's second card Ah: blackjack.
            ["6h", "8s", "Kd", "5h", "8c", "Th", "Ts", "9c", "Ah", *SPARE],
        ),
        Settles(
            net={"p1": "-20.00", "p2": "-20.00"},
            outcomes={1: ["lose"], 2: ["lose", "lose"]},
            hands={1: [["6h", "5h", "Th"]], 2: [["8s", "Ts"], ["8c", "9c"]]},
            dealer=["Kd", "Ah"],
            dealer_blackjack=True,
            cards_used=9,
        ),
    ),
    Case(
        EUROPEAN,
        "no hole card: with only a natural against a 9 the dealer draws nothing",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "25", "p2": "15", "p3": "10.50"})],
            # shared box: each stake is paid 3:2 on its own, rounded to 0.50.
            ["Ah", "9c", "Kh", *SPARE],
        ),
        Settles(
            net={"p1": "37.50", "p2": "22.50", "p3": "15.50"},
            outcomes={1: ["blackjack"]},
            dealer=["9c"],
            cards_used=3,
        ),
    ),
    Case(
        EUROPEAN,
        "no hole card: a natural against an ace makes the dealer draw one card only",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"})],
            # dealer Ac 5d is soft 16 but draws no further: no hand is left live.
            ["Ah", "Ac", "Kh", "5d", *SPARE],
        ),
        Settles(
            net={"p1": "15.00"},
            outcomes={1: ["blackjack"]},
            dealer=["Ac", "5d"],
            cards_used=4,
        ),
    ),
    Case(
        EUROPEAN,
        "on 21 it is not allowed to take more: the hand stands by itself",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit"])],
            # 5h 6d + Th = 21; dealer 9c 8d = 17.
            ["5h", "9c", "6d", "Th", "8d", *SPARE],
        ),
        Settles(net={"p1": "10.00"}, outcomes={1: ["win"]}, dealer=["9c", "8d"], cards_used=5),
    ),
    Case(
        EUROPEAN,
        "on 21 it is not allowed to take more: a scripted action after 21 is left over",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit", "stand"])],
            ["5h", "9c", "6d", "Th", "8d", *SPARE],
        ),
        Refused(("box 1", "left over"), field="actions"),
    ),
    # --- The dealer's draw -------------------------------------------------------------
    Case(
        SCARNE,
        "the dealer stands on soft 17",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "6c", "8h", "Ad", *SPARE],
        ),
        Settles(
            net={"p1": "10.00"},
            outcomes={1: ["win"]},
            dealer=["6c", "Ad"],
            dealer_total=17,
            cards_used=4,
        ),
    ),
    Case(
        BICYCLE,
        "a dealer ace that makes 17 or more counts 11 and the dealer stands (soft 17)",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "6c", "8h", "Ad", *SPARE],
        ),
        Settles(net={"p1": "10.00"}, dealer=["6c", "Ad"], dealer_total=17, cards_used=4),
    ),
    Case(
        HOUSE,
        "the dealer must hit soft 17 (shoe game)",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["stand"])],
            # dealer 6c Ad = soft 17, hits: 3c makes soft 20 and beats 18.
            ["Th", "6c", "8h", "Ad", "3c", *SPARE],
        ),
        Settles(
            net={"p1": "-10.00"},
            outcomes={1: ["lose"]},
            dealer=["6c", "Ad", "3c"],
            dealer_total=20,
            cards_used=5,
        ),
    ),
    Case(
        HOUSE,
        "the dealer must hit soft 17 (single deck)",
        scenario(
            "casino-single-deck-6to5",
            [box(1, {"p1": "10"}, ["stand"])],
            # dealer 6c Ad hits; 9s makes hard 16, hits again; Ks busts him.
            ["Th", "6c", "8h", "Ad", "9s", "Ks", "2d", "3d"],
        ),
        Settles(
            net={"p1": "10.00"},
            outcomes={1: ["win"]},
            dealer=["6c", "Ad", "9s", "Ks"],
            dealer_total=26,
            cards_used=6,
        ),
    ),
    Case(
        SCARNE,
        "if the dealer busts he pays each surviving player; a busted player has lost",
        scenario(
            "scarne-4deck",
            [
                box(1, {"p1": "10"}, ["stand"]),
                box(2, {"p2": "10"}, ["stand"]),
                box(3, {"p3": "10"}, ["hit"]),
            ],
            # box 1 Th 2d = 12, box 2 9h 8h = 17, box 3 Ts 5s + Kc = 25 bust;
            # dealer 6c Td = 16 draws 9c = 25.
            ["Th", "9h", "Ts", "6c", "2d", "8h", "5s", "Td", "Kc", "9c", *SPARE],
        ),
        Settles(
            net={"p1": "10.00", "p2": "10.00", "p3": "-10.00"},
            outcomes={1: ["win"], 2: ["win"], 3: ["bust"]},
            dealer=["6c", "Td", "9c"],
            cards_used=10,
        ),
    ),
    Case(
        SCARNE,
        "if all players have busted the dealer draws nothing",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["hit"])],
            ["Th", "6c", "6d", "Td", "Kc", *SPARE],
        ),
        Settles(
            net={"p1": "-10.00"},
            outcomes={1: ["bust"]},
            dealer=["6c", "Td"],
            dealer_total=16,
            cards_used=5,
        ),
    ),
    Case(
        EUROPEAN,
        "more than 21 loses regardless of the dealer's points",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit"]), box(2, {"p2": "10"}, ["stand"])],
            # box 1 Th 6d + Kc bust; box 2 9h 9d = 18; dealer 6c, then Td 9c = 25.
            ["Th", "9h", "6c", "6d", "9d", "Kc", "Td", "9c", *SPARE],
        ),
        Settles(
            net={"p1": "-10.00", "p2": "10.00"},
            outcomes={1: ["bust"], 2: ["win"]},
            dealer=["6c", "Td", "9c"],
            cards_used=8,
        ),
    ),
    # --- Splitting ---------------------------------------------------------------------
    Case(
        SCARNE,
        "any two ten-value cards may be split (king and queen)",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["split", "stand", "stand"])],
            # Kh, up 6c, Qd, hole Td; split: Kh + 9s, Qd + 8s; dealer 16 + 7h = 23.
            ["Kh", "6c", "Qd", "Td", "9s", "8s", "7h", *SPARE],
        ),
        Settles(
            net={"p1": "20.00"},
            outcomes={1: ["win", "win"]},
            hands={1: [["Kh", "9s"], ["Qd", "8s"]]},
            hand_stakes={1: [{"p1": "10.00"}, {"p1": "10.00"}]},
            dealer=["6c", "Td", "7h"],
            cards_used=7,
        ),
    ),
    Case(
        BICYCLE,
        "only pairs of the same denomination split: king and queen are refused",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["split", "stand", "stand"])],
            ["Kh", "6c", "Qd", "Td", "9s", "8s", "7h", *SPARE],
        ),
        Refused(("box 1", "split")),
    ),
    Case(
        SCARNE,
        "one card only to each split ace",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["split"])],
            # Ah, up 9c, As, hole 7d; Ah + 5h (soft 16, no decision), As + 9h = 20;
            # dealer 16 + 2c = 18.
            ["Ah", "9c", "As", "7d", "5h", "9h", "2c", *SPARE],
        ),
        Settles(
            net={"p1": "0.00"},
            outcomes={1: ["lose", "win"]},
            hands={1: [["Ah", "5h"], ["As", "9h"]]},
            dealer=["9c", "7d", "2c"],
            cards_used=7,
        ),
    ),
    Case(
        HOUSE,
        "21 on split aces is not a blackjack and pays even money",
        scenario(
            "casino-double-deck",
            [box(1, {"p1": "10"}, ["split"])],
            # Ah, up 9c, As, hole 8d (17); Ah + Kh = 21, As + 7s = 18.
            ["Ah", "9c", "As", "8d", "Kh", "7s", *SPARE],
        ),
        Settles(
            net={"p1": "20.00"},
            outcomes={1: ["win", "win"]},
            hands={1: [["Ah", "Kh"], ["As", "7s"]]},
            dealer=["9c", "8d"],
            cards_used=6,
        ),
    ),
    Case(
        EUROPEAN,
        "ace and ten after a split are not a Black-Jack: paid 1:1",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["split", "stand"])],
            # Th, up 9c, Kh (no hole card); split: Th + Ah = 21 stands by itself,
            # Kh + 9s = 19; dealer 9c + 8d = 17.
            ["Th", "9c", "Kh", "Ah", "9s", "8d", *SPARE],
        ),
        Settles(
            net={"p1": "20.00"},
            outcomes={1: ["win", "win"]},
            hands={1: [["Th", "Ah"], ["Kh", "9s"]]},
            dealer=["9c", "8d"],
            cards_used=6,
        ),
    ),
    Case(
        HOUSE,
        "a pair may be re-split up to three times, making four hands",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["split", "split", "split", "stand", "stand", "stand", "stand"])],
            # 8h, up 6c, 8d, hole Td (16). Split: 8h draws 8s, split again: 8h draws 8c,
            # split again (four hands, in play order 8h 8c 8s 8d): 8h + Th = 18,
            # 8c + 9d = 17, 8s + Ts = 18, 8d + Kd = 18; dealer 16 + 7c = 23.
            ["8h", "6c", "8d", "Td", "8s", "8c", "Th", "9d", "Ts", "Kd", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "40.00"},
            outcomes={1: ["win", "win", "win", "win"]},
            hands={1: [["8h", "Th"], ["8c", "9d"], ["8s", "Ts"], ["8d", "Kd"]]},
            dealer=["6c", "Td", "7c"],
            cards_used=11,
        ),
    ),
    Case(
        HOUSE,
        "a fourth split (a fifth hand) is refused",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["split", "split", "split", "split"])],
            ["8h", "6c", "8d", "Td", "8s", "8c", "8h", "9d", "Ts", "Kd", "7c", *SPARE],
        ),
        Refused(("box 1", "split")),
    ),
    Case(
        BICYCLE,
        "no re-split: a second split is refused",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["split", "split", "stand", "stand", "stand"])],
            ["8h", "6c", "8d", "Td", "8s", "Th", "9d", "Ts", "7c", *SPARE],
        ),
        Refused(("box 1", "split")),
    ),
    Case(
        SCARNE,
        "he may continue to split any further pairs",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["split", "split", "stand", "stand", "stand"])],
            # 8h, up 6c, 8d, hole Td; split: 8h draws 8s, split again: 8h + Th = 18,
            # 8s + 9d = 17, 8d + Ts = 18; dealer 16 + 7c = 23.
            ["8h", "6c", "8d", "Td", "8s", "Th", "9d", "Ts", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "30.00"},
            hands={1: [["8h", "Th"], ["8s", "9d"], ["8d", "Ts"]]},
            cards_used=9,
        ),
    ),
    Case(
        HOUSE,
        "if a split ace draws another ace it may be split again (shoe game)",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["split", "split"])],
            # Ah, up 9c, As, hole 7d (16); split: Ah draws Ad, split again:
            # Ah + 5h = 16, Ad + Kh = 21 (not a natural), As + 9h = 20; dealer 16 + 2c = 18.
            ["Ah", "9c", "As", "7d", "Ad", "5h", "Kh", "9h", "2c", *SPARE],
        ),
        Settles(
            net={"p1": "10.00"},
            outcomes={1: ["lose", "win", "win"]},
            hands={1: [["Ah", "5h"], ["Ad", "Kh"], ["As", "9h"]]},
            dealer=["9c", "7d", "2c"],
            cards_used=9,
        ),
    ),
    Case(
        HOUSE,
        "re-split of aces does not apply to double deck: ace-ace stays a hand of 12",
        scenario(
            "casino-double-deck",
            [box(1, {"p1": "10"}, ["split"])],
            # Ah, up 9c, As, hole 7d; split: Ah + Ad = soft 12 (no decision), As + 5h;
            # dealer 16 + Kh = 26.
            ["Ah", "9c", "As", "7d", "Ad", "5h", "Kh", *SPARE],
        ),
        Settles(
            net={"p1": "20.00"},
            outcomes={1: ["win", "win"]},
            hands={1: [["Ah", "Ad"], ["As", "5h"]]},
            dealer=["9c", "7d", "Kh"],
            cards_used=7,
        ),
    ),
    Case(
        HOUSE,
        "re-split of aces does not apply to double deck: a second split is an error",
        scenario(
            "casino-double-deck",
            [box(1, {"p1": "10"}, ["split", "split"])],
            ["Ah", "9c", "As", "7d", "Ad", "5h", "Kh", "9h", "2c", *SPARE],
        ),
        Refused(("box 1", "left over"), field="actions"),
    ),
    # --- Doubling ----------------------------------------------------------------------
    Case(
        BICYCLE,
        "doubling on 9, 10 and 11: a 9 may double",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["double"])],
            # 5h, up 6c, 4d, hole Td; 9 doubles, draws Th = 19; dealer 16 + 9s = 25.
            ["5h", "6c", "4d", "Td", "Th", "9s", *SPARE],
        ),
        Settles(
            net={"p1": "20.00"},
            outcomes={1: ["win"]},
            hand_stakes={1: [{"p1": "20.00"}]},
            cards_used=6,
        ),
    ),
    Case(
        BICYCLE,
        "doubling on 9, 10 and 11 only: an 8 may not double",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["double"])],
            ["5h", "6c", "3d", "Td", "Th", "9s", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        PROFILES,
        "9-11 counts a soft hand at its higher total: ace-eight (19) may not double",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["double"])],
            ["Ah", "6c", "8d", "Td", "Th", "9s", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        SCARNE,
        "no double after a split (assumed for Scarne)",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["split", "double", "stand"])],
            ["8h", "6c", "8d", "Td", "3s", "Th", "9h", "7c", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        BICYCLE,
        "no double after a split (assumed for Bicycle)",
        scenario(
            "bicycle-6deck",
            [box(1, {"p1": "10"}, ["split", "double", "stand"])],
            ["8h", "6c", "8d", "Td", "3s", "Th", "9h", "7c", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        HOUSE,
        "double down on any first two cards, also after a split",
        scenario(
            "casino-double-deck",
            [box(1, {"p1": "10"}, ["split", "double", "stand"])],
            # 8h, up 6c, 8d, hole Td; split: 8h + 3s = 11 doubles, draws Th = 21;
            # 8d + 9h = 17; dealer 16 + 7c = 23.
            ["8h", "6c", "8d", "Td", "3s", "Th", "9h", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "30.00"},
            outcomes={1: ["win", "win"]},
            hands={1: [["8h", "3s", "Th"], ["8d", "9h"]]},
            hand_stakes={1: [{"p1": "20.00"}, {"p1": "10.00"}]},
            dealer=["6c", "Td", "7c"],
            cards_used=8,
        ),
    ),
    Case(
        HOUSE,
        "double down for any amount up to the original bet: $5 on a $10 bet",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["double:5"])],
            # 6h, up 6c, 5d, hole Td; 11 doubles for 5, draws Th = 21; dealer 16 + 7c.
            ["6h", "6c", "5d", "Td", "Th", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "15.00"},
            outcomes={1: ["win"]},
            hand_stakes={1: [{"p1": "15.00"}]},
            dealer=["6c", "Td", "7c"],
            cards_used=6,
        ),
    ),
    Case(
        HOUSE,
        "double down for more than the original bet is refused",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["double:15"])],
            ["6h", "6c", "5d", "Td", "Th", "7c", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        SCARNE,
        "double for double: Scarne's double must equal the original bet",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["double:5"])],
            ["6h", "6c", "5d", "Td", "Th", "7c", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    Case(
        EUROPEAN,
        "the host decides a double for the whole box; each stake doubles",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "20", "p2": "10"}, ["double"])],
            # 6h, up 6c, 5d (no hole card); 11 doubles, draws Th = 21;
            # dealer 6c + Td = 16, + 7c = 23.
            ["6h", "6c", "5d", "Th", "Td", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "40.00", "p2": "20.00"},
            hand_stakes={1: [{"p1": "40.00", "p2": "20.00"}]},
            dealer=["6c", "Td", "7c"],
            cards_used=6,
        ),
    ),
    Case(
        PROFILES,
        "double for less only on a box with a single player",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10", "p2": "10"}, ["double:5"])],
            ["6h", "6c", "5d", "Td", "Th", "7c", *SPARE],
        ),
        Refused(("box 1", "double")),
    ),
    # --- Surrender ---------------------------------------------------------------------
    Case(
        HOUSE,
        "surrender gives up half the bet (shoe game)",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["surrender"]), box(2, {"p2": "15"}, ["surrender"])],
            # box 1 Th 6d = 16, box 2 9s 7s = 16 against 9c 7h; no live hand left,
            # so the dealer draws nothing.
            ["Th", "9s", "9c", "6d", "7s", "7h", *SPARE],
        ),
        Settles(
            net={"p1": "-5.00", "p2": "-7.50"},
            outcomes={1: ["surrender"], 2: ["surrender"]},
            dealer=["9c", "7h"],
            cards_used=6,
        ),
    ),
    Case(
        HOUSE,
        "surrender does not apply to double deck",
        scenario(
            "casino-double-deck",
            [box(1, {"p1": "10"}, ["surrender"])],
            ["Th", "9c", "6d", "7h", *SPARE],
        ),
        Refused(("box 1", "surrender")),
    ),
    Case(
        SCARNE,
        "Scarne's rules offer no surrender",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["surrender"])],
            ["Th", "9c", "6d", "7h", *SPARE],
        ),
        Refused(("box 1", "surrender")),
    ),
    Case(
        HOUSE,
        "surrender only on your first two cards: not after a hit",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10"}, ["hit", "surrender"])],
            ["Th", "9c", "2d", "7h", "3s", *SPARE],
        ),
        Refused(("box 1", "surrender")),
    ),
    # --- Three sevens ------------------------------------------------------------------
    Case(
        EUROPEAN,
        "7,7,7 pays a prize equal to the stake even when the box loses",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit"])],
            # 7h, up Tc, 7d; hit 7s = 21 (three sevens); dealer draws Ah: blackjack.
            ["7h", "Tc", "7d", "7s", "Ah", *SPARE],
        ),
        Settles(
            net={"p1": "0.00"},
            main={"p1": "-10.00"},
            bonus={"p1": "10.00"},
            outcomes={1: ["lose"]},
            dealer=["Tc", "Ah"],
            cards_used=5,
        ),
    ),
    Case(
        EUROPEAN,
        "7,7,7 pays each player on the box a prize equal to their own stake",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10", "p2": "30"}, ["hit"])],
            # 7h, up 9c, 7d; hit 7s = 21; dealer 9c + 8d = 17.
            ["7h", "9c", "7d", "7s", "8d", *SPARE],
        ),
        Settles(
            net={"p1": "20.00", "p2": "60.00"},
            main={"p1": "10.00", "p2": "30.00"},
            bonus={"p1": "10.00", "p2": "30.00"},
            outcomes={1: ["win"]},
            cards_used=5,
        ),
    ),
    Case(
        PROFILES,
        "no 7,7,7 prize where the profile has none",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["hit"])],
            ["7h", "9c", "7d", "8d", "7s", *SPARE],
        ),
        Settles(net={"p1": "10.00"}, bonus={"p1": "0.00"}, cards_used=5),
    ),
    # --- Shared boxes and table limits ---------------------------------------------------
    Case(
        EUROPEAN,
        "several players on one box: the host decides, each stake is paid on its own",
        scenario(
            "casino-shoe",
            [box(1, {"p1": "10", "p2": "5", "p3": "20"}, ["split", "double", "stand"])],
            # 8h, up 6c, 8d, hole Td; split: 8h + 3s = 11 doubles, draws Th = 21;
            # 8d + Ts = 18; dealer 16 + 7c = 23. Each player: 3 times the stake.
            ["8h", "6c", "8d", "Td", "3s", "Th", "Ts", "7c", *SPARE],
        ),
        Settles(
            net={"p1": "30.00", "p2": "15.00", "p3": "60.00"},
            hand_stakes={
                1: [
                    {"p1": "20.00", "p2": "10.00", "p3": "40.00"},
                    {"p1": "10.00", "p2": "5.00", "p3": "20.00"},
                ]
            },
            cards_used=8,
        ),
    ),
    Case(
        EUROPEAN,
        "the total on a box may not be higher than the box maximum",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "600", "p2": "500"}, ["stand"])],
            ["Th", "9c", "9h", "8d", *SPARE],
        ),
        Refused(("box 1", "max")),
    ),
    Case(
        EUROPEAN,
        "each player's stake must be at least the minimum",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "20", "p2": "5"}, ["stand"])],
            ["Th", "9c", "9h", "8d", *SPARE],
        ),
        Refused(("box 1", "min")),
    ),
    Case(
        BICYCLE,
        "limits are from $2 to $500: a $1 bet is refused",
        scenario("bicycle-6deck", [box(3, {"p1": "1"}, ["stand"])], ["Th", "9c", "9h", "8d"]),
        Refused(("box 3", "min")),
    ),
    # --- Burn, cut card, deck count -----------------------------------------------------
    Case(
        SCARNE,
        "three cards are burned: a burn of three is accepted and not dealt",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "7c", "9h", "Td", *SPARE],
            burn=["As", "Ks", "5c"],
        ),
        Settles(
            net={"p1": "10.00"},
            hands={1: [["Th", "9h"]]},
            dealer=["7c", "Td"],
        ),
    ),
    Case(
        SCARNE,
        "three cards are burned: a burn of two is refused",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "7c", "9h", "Td", *SPARE],
            burn=["As", "Ks"],
        ),
        Refused(("burn",), field="burn"),
    ),
    Case(
        SCARNE,
        "when the indicator card appears the round is completed, then reshuffled",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"])],
            # four cards dealt (indices 0-3); the cut card lies before index 3.
            ["Th", "7c", "9h", "Td", *SPARE],
            cut_card_at=3,
        ),
        Settles(net={"p1": "10.00"}, cards_used=4, reshuffle=True),
    ),
    Case(
        EUROPEAN,
        "the cut card appearing early still lets the round finish",
        scenario(
            "european-enhc-6deck",
            [box(1, {"p1": "10"}, ["hit", "stand"])],
            # 5h, up 9c, 6d; hit 4s = 15, stand; dealer 9c + 8d = 17: the card at index 1
            # (the up card) was past the cut card.
            ["5h", "9c", "6d", "4s", "8d", *SPARE],
            cut_card_at=1,
        ),
        Settles(net={"p1": "-10.00"}, outcomes={1: ["lose"]}, cards_used=5, reshuffle=True),
    ),
    Case(
        SCARNE,
        "a round that stops before the indicator card needs no reshuffle",
        scenario(
            "scarne-4deck",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "7c", "9h", "Td", *SPARE],
            cut_card_at=4,
        ),
        Settles(net={"p1": "10.00"}, cards_used=4, reshuffle=False),
    ),
    Case(
        PROFILES,
        "one deck holds each card once: a second Ah is refused",
        scenario(
            "casino-single-deck-6to5",
            [box(1, {"p1": "10"}, ["stand"])],
            ["Th", "7c", "9h", "Td", "Ah", "Ah"],
        ),
        Refused(("Ah",)),
    ),
]


def _players(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["player"]: p for b in result["boxes"] for p in b["players"]}


def _boxes(result: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {b["box"]: b for b in result["boxes"]}


def _check_settlement(result: dict[str, Any], expect: Settles) -> None:
    players = _players(result)
    boxes = _boxes(result)
    for column in ("net", "main", "insurance", "bonus", "even_money"):
        wanted = getattr(expect, column)
        if wanted is not None:
            got = {p: players[p][column] for p in wanted}
            assert got == wanted, column
    if expect.outcomes is not None:
        got_outcomes = {n: [h["outcome"] for h in boxes[n]["hands"]] for n in expect.outcomes}
        assert got_outcomes == expect.outcomes
    if expect.hands is not None:
        got_hands = {n: [h["cards"] for h in boxes[n]["hands"]] for n in expect.hands}
        assert got_hands == expect.hands
    if expect.hand_stakes is not None:
        got_stakes = {n: [h["stakes"] for h in boxes[n]["hands"]] for n in expect.hand_stakes}
        assert got_stakes == expect.hand_stakes
    dealer = result["dealer"]
    if expect.dealer is not None:
        assert dealer["cards"] == expect.dealer
    if expect.dealer_total is not None:
        assert dealer["total"] == expect.dealer_total
    if expect.dealer_blackjack is not None:
        assert dealer["blackjack"] is expect.dealer_blackjack
    if expect.cards_used is not None:
        assert result["cards_used"] == expect.cards_used
    if expect.reshuffle is not None:
        assert result["reshuffle"] is expect.reshuffle


@pytest.mark.parametrize("case", CASES, ids=[f"{c.source}: {c.rule}" for c in CASES])
def test_seed_rule(case: Case) -> None:
    if isinstance(case.expect, Refused):
        with pytest.raises(ScenarioError) as caught:
            settle(case.scenario)
        message = str(caught.value)
        readable = message.lower().replace("_", " ")
        for word in case.expect.words:
            assert word.lower() in readable, message
        if case.expect.field is not None:
            assert case.expect.field in caught.value.field, message
        return
    _check_settlement(settle(case.scenario), case.expect)


def test_every_case_names_a_source_document() -> None:
    sources = {c.source for c in CASES}
    assert sources <= {SCARNE, HOUSE, BICYCLE, EUROPEAN, PROFILES}
    assert {SCARNE, HOUSE, BICYCLE, EUROPEAN} <= sources


def test_case_titles_are_unique() -> None:
    titles = [f"{c.source}: {c.rule}" for c in CASES]
    assert len(titles) == len(set(titles))
