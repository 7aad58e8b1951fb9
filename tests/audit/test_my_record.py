"""The trainee's own record: the pit boss's comments on their answers, their retraining
flags, their standing at each table and their progress by skill; only ever their own."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.selectors.progress import skill_progress
from audit.services.reviews import retraining_flag_create, review_create
from tests.graded import RIGHT, client_for, make_attempt, wrong
from tests.queries import assert_database_query_count
from trainer.models import Grade

pytestmark = pytest.mark.django_db

URL = "/train/record/"


def page(user) -> str:
    response = client_for(user).get(URL)
    assert response.status_code == 200
    return response.content.decode()


def _mistake(trainee, diff="5.00", **kwargs) -> Grade:
    attempt = make_attempt(trainee=trainee, answers=[RIGHT, wrong(diff)], **kwargs)
    return Grade.objects.get(run__attempt=attempt, correct=False)


def test_the_trainee_reads_the_pit_bosss_comment_once_written(pit, trainee, pit_boss):
    grade = _mistake(trainee)
    assert "No comments yet" in page(trainee)
    review_create(grade=grade, reviewer=pit_boss, comment="A natural pays 3 to 2: 15.00.")
    html = page(trainee)
    assert "A natural pays 3 to 2: 15.00." in html
    assert pit_boss.get_full_name() in html
    assert "round 2, question 4 (Overpay)" in html
    assert "You answered Pay 20.00; the right answer was Pay 15.00." in html


def test_a_corrected_comment_shows_only_its_correction(pit, trainee, pit_boss):
    grade = _mistake(trainee)
    first = review_create(grade=grade, reviewer=pit_boss, comment="Paid 2 to 1.")
    review_create(grade=grade, reviewer=pit_boss, comment="Paid 7 to 5.", corrects=first)
    html = page(trainee)
    assert "Paid 7 to 5." in html
    assert "Paid 2 to 1." not in html


def test_another_trainees_comments_and_flags_never_show(pit, trainee, other_trainee):
    theirs = _mistake(other_trainee)
    their_boss = pit["other_boss"]
    review_create(grade=theirs, reviewer=their_boss, comment="Otto's comment")
    retraining_flag_create(trainee=other_trainee, flagged_by=their_boss, reason="Otto's flag")
    html = page(trainee)
    assert "Otto" not in html
    assert "No retraining flag is in force." in html


def test_a_flag_in_force_is_shown_with_what_it_means(pit, trainee, pit_boss):
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Short-paid 6:5 twice")
    html = page(trainee)
    assert "Flagged for retraining" in html
    assert "Short-paid 6:5 twice" in html
    assert "No certification is signed for you while it is in force" in html


def test_every_table_has_a_standing(pit, trainee):
    html = page(trainee)
    tables = re.findall(r'<tr data-table="([^"]+)">', html)
    assert "Six-deck shoe" in tables
    assert "Scarne&#x27;s Casino" in tables
    assert len(tables) == 7  # six blackjack tables and Casino's
    assert html.count(">not sat<") == 7


def test_progress_by_skill_compares_the_last_30_days_with_before(pit, trainee):
    old = timezone.now() - dt.timedelta(days=60)
    make_attempt(trainee=trainee, answers=[wrong("5.00")] * 3 + [RIGHT], submitted_at=old)
    make_attempt(trainee=trainee, answers=[RIGHT] * 4)
    (natural,) = skill_progress(trainee_id=trainee.pk)
    assert natural.title == "Natural at 3:2"
    assert (natural.questions, natural.accuracy) == (8, Decimal("62.5"))
    assert (natural.earlier_accuracy, natural.recent_accuracy) == (
        Decimal("25.0"),
        Decimal("100.0"),
    )
    assert natural.trend == "up"
    assert natural.meets_target
    html = page(trainee)
    row = html.split('data-skill="natural-3to2"', 1)[1].split("</tr>", 1)[0]
    assert "62.5 %" in row
    assert "100.0 % ↑" in row
    assert "on target" in row


def test_a_skill_below_the_target_says_so(pit, trainee):
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("1.00")], skills=("rounding",))
    (rounding,) = skill_progress(trainee_id=trainee.pk)
    assert rounding.accuracy == Decimal("50.0")
    assert not rounding.meets_target
    assert "below target" in page(trainee)


def test_only_trainees_have_a_record_page(pit, pit_boss, compliance_officer):
    for user in (pit_boss, compliance_officer):
        assert client_for(user).get(URL).status_code == 403


# 14: the refreshers (their attempts are read only when there are some); the trainee's
# certificates (one query with their certificates; their withdrawals, one more, only when
# there are some).
RECORD_QUERIES = 13


@pytest.mark.usefixtures("session_activity_unwritten")
@pytest.mark.parametrize("size", [1, 5])
def test_the_record_page_runs_a_fixed_number_of_queries(pit, trainee, pit_boss, size):
    for n in range(size):
        grade = _mistake(trainee, skills=("rounding", f"skill-{n}"))
        review_create(grade=grade, reviewer=pit_boss, comment=f"Comment {n}")
        retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason=f"Flag {n}")
    client = client_for(trainee)
    with assert_database_query_count(RECORD_QUERIES):
        assert client.get(reverse("record:mine")).status_code == 200


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_record_page_in_a_browser(live_server, pit, trainee, pit_boss):
    from tests.browser import artifacts_dir, chromium_page, log_in

    grade = _mistake(trainee)
    review_create(grade=grade, reviewer=pit_boss, comment="A natural pays 3 to 2: 15.00.")
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Overpaid naturals")
    make_attempt(trainee=trainee, answers=[RIGHT, wrong("1.00")], skills=("rounding",))
    with chromium_page(viewport={"width": 1024, "height": 900}) as browser:
        log_in(browser, live_server.url, trainee.username)
        browser.click("nav >> text=My record")
        assert browser.locator("h1").inner_text() == "My record"
        assert "A natural pays 3 to 2" in browser.locator("#reviews-title + ul").inner_text()
        browser.screenshot(path=artifacts_dir("record") / "my-record.png", full_page=True)


def test_the_pits_mistakes_list_names_the_question_not_its_code(pit, trainee, pit_boss):
    _mistake(trainee)
    url = reverse("pit:trainee_mistakes", args=[trainee.pk])
    html = client_for(pit_boss).get(url).content.decode()
    assert "Settle a hand (question 4)" in html
    assert "settle_hand" not in html
