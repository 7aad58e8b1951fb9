"""A Casino situation staged in a dealer's words (issue #26): the game names its editor
("game-fields") and declares its fields (``staged_form``); the workspace draws them, the
game makes its `casino-scenario/1` document and the engine works out every answer (shown in
the preview, never typed). Bad input is refused at its field in plain words, nothing saved;
a stored situation opens filled in and saves back the same document."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from ledger.events import Event
from ledger.models import LedgerEntry
from tests.audit.test_no_internal_names import casino_names, visible_text
from tests.factories import UserFactory
from tests.graded import client_for
from trainer.games import game_named
from trainer.games.casino.editing import staged_document, staged_values
from trainer.models import RuleProfile, Scenario
from trainer.services.scenario_authoring import scenario_create

pytestmark = pytest.mark.django_db

LIBRARY = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "scarne-casino.jsonl"
NEW = reverse("teach:scenario-new") + "?game=casino"
# Names of ours no page of the form may show a person.
INTERNAL = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(
        sorted(
            (re.escape(n) for n in casino_names() | {"non_dealer"} if "_" in n or "-" in n),
            key=len,
            reverse=True,
        )
    )
    + r")(?![\w-])|\bscarne-casino\b|\b(?:table|questions|hands|taken)\[\d|\b[A2-9TJQK][shdc]\b"
)


def library() -> list[dict]:
    return [json.loads(line) for line in LIBRARY.read_text().splitlines() if line.strip()]


def five_raised_to_six(**changes: object) -> dict[str, object]:
    """The seed's five raised to six: the non-dealer's ace on the dealer's 3♥ 2♣."""
    form: dict[str, object] = {
        "title": "The five raised to six",
        "profile": RuleProfile.objects.get(name="scarne-casino").pk,
        "skills": ["raise-build"],
        "difficulty": "2",
        "deal": "3",
        "turn": "non_dealer",
        "loose": "",
        "build_1_cards": "3♥ 2♣",
        "build_1_value": "5",
        "build_1_kind": "single",
        "build_1_owner": "dealer",
        "hand_non_dealer": "A♦ 6♥ 9♠ Q♣",
        "hand_dealer": "5♦ 7♣ 8♣ J♥",
        "q1_kind": "is_legal",
        "q1_card": "A♦",
        "q1_does": "build",
        "q1_on": "1",
        "q1_value": "6",
        "q2_kind": "legal_plays",
        "q2_card": "Ad",
        "action": "save",
    }
    return {**form, **changes}


def test_casino_names_the_workspaces_game_fields_editor():
    casino = game_named("casino")
    assert casino.staged_editor == "game-fields"
    assert casino.staged_form is not None
    assert game_named("blackjack").staged_form is None


@pytest.mark.parametrize("document", library(), ids=lambda d: d["id"])
def test_every_library_situation_round_trips_through_the_fields(document):
    values = staged_values(document)
    back = staged_document(
        values, title=document["title"], skills=document["skills"], profile="scarne-casino"
    )
    assert back == {key: value for key, value in document.items() if key != "id"}
    # What a person reads in the fields is a dealer's: cards as 10♦, no internal name.
    shown = " ".join(str(v) for k, v in values.items() if isinstance(v, str) and "card" in k)
    assert not re.search(r"\b[A2-9TJQK][shdc]\b", shown)


def test_a_situation_staged_in_the_form_is_saved_as_its_document(pit_boss):
    response = client_for(pit_boss).post(NEW, five_raised_to_six())
    assert response.status_code == 302, visible_text(response.content.decode())[:2000]
    scenario = Scenario.objects.get(title="The five raised to six")
    assert scenario.game == "casino"
    assert scenario.document == {
        "format": "casino-scenario/1",
        "id": scenario.document["id"],
        "title": "The five raised to six",
        "skills": ["raise-build"],
        "rules": "scarne-casino",
        "deal": 3,
        "turn": "non_dealer",
        "table": [{"build": ["3h", "2c"], "value": 5, "kind": "single", "owner": "dealer"}],
        "hands": {"non_dealer": ["Ad", "6h", "9s", "Qc"], "dealer": ["5d", "7c", "8c", "Jh"]},
        "taken": {"non_dealer": [], "dealer": []},
        "last_capturer": None,
        "questions": [
            {"kind": "is_legal", "play": {"card": "Ad", "build": 6, "with": [], "on": "2c+3h"}},
            {"kind": "legal_plays", "card": "Ad"},
        ],
    }
    entry = LedgerEntry.objects.get(event=Event.SCENARIO_CREATED)
    assert (entry.subject_id, entry.actor_id) == (str(scenario.pk), pit_boss.pk)


