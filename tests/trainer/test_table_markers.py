"""Everything a question needs is on the table: for every question of every scenario in the
shipped library, the table drawn as the trainee's page draws it and as the pit's drill-down
draws it shows each fact the question depends on, checked against the engine's own played
round (not against the view it draws from)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string

from trainer import rules
from trainer.games import game_named
from trainer.games.blackjack.display import card, pile_words, question_table, table_view
from trainer.games.blackjack.presenting import chip_work
from trainer.games.blackjack.skills import Skill
from trainer.games.blackjack.words import Seats, player_name, seat_names
from trainer.models import AttemptItem, Scenario
from trainer.rules import Kind, MoneyAction, ProcedureAnswer
from trainer.selectors.attempts import question_view

# --- a small DOM of the rendered table (the standard library's parser) ---------------------

_VOID = {"br", "img", "input", "meta", "link", "hr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    # Child elements and text, in document order.
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def all(self, css: str = "", **attrs: str) -> list[Node]:
        return [
            n
            for n in self.walk()
            if (not css or css in n.classes) and all(n.attrs.get(k) == v for k, v in attrs.items())
        ]

    def one(self, css: str = "", **attrs: str) -> Node:
        found = self.all(css, **attrs)
        assert len(found) == 1, (css, attrs, len(found))
        return found[0]

    def text(self) -> str:
        """All the text, screen-reader-only text included, as one spaced line."""
        parts: list[str] = []
        if self.attrs.get("role") == "img" and "aria-label" in self.attrs:
            parts.append(self.attrs["aria-label"])
        for child in self.children:
            parts.append(child.text() if isinstance(child, Node) else child)
        return " ".join(" ".join(parts).split())


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def dom(html: str) -> Node:
    tree = _Tree()
    tree.feed(html)
    return tree.root


# --- the two tables of a question, drawn as the pages draw them ----------------------------


def drawn_tables(
    key: list[dict[str, Any]],
    item: dict[str, Any],
    seats: Seats,
    document: dict[str, Any] | None = None,
) -> dict[str, Node]:
    """The trainee's table (the question's box and hand marked, a chip question's work on
    its box) and the pit's drill-down (the table as it was shown, stored on the decision),
    both through the one template, players named as the dealer names them (`seats`, from
    the round's document)."""
    question = rules.Question.from_dict(item)
    shown = question_view(AttemptItem(answer_key=key), item, game=game_named("blackjack"))
    work = chip_work(document or {}, item) if question.kind in rules.CHIP_KINDS else {}
    public = {
        "view": shown,
        "kind": question.kind.value,
        "box": question.box,
        "hand": question.hand,
        "player": question.player,
        **work,
    }
    trainee = question_table(public, seats=seats)
    pit = table_view(shown, seats=seats)
    return {
        "trainee": dom(render_to_string("games/blackjack/_table.html", {"table": trainee})),
        "pit": dom(
            render_to_string(
                "games/blackjack/_table.html",
                {"table": pit, "label": "The table as the trainee saw it"},
            )
        ),
    }


@dataclass
class Case:
    """One question of one scenario, with the engine's played round to check against."""

    slug: str
    result: rules.Round
    key: list[dict[str, Any]]
    item: dict[str, Any]
    table: Node
    who: str
    seats: Seats
    document: dict[str, Any] = field(default_factory=dict)

    def name(self, box: int, player: str) -> str:
        """The dealer's name for a player ("Seat 3, second player")."""
        return player_name(self.seats, box, player)

    @property
    def kind(self) -> Kind:
        return Kind(self.item["kind"])

    def box(self, number: int) -> Node:
        return self.table.one("box", **{"data-box": str(number)})

    def hand(self, number: int, index: int) -> Node:
        return self.box(number).one("hand", **{"data-hand": str(index)})

    def hand_result(self) -> rules.HandResult:
        box = next(b for b in self.result.boxes if b.box == self.item["box"])
        return box.hands[self.item["hand"] - 1]


# The questions asked once the players have played: the table shows every hand as played.
AFTER_PLAY = {Kind.DEALER_PLAY, Kind.SETTLE_HAND, Kind.BONUS_777, Kind.RESHUFFLE}


def after_play(case: Case) -> bool:
    return case.kind in AFTER_PLAY or (
        case.kind is Kind.SETTLE_INSURANCE and not case.result.peeked
    )


# --- what every table shows ----------------------------------------------------------------


def check_dealer(case: Case) -> None:
    shown = question_view(AttemptItem(answer_key=case.key), case.item, game=game_named("blackjack"))
    labels = [
        n.attrs["aria-label"] for n in case.table.one("dealer").all("playing-card", role="img")
    ]
    want = [card(c).label for c in shown["dealer"]]
    assert labels == want
    if case.kind is Kind.DEALER_PLAY:
        assert "face-down card" not in labels


def check_stakes(case: Case) -> None:
    """Every player's stake on every hand, each named, with its amount and chips."""
    for seat in case.item["view"]["boxes"]:
        for index, hand in enumerate(seat["hands"], start=1):
            drawn = case.hand(seat["box"], index)
            stakes = drawn.all("stake")
            assert len(stakes) == len(hand["stakes"])
            for player, amount in hand["stakes"].items():
                name = case.name(seat["box"], player)
                line = next(s for s in stakes if s.one("player").text().strip() == name)
                assert line.one("stake-amount").text() == amount
                assert line.all("stack-chip"), (player, amount)


def check_played_hands(case: Case) -> None:
    """After play, each hand says how it was played and how it stands, per the engine."""
    if not after_play(case):
        return
    for box in case.result.boxes:
        for index, hand in enumerate(box.hands, start=1):
            drawn = case.hand(box.box, index)
            text = drawn.text()
            markers = {m.one("", **{"aria-hidden": "true"}).text() for m in drawn.all("marker")}
            assert ("Surrender" in markers) == (hand.outcome == "surrender"), text
            assert ("Bust" in markers) == (hand.total > 21 and hand.outcome != "surrender")
            assert ("Blackjack" in markers) == hand.natural
            sevens = len(hand.cards) == 3 and all(c[0] == "7" for c in hand.cards)
            assert ("7-7-7" in markers) == sevens
            assert ("Split" in markers) == hand.split
            if len(box.hands) > 1:
                assert f"Hand {index}" in text
            assert ("Doubled" in markers) == hand.doubled
            if hand.doubled:
                assert "dealt sideways" in drawn.one("double-card").text()
                original = dict(box.stakes)
                for stake in drawn.all("stake"):
                    assert len(stake.all("stack")) == 2  # the original and the double
                for player, amount in hand.stakes.items():
                    before = rules.money.fmt(original[player])
                    added = rules.money.fmt(amount - original[player])
                    assert f"({before} + {added} double)" in text


def check_box_bets(case: Case) -> None:
    """Insurance placed and even money taken are on their box, with the amounts."""
    view_boxes = {b["box"]: b for b in case.item["view"]["boxes"]}
    for box in case.result.boxes:
        text = case.box(box.box).text()
        for player, amount in (view_boxes[box.box].get("insurance") or {}).items():
            assert f"{case.name(box.box, player)} insured for {amount}" in text
        taken = view_boxes[box.box].get("even_money") or {}
        if after_play(case):
            assert set(taken) == set(box.even_money)
        for player, amount in taken.items():
            line = next(
                li
                for li in case.box(box.box).one("even-money").all()
                if li.tag == "li" and case.name(box.box, player) in li.text()
            )
            assert "Even money" in line.text()
            assert amount in line.text()


def check_shoe(case: Case) -> None:
    shoe = case.table.one("shoe")
    text = shoe.text()
    burn = case.result.profile.burn
    assert (f"Burned: {burn} card" in text) if burn else ("No burn card" in text)
    assert "Dealt this round:" in text
    if case.kind is Kind.RESHUFFLE:
        assert f"Dealt this round: {case.result.cards_used} cards" in text
        assert ("Cut card came out this round" in text) == case.result.reshuffle
        assert ("cut-out" in shoe.classes) == case.result.reshuffle
        if case.result.cut_card_at is not None and not case.result.reshuffle:
            assert f"after card {case.result.cut_card_at}" in text


ALWAYS: tuple[Callable[[Case], None], ...] = (
    check_dealer,
    check_stakes,
    check_played_hands,
    check_box_bets,
    check_shoe,
)

# --- what each kind of question depends on -------------------------------------------------


def settles_a_hand(case: Case) -> None:
    action = case.item["expected"]["action"]
    hand = case.hand(case.item["box"], case.item["hand"])
    markers = hand.text()
    player = case.name(case.item["box"], case.item["player"])
    assert any(s.one("player").text().strip() == player for s in hand.all("stake"))
    if action == MoneyAction.TAKE_HALF:
        assert "Surrender" in markers
    if "A hand over 21" in case.item["rule"]:
        assert "Bust" in markers
    if case.item["rule"].startswith("Blackjack pays") or "A natural against" in case.item["rule"]:
        assert "Blackjack" in markers
    if case.hand_result().doubled:
        assert "Doubled" in markers


def settles_insurance(case: Case) -> None:
    placed = case.item["view"]["boxes"]
    amount = next(b for b in placed if b["box"] == case.item["box"])["insurance"][
        case.item["player"]
    ]
    name = case.name(case.item["box"], case.item["player"])
    assert f"{name} insured for {amount}" in case.box(case.item["box"]).text()


def offers_even_money(case: Case) -> None:
    assert "Blackjack" in case.hand(case.item["box"], 1).text()


def pays_even_money(case: Case) -> None:
    offers_even_money(case)
    text = case.box(case.item["box"]).text()
    assert "Even money taken" in text
    assert case.name(case.item["box"], case.item["player"]) in text


def pays_a_prize(case: Case) -> None:
    assert "7-7-7" in case.hand(case.item["box"], case.item["hand"]).text()


def reshuffles(case: Case) -> None:
    text = case.table.one("shoe").text()
    if case.item["expected"]["answer"] == ProcedureAnswer.RESHUFFLE:
        assert "Cut card came out this round" in text
    else:
        assert "Cut card still in the shoe" in text


def peeks(case: Case) -> None:
    # The dealer looked under the card: the trainee sees the hole card whatever it is.
    assert len(case.table.one("dealer").all("playing-card", role="img")) == 2


def nothing_more(case: Case) -> None:
    """Asked of the up card and the dealer's cards alone, which every table shows."""


def pays_in_chips(case: Case) -> None:
    """A payout asked in chips needs what the payout itself needs; a bet the round places
    in other chips than the fewest (a "match" table pays in its colours) lies as placed."""
    BY_KIND[Kind(case.item["expected"]["settles"])](case)
    if case.who != "trainee":
        return
    mine = (case.item["box"], case.item["player"])
    for bet in case.document["chips"].get("bets", []):
        if (bet["box"], bet["player"]) != mine or case.item["hand"] is None:
            continue
        stake = next(
            s
            for s in case.hand(case.item["box"], case.item["hand"]).all("stake")
            if s.one("player").text().strip() == case.name(*mine)
        )
        if stake.one("stake-amount").text() == rules.money.fmt(
            sum((Decimal(c) for c in bet["stack"]), Decimal(0))
        ):
            titles = [c.attrs["title"] for c in stake.all("stack-chip")]
            assert sorted(titles, key=Decimal) == sorted(bet["stack"], key=Decimal)


def exchanges_chips(case: Case) -> None:
    """A colour-up's pile or a change's cash lies on its box, on the trainee's table."""
    if case.who != "trainee":
        return
    text = case.box(case.item["box"]).text()
    section = case.document["chips"]
    mine = (case.item["box"], case.item["player"])
    if case.kind is Kind.COLOUR_UP:
        pile = next(e["pile"] for e in section["colour_up"] if (e["box"], e["player"]) == mine)
        assert f"The player's pile: {pile_words(pile)}" in text
        drawn = case.box(case.item["box"]).one("pile").all("stack-chip")
        assert len(drawn) == len(pile)
    else:
        cash = next(e["cash"] for e in section["change"] if (e["box"], e["player"]) == mine)
        assert f"Cash {rules.money.fmt(Decimal(cash))}" in text


BY_KIND: dict[Kind, Callable[[Case], None]] = {
    Kind.SETTLE_HAND: settles_a_hand,
    Kind.PAY_IN_CHIPS: pays_in_chips,
    Kind.COLOUR_UP: exchanges_chips,
    Kind.CHANGE: exchanges_chips,
    Kind.SETTLE_INSURANCE: settles_insurance,
    Kind.OFFER_EVEN_MONEY: offers_even_money,
    Kind.EVEN_MONEY: pays_even_money,
    Kind.BONUS_777: pays_a_prize,
    Kind.RESHUFFLE: reshuffles,
    Kind.PEEK: peeks,
    Kind.OFFER_INSURANCE: nothing_more,
    Kind.DEALER_PLAY: nothing_more,
}


def test_every_kind_of_question_has_its_check():
    assert set(BY_KIND) == set(Kind)


@pytest.mark.django_db
def test_every_question_of_the_library_can_be_answered_from_the_table() -> None:
    call_command("load_library", stdout=io.StringIO())
    skills: set[str] = set()
    kinds: set[Kind] = set()
    checked = 0
    # Blackjack's table markers (Casino's felt is checked in tests/trainer/test_casino_table_*).
    for scenario in Scenario.objects.filter(is_active=True, game="blackjack"):
        result = rules.play(scenario.document)
        key = game_named(scenario.game).answer_key(scenario.document)
        skills.update(scenario.skills)
        seats = seat_names(scenario.document)
        for item in key:
            for who, table in drawn_tables(key, item, seats, scenario.document).items():
                case = Case(scenario.slug, result, key, item, table, who, seats, scenario.document)
                kinds.add(case.kind)
                for check in (*ALWAYS, BY_KIND[case.kind]):
                    try:
                        check(case)
                    except AssertionError as err:
                        raise AssertionError(
                            f"{scenario.slug} question {item['n']} ({item['kind']}), "
                            f"{who}'s table, {check.__name__}: {err}"
                        ) from err
                checked += 1
    assert skills == {skill.value for skill in Skill}  # every skill dealt, chips included
    assert kinds == set(Kind)
    assert checked > 1000


def test_the_question_is_marked_on_the_trainees_table_not_the_pits():
    doc = {
        "format": "blackjack-scenario/1",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 2, "stakes": [{"player": "p1", "amount": "20"}], "actions": ["surrender"]},
            {"box": 4, "stakes": [{"player": "p2", "amount": "10"}], "actions": ["double"]},
        ],
        "shoe": ["Ts", "6s", "Th", "6h", "5c", "7d", "9c"],
        "cut_card_at": 5,
    }
    key = rules.answer_key(doc)
    settle = next(i for i in key if i["kind"] == "settle_hand" and i["box"] == 4)
    tables = drawn_tables(key, settle, seat_names(doc))
    trainee, pit = tables["trainee"], tables["pit"]
    assert "current" in trainee.one("box", **{"data-box": "4"}).classes
    assert not pit.all("current")
    for table in (trainee, pit):
        surrendered = table.one("box", **{"data-box": "2"})
        assert "Surrender" in surrendered.text()
        assert "surrendered: the player gave up the hand" in surrendered.text()
        doubled = table.one("box", **{"data-box": "4"})
        assert "(10.00 + 10.00 double)" in doubled.text()
    reshuffle = drawn_tables(key, key[-1], seat_names(doc))["trainee"].one("shoe")
    assert "Cut card came out this round (it lay after card 5)" in reshuffle.text()


