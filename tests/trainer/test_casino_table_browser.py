"""Scarne's Casino's table in the browser (issue 26, item 4): the layout drawn on the felt,
each of the five kinds answered by pointer (items picked on the felt, the reason asked only
for an illegal play, plays made with the composer, the score's fields, the ruling's radios)
and one by keyboard alone, each graded right on the round's feedback in words; axe clean at
1280, 390 and 320 px with no sideways scrolling; the pit's drill-down of a Casino decision
drawn on the same felt. Screenshots go to SHOESCHOOL_CASINO_SHOTS (default the test
artifacts), casino-<kind>-<width>.png."""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.accessibility import assert_accessible
from tests.audit.factories import TrainingClassFactory
from tests.browser import artifacts_dir, chromium_page, csp_violations, log_in
from trainer.models import Grade, GradingRun, Mode
from trainer.services.attempts import attempt_start, attempt_submit
from trainer.services.drills import drill_create
from trainer.services.grading.execute import grading_run_execute
from trainer.services.scenarios import scenario_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONFORMANCE = Path(__file__).resolve().parents[1] / "casino" / "conformance" / "valid.jsonl"
# What a page must never show a dealer: the engine's names, its card codes, its grammar.
INTERNAL = re.compile(
    r"non_dealer|is_legal|may_take|legal_plays|score_hand|rule_on|build_over_ten|loss_of_game"
    r"|\b(?:[2-9TJQKA][shdc])\b|\w\+\w"
)
# Each round one question: (its name, the conformance document, the question's index).
ROUNDS = [
    ("is-legal", "seed-multiple-nines-four-and-five", 1),
    ("may-take", "dealer-to-play", 0),
    ("legal-plays", "raise-with-a-loose-six", 0),
    ("score-hand", "score-last-take", 0),
    ("rule-on", "rulings", 0),
    ("keyboard", "seed-six-takes-three-deuces", 3),
]


def _documents() -> list[dict]:
    rows = [json.loads(line)["scenario"] for line in CONFORMANCE.read_text().splitlines()]
    by_id = {row["id"]: row for row in rows}
    out = []
    for name, doc_id, index in ROUNDS:
        document = copy.deepcopy(by_id[doc_id])
        document["questions"] = [document["questions"][index]]
        document["id"] = f"table-{name}"
        document["title"] = f"Table {name}"
        out.append(document)
    return out


