"""The house-rules pages (issue #24): an administrator sees each table and its versions,
changes a table's rules from a date through a form in words with the card, the placard and
what changes shown first, and opens a new table from a copy. The Django admin only shows
rule profiles."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import entries_written
from trainer.models import RuleProfile
from trainer.web.house_rules.forms import posted_values

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_of(response) -> str:
    """What a person reads: the page without its tags and attributes."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def shoe() -> RuleProfile:
    return RuleProfile.objects.get(name="casino-shoe")


def change_data(shoe: RuleProfile, **changes: str) -> dict[str, str]:
    newest = shoe.newest_version
    assert newest is not None
    data = posted_values(newest.parameters, game="blackjack")
    data.update(
        effective_on=(timezone.localdate() + dt.timedelta(days=7)).isoformat(),
        notes="The house stands on soft 17",
    )
    data.update(changes)
    return data


# The Django admin: records only (the regression of issue #24).


def test_the_admin_makes_no_empty_rule_profile_and_keeps_the_slug(admin_user, shoe):
    client = client_for(admin_user)
    assert client.get("/admin/trainer/ruleprofile/").status_code == 200
    assert client.get("/admin/trainer/ruleprofile/add/").status_code == 403
    response = client.post("/admin/trainer/ruleprofile/add/", {"name": "empty", "title": "Empty"})
    assert response.status_code == 403
    assert not RuleProfile.objects.filter(name="empty").exists()
    response = client.post(
        f"/admin/trainer/ruleprofile/{shoe.pk}/change/",
        {"name": "renamed", "title": "Renamed", "versions-TOTAL_FORMS": "0"},
    )
    assert response.status_code == 403
    shoe.refresh_from_db()
    assert (shoe.name, shoe.title) == ("casino-shoe", "Six-deck shoe")
    # Shown, to read.
    page = client.get(f"/admin/trainer/ruleprofile/{shoe.pk}/change/")
    assert page.status_code == 200
    assert client.get("/admin/trainer/ruleprofileversion/add/").status_code == 403


# Who may.


@pytest.mark.parametrize("role", ["pit_boss", "compliance_officer", "trainee"])
def test_only_an_administrator_opens_the_house_rules(role, request, shoe):
    client = client_for(request.getfixturevalue(role))
    for url in (
        reverse("house_rules:index"),
        reverse("house_rules:table", args=["casino-shoe"]),
        reverse("house_rules:change", args=["casino-shoe"]),
        reverse("house_rules:copy", args=["casino-shoe"]),
    ):
        assert client.get(url).status_code == 403
    assert (
        client.post(
            reverse("house_rules:change", args=["casino-shoe"]), change_data(shoe)
        ).status_code
        == 403
    )
    assert shoe.versions.count() == 1


def test_the_administrators_home_page_leads_to_the_house_rules(admin_user, pit_boss):
    assert reverse("house_rules:index") in client_for(admin_user).get("/").content.decode()
    assert reverse("house_rules:index") not in client_for(pit_boss).get("/").content.decode()


# Reading.


def test_the_list_shows_every_table_and_its_versions(admin_user):
    response = client_for(admin_user).get(reverse("house_rules:index"))
    assert response.status_code == 200
    text = text_of(response)
    for title in ("Six-deck shoe", "Double deck", "European no hole card, six decks"):
        assert title in text
    assert "casino-shoe" not in text
    assert "In force" in text


def test_a_table_page_shows_its_card_and_versions(admin_user):
    response = client_for(admin_user).get(reverse("house_rules:table", args=["casino-shoe"]))
    text = text_of(response)
    assert "Dealer hits soft 17" in text
    assert "Version 1" in text
    assert (
        client_for(admin_user).get(reverse("house_rules:table", args=["nope"])).status_code == 404
    )


# Changing.


def test_the_form_names_every_rule_in_words(admin_user):
    response = client_for(admin_user).get(reverse("house_rules:change", args=["casino-shoe"]))
    assert response.status_code == 200
    text = text_of(response)
    for words in (
        "Soft 17",
        "Blackjack pays",
        "Decks in the shoe",
        "Smallest bet",
        "Chips at the table",
        "Takes effect from",
    ):
        assert words in text
    assert "Dealer stands on soft 17" in text
    assert "6 to 5" in text
    for key in ("dealer_hits_soft_17", "blackjack_pays", "penetration_cards", "6:5"):
        assert key not in text


def test_a_preview_shows_the_card_the_placard_and_what_changes_and_saves_nothing(admin_user, shoe):
    data = change_data(shoe, dealer_hits_soft_17="stands", preview="1")
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 200
    text = text_of(response)
    assert "Dealer stands on all 17s" in text  # the card and the placard
    assert re.search(r"Soft 17 .*Dealer hits soft 17 .*Dealer stands on soft 17", text)
    assert shoe.versions.count() == 1
    assert not entries_written().exists()