def test_a_doubled_shared_box_draws_each_players_own_stacks_in_seat_order():
    # The host ("zoe") is listed first but sorts last by name: each stake's two stacks must
    # still be its own player's.
    doc = {
        "format": "blackjack-scenario/1",
        "rules": "casino-shoe",
        "boxes": [
            {
                "box": 1,
                "stakes": [
                    {"player": "zoe", "amount": "25"},
                    {"player": "abe", "amount": "10"},
                ],
                "actions": ["double"],
            }
        ],
        "shoe": ["6s", "Th", "5c", "7d", "9c"],
    }
    key = rules.answer_key(doc)
    table = drawn_tables(key, key[-1], seat_names(doc))["pit"]
    stakes = table.one("hand", **{"data-hand": "1"}).all("stake")
    assert [s.one("player").text().strip() for s in stakes] == [
        "Seat 1",
        "Seat 1, second player",
    ]
    assert "(25.00 + 25.00 double)" in stakes[0].text()
    assert "(10.00 + 10.00 double)" in stakes[1].text()


def test_a_view_stored_before_the_markers_still_draws():
    old = {
        "dealer": ["Ah", None],
        "boxes": [{"box": 1, "hands": [{"cards": ["Td", "6s"], "stakes": {"p1": "20.00"}}]}],
    }
    table = dom(render_to_string("games/blackjack/_table.html", {"table": table_view(old)}))
    assert not table.all("shoe")
    assert not table.all("marker")
    assert table.one("stake-amount").text() == "20.00"


