"""The house rules: each table's whole rule on its card and at the table's placard."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import profile_version
from tests.graded import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("profile", "present", "absent"),
    [
        (
            "casino-shoe",
            [
                "Blackjack pays 3 to 2",
                "Winnings on a blackjack are rounded down to the 0.50 chip",
                "Dealer hits soft 17",
                "Dealer peeks for blackjack under an ace or a ten",
                "Insurance up to half the stake, pays 2 to 1",
                "Late surrender on the first two cards: half the stake back",
                "Double on any first two cards",
                "Double after a split",
                "Double for less: any amount up to the stake",
                "Split to 4 hands",
                "Aces may be resplit",
                "Split aces take one card each",
                "Bets 5 to 500 (the maximum for the whole box)",
                "6 decks, 1 burned; the cut card leaves 78 cards behind it",
            ],
            ["Even money", "Three sevens", "No surrender"],
        ),
        (
            "european-enhc-6deck",
            [
                "No hole card: the dealer draws a second card after the players; a dealer "
                "blackjack takes every stake, doubles and splits included",
                "Dealer stands on all 17s",
                "Even money offered on a blackjack against an ace",
                "No surrender",
                "Split without limit",
                "No resplitting aces",
                "Three sevens pay 1 × the stake, whatever the result",
            ],
            ["Dealer peeks", "Late surrender", "Double for less"],
        ),
        (
            "casino-single-deck-6to5",
            ["Blackjack pays 6 to 5", "1 deck,"],
            ["1 decks"],
        ),
    ],
)
def test_a_table_card_states_the_whole_house_rule(profile, present, absent):
    rules = profile_version(profile).house_rules
    text = " | ".join(rules)
    for line in present:
        assert line in text
    for line in absent:
        assert line not in text


def test_every_table_has_a_printable_card_for_anyone_signed_in(trainee, pit_boss, client):
    html = client_for(trainee).get(reverse("tables")).content.decode()
    # Six blackjack tables and Scarne's Casino's.
    assert html.count('class="card table-card"') == 7
    assert "Six-deck shoe" in html
    assert "Scarne&#x27;s Casino" in html
    card = client_for(pit_boss).get(reverse("table_card", args=["casino-shoe"]))
    assert card.status_code == 200
    assert card.content.decode().count('class="card table-card"') == 1
    assert client_for(pit_boss).get("/tables/no-such-table/").status_code == 404
    assert client.get(reverse("tables")).status_code == 302


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_table_card_in_a_browser(live_server, pit_boss):
    from tests.browser import artifacts_dir, chromium_page, log_in

    with chromium_page(viewport={"width": 1024, "height": 900}) as page:
        log_in(page, live_server.url, pit_boss.username)
        page.click("nav >> text=Table cards")
        page.click("section[data-table='Six-deck shoe'] >> text=Print this card")
        assert page.locator("h2").inner_text() == "Six-deck shoe"
        assert "Late surrender" in page.locator(".house-rules").inner_text()
        page.screenshot(path=artifacts_dir("tables") / "table-card.png", full_page=True)
        page.emulate_media(media="print")
        assert not page.locator(".site-header").is_visible()