def test_the_preview_shows_what_the_engine_rules_in_a_dealers_words(pit_boss):
    court = five_raised_to_six(
        q1_card="Q♣", q1_does="take", q1_on="", q1_value="", q1_loose="", q1_builds=["1"]
    )
    response = client_for(pit_boss).post(NEW, {**court, "action": "preview"})
    text = visible_text(response.content.decode())
    assert response.status_code == 200
    assert "Answer key" in text
    assert "Illegal: a court card takes only a loose card of its rank and never builds" in text
    assert "Raise the 5 build (2♣ 3♥) to 6" in text  # the ace's plays, worked out
    assert INTERNAL.findall(text) == []
    assert not Scenario.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"loose": "7♥ Zz"}, "loose", "“Zz” is not a card"),
        ({"build_1_value": ""}, "build_1_value", "say the value announced"),
        ({"build_1_cards": ""}, "build_1_cards", "name the cards of build 1"),
        ({"build_1_value": "6"}, "build_1_cards", "add up to its value 6"),
        ({"build_1_owner": "non_dealer"}, "build_1_owner", "holds no card of the build"),
        ({"build_1_owner": ""}, "build_1_owner", "choose whose build it is"),
        ({"hand_dealer": "5♦ 7♣ 8♣ J♥ 2♦"}, "hand_dealer", "at most 4 cards"),
        ({"hand_dealer": "5♦ 7♣ 8♣"}, "hand_dealer", "the non-dealer leads"),
        ({"loose": "A♦"}, "loose", "A♦ is already placed elsewhere"),
        ({"taken_dealer": "4x"}, "taken_dealer", "is not a card"),
        ({"deal": "9"}, "deal", "not offered"),
        ({"q1_kind": ""}, "q1_kind", "choose the question asked"),
        ({"q1_card": ""}, "q1_card", "name one card"),
        ({"q1_does": ""}, "q1_does", "choose what the card does"),
        ({"q1_value": ""}, "q1_value", "say the value the build announces"),
        ({"q1_value": "x"}, "q1_value", "a whole number"),
        ({"q1_on": "3"}, "q1_on", "build 3 has no cards on the table"),
        ({"q2_card": "2♦"}, "q2_card", "2♦ is not in the hand of the player to play"),
        ({"q2_kind": "score_hand"}, "deal", "score the hand only when the sixth deal"),
        ({"q2_kind": "rule_on"}, "q2_situation", "choose what happened"),
        (
            {"q2_kind": "rule_on", "q2_situation": "last_not_announced"},
            "q2_trick_played",
            "choose yes or no",
        ),
        (
            {"q2_kind": "rule_on", "q2_situation": "face_up_in_pack", "q2_who": "dealer"},
            "q2_count",
            "say how many cards",
        ),
        (
            {"q2_kind": "rule_on", "q2_situation": "card_exposed", "q2_who": "dealer"},
            "q2_belongs_to",
            "choose whose card it was",
        ),
    ],
)
def test_bad_input_is_refused_at_its_field_in_plain_words(pit_boss, changes, field, says):
    response = client_for(pit_boss).post(NEW, five_raised_to_six(**changes))
    page = response.content.decode()
    assert response.status_code == 400
    error = re.search(rf'id="id_{field}-error">(.*?)</p>', page)
    assert error is not None, re.findall(r'id="(id_\w+-error)">(.*?)</p>', page)
    assert says in error.group(1).replace("&#x27;", "'").replace("&quot;", '"')
    assert INTERNAL.findall(visible_text(page)) == []
    assert not Scenario.objects.exists()