@pytest.mark.django_db
def test_the_api_question_carries_the_same_facts(api, trainee):
    from tests.trainer.factories import DrillFactory
    from trainer.models import Mode
    from trainer.services.attempts import attempt_start

    doc = {
        "format": "blackjack-scenario/1",
        "rules": "casino-shoe",
        "boxes": [
            {"box": 2, "stakes": [{"player": "p1", "amount": "20"}], "actions": ["surrender"]},
            {"box": 4, "stakes": [{"player": "p2", "amount": "10"}], "actions": ["double"]},
        ],
        "shoe": ["Ts", "6s", "Th", "6h", "5c", "7d", "9c"],
        "cut_card_at": 5,
    }
    drill = DrillFactory(documents=[doc])
    attempt = attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)
    url = f"/api/attempts/{attempt.pk}"
    while True:
        question = api.get(f"{url}/question").json()["question"]
        if question["kind"] == "settle_hand":
            break
        key = AttemptItem.objects.get(attempt=attempt).answer_key[question["n"] - 1]
        answer = {"position": 1, "question": question["n"], "answer": key["expected"]}
        assert api.post(f"{url}/answers", answer, format="json").status_code == 201
    boxes = {b["box"]: b["hands"][0] for b in question["view"]["boxes"]}
    assert boxes[2]["surrendered"] is True
    assert "doubled" not in boxes[2]
    assert boxes[4]["doubled"] is True
    assert boxes[4]["before_double"] == {"p2": "10.00"}
    assert question["view"]["shoe"] == {
        "burned": 1,
        "cut_card_at": 5,
        "dealt": 7,
        "cut_card_out": True,
    }