def test_saving_records_the_new_version_from_its_date(admin_user, shoe):
    data = change_data(shoe, dealer_hits_soft_17="stands")
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("house_rules:table", args=["casino-shoe"])
    version = shoe.versions.get(version=2)
    assert version.parameters["dealer_hits_soft_17"] is False
    assert timezone.localtime(version.effective_from).date() == timezone.localdate() + dt.timedelta(
        days=7
    )
    page = text_of(client_for(admin_user).get(response["Location"]))
    assert "Scheduled" in page
    assert "The house stands on soft 17" in page


def test_bad_input_is_shown_at_its_field_and_writes_nothing(admin_user, shoe):
    data = change_data(shoe, decks="9", min_bet="abc")
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'data-field="decks".*?class="error"', html, flags=re.S)
    assert shoe.versions.count() == 1
    assert not entries_written().exists()


def test_a_rule_the_engine_refuses_is_shown_at_its_field(admin_user, shoe):
    data = change_data(shoe, min_bet="600", max_bet="500")
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(
        r'data-field="min_bet".*?class="error"[^>]*>[^<]*Smallest bet', html, flags=re.S
    )
    assert "min_bet 600" not in text_of(response)
    assert shoe.versions.count() == 1


def test_a_date_in_the_past_is_refused_at_the_date(admin_user, shoe):
    data = change_data(
        shoe,
        dealer_hits_soft_17="stands",
        effective_on=(timezone.localdate() - dt.timedelta(days=1)).isoformat(),
    )
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 400
    assert re.search(
        r'data-field="effective_on".*?class="error"', response.content.decode(), flags=re.S
    )
    assert shoe.versions.count() == 1


def test_a_change_recorded_since_the_form_was_opened_is_not_undone(admin_user, shoe):
    """Two administrators at once: the second form, filled from version 1, would put
    version 2's change back; it is refused, nothing saved."""
    from trainer.services.house_rules import house_rules_change

    data = change_data(shoe, dealer_hits_soft_17="stands", based_on="1")
    house_rules_change(
        actor=admin_user,
        profile=shoe,
        parameters={"decks": 8},
        effective_on=timezone.localdate(),
        notes="Eight decks",
    )
    response = client_for(admin_user).post(
        reverse("house_rules:change", args=["casino-shoe"]), data
    )
    assert response.status_code == 400
    assert "recorded after you opened the form" in text_of(response)
    assert shoe.versions.count() == 2


# Copying.


def test_a_new_table_from_a_copy_of_one(admin_user, shoe):
    data = posted_values(shoe.current_version.parameters, game="blackjack")
    data.update(name="high-limit", title="High limit shoe", min_bet="100", max_bet="5000")
    client = client_for(admin_user)
    form = client.get(reverse("house_rules:copy", args=["casino-shoe"]))
    assert "Six-deck shoe" in text_of(form)
    response = client.post(reverse("house_rules:copy", args=["casino-shoe"]), data)
    assert response.status_code == 302
    table = RuleProfile.objects.get(name="high-limit")
    assert table.current_version.parameters["min_bet"] == "100"
    assert "High limit shoe" in text_of(client.get(reverse("tables")))


def test_a_copy_under_a_taken_name_is_refused_at_the_name(admin_user, shoe):
    data = posted_values(shoe.current_version.parameters, game="blackjack")
    data.update(name="casino-double-deck", title="Another")
    response = client_for(admin_user).post(reverse("house_rules:copy", args=["casino-shoe"]), data)
    assert response.status_code == 400
    assert re.search(r'data-field="name".*?class="error"', response.content.decode(), flags=re.S)
    assert RuleProfile.objects.count() == 7  # six blackjack tables and Casino's


def test_the_list_asks_the_same_queries_however_many_versions(admin_user, shoe):
    """No query per table or version (tests/test_query_counts.py's rule)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from trainer.services.house_rules import house_rules_change

    client = client_for(admin_user)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("house_rules:index")).status_code == 200
        # The session's own writes (its idle limit, config.sessions) come and go.
        return sum(
            1
            for query in queries.captured_queries
            if "core_session" not in query["sql"] and "SAVEPOINT" not in query["sql"]
        )

    def change(days: int, decks: int) -> None:
        house_rules_change(
            actor=admin_user,
            profile=shoe,
            parameters={"decks": decks},
            effective_on=timezone.localdate() + dt.timedelta(days=days),
            notes=f"{decks} decks",
        )

    change(0, 8)  # one version recorded by someone, in force
    before = count()
    change(5, 4)
    change(9, 2)
    assert count() == before