@pytest.fixture
def shots() -> Path:
    folder = os.environ.get("SHOESCHOOL_CASINO_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return Path(folder)
    return artifacts_dir("casino-table")


@pytest.fixture
def casino_attempt(trainee, pit_boss):
    TrainingClassFactory(name="Casino class", trainees=[trainee], instructors=[pit_boss])
    imported = scenario_import(documents=_documents())
    drill = drill_create(title="Casino table", kind="fixed", user=pit_boss, scenarios=imported)
    return attempt_start(trainee=trainee, drill=drill, mode=Mode.PRACTICE)


def _round_name(page: Page) -> str:
    prompt = page.locator("#q-prompt").inner_text()
    if "2♠" in prompt:
        return "keyboard"
    shape = page.locator("[data-casino-shape]").get_attribute("data-casino-shape")
    return {
        "verdict": "is-legal",
        "takes": "may-take",
        "plays": "legal-plays",
        "score": "score-hand",
        "ruling": "rule-on",
    }[str(shape)]


def _no_internal_names(page: Page, where: str) -> None:
    text = page.locator("main, body").first.inner_text()
    labels = page.eval_on_selector_all(
        "[aria-label]", "els => els.map(e => e.getAttribute('aria-label')).join(' | ')"
    )
    for said in (text, labels):
        found = INTERNAL.search(said)
        assert found is None, (where, found.group(0) if found else "")


def _answer_is_legal(page: Page, shot: Callable[[str], None]) -> None:
    reasons = page.locator("[data-casino-reasons]").get_by_role("radio").first
    expect(reasons).to_be_disabled()  # no reason asked before the play is called illegal
    page.get_by_role("radio", name="Legal", exact=True).check()
    expect(reasons).to_be_disabled()
    page.get_by_role("radio", name="Illegal").check()
    expect(reasons).to_be_enabled()
    page.get_by_role("radio", name="No build is worth more than 10").check()
    page.get_by_role("button", name="Answer").click()


def _answer_may_take(page: Page, shot: Callable[[str], None]) -> None:
    five, four = (
        page.get_by_role("button", name="5♣", exact=True),
        page.get_by_role("button", name="4♦", exact=True),
    )
    expect(five).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Takes nothing").click()
    expect(page.locator("[data-casino-picked]")).to_have_text("It takes nothing.")
    five.click()
    four.click()
    expect(five).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Takes nothing")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.locator("[data-casino-picked]")).to_have_text("It takes 5♣ and 4♦.")
    shot("picked")
    page.get_by_role("button", name="Answer").click()


def _answer_legal_plays(page: Page, shot: Callable[[str], None]) -> None:
    build = page.locator('[data-item="2c+3h"]')
    six = page.get_by_role("button", name="6♣", exact=True)
    add = page.get_by_role("button", name="Add this play")
    # No play offered, none filtered: every value may be announced, every item picked.
    page.get_by_role("radio", name="Build").check()
    values = page.get_by_label("The build's value announced")
    assert values.locator("option").all_inner_texts() == [str(n) for n in range(2, 11)]
    values.select_option("6")
    build.click()
    add.click()
    build.click()
    six.click()
    add.click()
    # A play wrongly added is removed again.
    page.get_by_role("radio", name="Take").check()
    six.click()
    add.click()
    plays = page.locator("[data-casino-plays] li")
    expect(plays).to_have_count(3)
    expect(plays.nth(2)).to_contain_text("Take 6♣")
    plays.nth(2).get_by_role("button").click()
    page.get_by_role("radio", name="Trail").check()
    add.click()
    expect(plays).to_have_count(3)
    expect(plays.nth(0)).to_have_text(re.compile(r"^Raise the 5 build \(2♣ 3♥\) to 6 "))
    expect(plays.nth(1)).to_contain_text("Raise the 5 build (2♣ 3♥) to 6, with 6♣")
    expect(plays.nth(2)).to_have_text(re.compile(r"^Trail"))
    shot("listed")
    page.get_by_role("button", name="Answer").click()


SCORE = {
    "Non-dealer": {"Cards": 0, "Spades": 1, "Big casino": 0, "Little casino": 1, "Aces": 2},
    "Dealer": {"Cards": 3, "Spades": 0, "Big casino": 2, "Little casino": 0, "Aces": 2},
}


def _answer_score_hand(page: Page, shot: Callable[[str], None]) -> None:
    for player, lines in SCORE.items():
        for line, points in lines.items():
            page.get_by_label(f"{player}: {line}", exact=True).fill(str(points))
    page.get_by_role("radio", name="The dealer").check()
    page.get_by_role("button", name="Answer").click()


def _answer_rule_on(page: Page, shot: Callable[[str], None]) -> None:
    """Chosen by pointer; Enter on the chosen ruling answers."""
    expect(page.locator("[data-shortcut-switch]")).to_be_hidden()  # no letter keys here
    ruling = page.get_by_role("radio", name=re.compile("^Loss of game"))
    ruling.check()
    ruling.focus()
    page.keyboard.press("Enter")


def _focused(page: Page) -> dict:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return {item: e.dataset.item || '', text: e.textContent.trim(),"
        " submit: e.type === 'submit'}; }"
    )


def _answer_by_keyboard(page: Page, shot: Callable[[str], None]) -> None:
    """Tab to each deuce on the felt, Space picks it, Tab on to Answer, Enter answers."""
    page.locator("body").click(position={"x": 1, "y": 1})
    picked = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        at = _focused(page)
        if at["item"] in ("2h", "2d", "2c") and at["item"] not in picked:
            page.keyboard.press("Space")
            picked.add(at["item"])
        if at["submit"] and "Answer" in at["text"]:
            break
    assert picked == {"2h", "2d", "2c"}
    expect(page.locator("[data-casino-picked]")).to_contain_text("2♥")
    page.keyboard.press("Enter")


ANSWER = {
    "is-legal": _answer_is_legal,
    "may-take": _answer_may_take,
    "legal-plays": _answer_legal_plays,
    "score-hand": _answer_score_hand,
    "rule-on": _answer_rule_on,
    "keyboard": _answer_by_keyboard,
}


def _drawn(page: Page, name: str) -> None:
    """The layout as a dealer reads it, for the round's question."""
    felt = page.locator(".casino-felt")
    expect(felt).to_be_visible()
    if name == "is-legal":
        expect(felt).to_contain_text("Deal 3 of 6")
        expect(felt).to_contain_text("Building 9 — the non-dealer's")
        expect(felt.locator(".casino-item.named")).to_have_count(1)  # the build the play names
        expect(felt).to_contain_text("4 cards in hand, face down")
    if name == "legal-plays":
        expect(felt).to_contain_text("Building 5 — the dealer's")
        expect(felt.locator(".playing-card.asked")).to_have_count(2)  # in hand and named
    if name == "score-hand":
        expect(felt).to_contain_text("Last deal (6 of 6)")
        expect(felt).to_contain_text("17 cards taken")
        expect(felt).to_contain_text("Last to take: the non-dealer")


def _round(page: Page, shots: Path, width: int, *, check: bool) -> str:
    name = _round_name(page)
    _drawn(page, name)
    # A phone's shot is the screen as the trainee has it; a desk's the whole page.
    page.screenshot(path=shots / f"casino-{name}-{width}.png", full_page=width > 640)
    if check:
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        _no_internal_names(page, name)
        assert_accessible(page)

    def shot(tag: str) -> None:
        page.screenshot(path=shots / f"casino-{name}-{tag}-{width}.png", full_page=width > 640)

    ANSWER[name](page, shot)
    expect(page.locator("h1#feedback-title")).to_be_visible()
    shot("feedback")
    expect(page.locator(".verdict")).to_have_text("✔ right")
    _no_internal_names(page, f"{name} feedback")
    if check:
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    return name


def test_every_kind_answered_on_the_felt_and_the_pit_sees_it_drawn(
    live_server, trainee, pit_boss, casino_attempt, shots
):
    with chromium_page(viewport={"width": 1280, "height": 900}) as page:
        refused = csp_violations(page)
        log_in(page, live_server.url, trainee.username)
        page.goto(live_server.url + reverse("train:table", args=[casino_attempt.pk]))
        done = []
        for n in range(len(ROUNDS)):
            done.append(_round(page, shots, 1280, check=True))
            if n < len(ROUNDS) - 1:
                page.get_by_role("link", name="Next round →").click()
        assert sorted(done) == sorted(name for name, _, _ in ROUNDS)
        assert refused == []

        attempt_submit(attempt=casino_attempt, user=trainee)
        grading_run_execute(run_id=GradingRun.objects.get(attempt=casino_attempt).pk)
        grades = Grade.objects.filter(run__attempt=casino_attempt)
        assert [g.correct for g in grades] == [True] * len(ROUNDS)

        # The pit boss's drill-down of the play-list round: the felt as the trainee saw it.
        grade = next(g for g in grades if g.item.document["id"] == "table-legal-plays")
        page.context.clear_cookies()
        log_in(page, live_server.url, pit_boss.username)
        page.goto(live_server.url + reverse("pit:grade", args=[grade.pk]))
        felt = page.locator(".casino-felt")
        expect(felt).to_contain_text("Building 5 — the dealer's")
        expect(felt.locator("button")).to_have_count(0)  # drawn, not answered
        expect(page.locator("#expected")).to_contain_text("Raise the 5 build (2♣ 3♥) to 6")
        page.screenshot(path=shots / "casino-pit-1280.png", full_page=True)
        _no_internal_names(page, "drill-down")
        assert_accessible(page)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 640)])