class _Fields(HTMLParser):
    """The values a browser would post from the form's fields as drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self._select: str | None = None
        self._first: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.values.setdefault(name, []).append(a.get("value") or "")
            else:
                self.values[name] = [a.get("value") or ""]
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            self._first.setdefault(self._select, a.get("value") or "")
            if "selected" in a:
                self.values[self._select] = [a.get("value") or ""]

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self.values.setdefault(self._select, [self._first.get(self._select, "")])
            self._select = None


def _posted_from(page: str) -> dict[str, list[str]]:
    form = page.split('class="workspace-form game-fields"', 1)[1].split("</form>", 1)[0]
    parser = _Fields()
    parser.feed(form)
    return parser.values


SAMPLE = ("casino-001", "casino-040", "casino-047", "casino-065", "casino-074")


@pytest.mark.parametrize("slug", SAMPLE)
def test_a_stored_situation_opens_filled_in_and_saves_back_the_same_document(pit_boss, slug):
    document = next(d for d in library() if d["id"] == slug)
    made = scenario_create(document=document, user=pit_boss)
    client = client_for(pit_boss)
    url = reverse("teach:scenario-edit", args=[made.pk])
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'class="workspace-form game-fields"' in text
    assert INTERNAL.findall(visible_text(text)) == []
    posted = {**_posted_from(text), "action": "save"}
    # Saved unchanged, the service finds nothing to revise: the fields gave the same document.
    response = client.post(url, posted)
    errors = re.findall(r'class="error" role="alert"[^>]*>(.*?)</p>', response.content.decode())
    assert (response.status_code, errors) == (
        400,
        ["nothing changed: the revision would be the same scenario"],
    )
    response = client.post(url, {**posted, "difficulty": "4"})
    assert response.status_code == 302
    revised = Scenario.objects.get(is_active=True, slug=made.slug)
    assert (revised.revision, revised.difficulty) == (2, 4)
    drop = ("id",)
    assert {k: v for k, v in revised.document.items() if k not in drop} == {
        k: v for k, v in made.document.items() if k not in drop
    }


def test_the_library_offers_the_form(pit_boss):
    text = client_for(pit_boss).get(reverse("teach:scenarios")).content.decode()
    assert "Stage a Scarne&#x27;s Casino situation" in text
    assert f'href="{NEW}"' in text


def test_a_trainee_never_reaches_the_form_or_its_preview(trainee):
    client = client_for(trainee)
    assert client.get(NEW).status_code in (302, 403)
    response = client.post(NEW, five_raised_to_six(action="preview"))
    assert response.status_code in (302, 403)
    assert "Answer key" not in response.content.decode()


def test_another_pit_boss_cannot_revise_it_but_an_administrator_can(pit_boss, admin_user):
    other = UserFactory(username="other-boss", roles=["pit_boss"])
    client_for(pit_boss).post(NEW, five_raised_to_six())
    made = Scenario.objects.get()
    url = reverse("teach:scenario-edit", args=[made.pk])
    assert client_for(other).post(url, five_raised_to_six(title="Mine now")).status_code == 403
    made.refresh_from_db()
    assert (made.is_active, Scenario.objects.count()) == (True, 1)
    assert client_for(admin_user).post(url, five_raised_to_six(title="Fixed")).status_code == 302
    assert Scenario.objects.get(is_active=True).title == "Fixed"


@pytest.mark.parametrize(
    "rules",
    [
        {"profile": "scarne-casino", "overrides": {"sweeps": True}},
        {"profile": "scarne-casino", "overrides": {"match_goal": 21}},
        {"profile": "scarne-casino", "overrides": {"sweeps": False, "match_goal": None}},
    ],
)
def test_a_situations_own_rules_round_trip_and_are_played(rules):
    document = {**library()[0], "rules": rules, "sweeps": {"non_dealer": 1, "dealer": 0}}
    values = staged_values(document)
    back = staged_document(
        values, title=document["title"], skills=document["skills"], profile="scarne-casino"
    )
    assert back == {key: value for key, value in document.items() if key != "id"}
    game_named("casino").validate(back)


def test_a_situations_sweeps_rule_is_refused_in_words_when_not_offered(pit_boss):
    response = client_for(pit_boss).post(NEW, five_raised_to_six(sweeps_rule="maybe"))
    assert response.status_code == 400
    assert 'id="id_sweeps_rule-error"' in response.content.decode()
    assert not Scenario.objects.exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"q1_does": "take", "q1_builds": ["x"]},
        {"q1_on": "x"},
        {"build_1_value": "0"},
        {"build_1_cards": "K♠ 3♥"},
        {"build_1_kind": "multiple"},
        {"q1_value": "-1"},
        {
            "q2_kind": "rule_on",
            "q2_situation": "face_up_in_pack",
            "q2_who": "dealer",
            "q2_count": "99",
        },
        {"q2_kind": "rule_on", "q2_situation": "nothing"},
        {"turn": "dealer"},
        {"q1_kind": "whatever"},
        {"taken_dealer": "A♦"},
    ],
)
def test_odd_input_is_refused_in_words_never_a_crash(pit_boss, changes):
    response = client_for(pit_boss).post(NEW, five_raised_to_six(**changes))
    page = response.content.decode()
    assert response.status_code == 400
    errors = re.findall(r'class="error" role="alert"[^>]*>(.*?)</p>', page)
    assert errors
    assert INTERNAL.findall(" ".join(errors)) == [], errors
    assert not Scenario.objects.exists()