def test_on_a_phone_the_felt_and_the_question_fit(
    live_server, trainee, casino_attempt, shots, width, height
):
    with chromium_page(viewport={"width": width, "height": height}) as page:
        log_in(page, live_server.url, trainee.username)
        page.goto(live_server.url + reverse("train:table", args=[casino_attempt.pk]))
        for n in range(len(ROUNDS)):
            expect(page.locator("#q-prompt")).to_be_in_viewport()
            _round(page, shots, width, check=True)
            if n < len(ROUNDS) - 1:
                page.get_by_role("link", name="Next round →").click()


NO_SCRIPT = {
    "is-legal": lambda page: (
        page.get_by_role("radio", name="Illegal").check(),
        page.get_by_role("radio", name="No build is worth more than 10").check(),
    ),
    "may-take": lambda page: (
        page.get_by_role("checkbox", name="5♣").check(),
        page.get_by_role("checkbox", name="4♦").check(),
    ),
    "legal-plays": lambda page: page.get_by_label("Every legal play, one a line").fill(
        "build 6 on 3h+2c\nbuild 6 on 2c+3h with 6c\ntrail"
    ),
    "score-hand": lambda page: (
        [
            page.get_by_label(f"{player}: {line}", exact=True).fill(str(points))
            for player, lines in SCORE.items()
            for line, points in lines.items()
        ],
        page.get_by_role("radio", name="The dealer").check(),
    ),
    "rule-on": lambda page: page.get_by_role("radio", name=re.compile("^Loss of game")).check(),
    "keyboard": lambda page: [
        page.get_by_role("checkbox", name=name).check() for name in ("2♥", "2♦", "2♣")
    ],
}


def test_without_the_script_the_ticks_and_typed_plays_still_answer(
    live_server, trainee, casino_attempt
):
    with chromium_page(viewport={"width": 1280, "height": 900}, java_script_enabled=False) as page:
        log_in(page, live_server.url, trainee.username)
        page.goto(live_server.url + reverse("train:table", args=[casino_attempt.pk]))
        for n in range(len(ROUNDS)):
            name = _round_name(page)
            expect(page.locator("[data-casino-composer]")).to_be_hidden()
            expect(page.locator(".casino-felt button:enabled")).to_have_count(0)
            NO_SCRIPT[name](page)
            page.get_by_role("button", name="Answer").click()
            expect(page.locator(".verdict")).to_have_text("✔ right")
            if n < len(ROUNDS) - 1:
                page.get_by_role("link", name="Next round →").click()
