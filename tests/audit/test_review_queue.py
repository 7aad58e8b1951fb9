"""The review queue (issue #24, finding 4 and deliverable 5): the mistakes waiting for a
review across a pit boss's trainees, oldest first, by table, skill and trainee; "Mark
reviewed and next"; the dashboard's count. Hostile: a pit boss of another class sees and
does nothing through it, and a trainee who is also a pit boss never meets their own work.

tina is on Morning (the boss's), otto on Evening (other-boss's)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import Review
from audit.selectors.queue import QueueFilter, queue_next, waiting_reviews
from audit.services.reviews import review_create
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.factories import UserFactory
from tests.graded import RIGHT, Answer, client_for, make_attempt, wrong
from trainer.models import Grade, Mode
from trainer.selectors.visibility import trainees_actable_by

pytestmark = pytest.mark.django_db

NEVER_SHOWN = Answer(False, wrong("0.00").money_diff, "unanswered", None)


def _ago(hours: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(hours=hours)


def _mistakes(attempt) -> list[Grade]:
    return list(
        Grade.objects.filter(run__attempt=attempt, correct=False).order_by("item__position")
    )


@pytest.fixture
def work(pit, trainee, other_trainee):
    """tina: an old shoe mistake, a newer double-deck one, a right answer, a question never
    shown; otto (another class): a mistake older than all of them."""
    old = make_attempt(
        trainee=trainee,
        answers=[wrong("5.00"), RIGHT, NEVER_SHOWN],
        mode=Mode.PRACTICE,
        submitted_at=_ago(5),
    )
    new = make_attempt(
        trainee=trainee,
        answers=[wrong("-2.50")],
        mode=Mode.PRACTICE,
        profile="casino-double-deck",
        skills=("push",),
        submitted_at=_ago(2),
    )
    theirs = make_attempt(
        trainee=other_trainee, answers=[wrong("1.00")], mode=Mode.PRACTICE, submitted_at=_ago(9)
    )
    return {
        "old": _mistakes(old)[0],
        "unshown": _mistakes(old)[1],
        "new": _mistakes(new)[0],
        "theirs": _mistakes(theirs)[0],
    }


def _queue_ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'href="/pit/grades/(\d+)/\?from=queue', html)]


def test_the_queue_lists_what_waits_oldest_first_and_nothing_else(work, pit_boss):
    client = client_for(pit_boss)
    html = client.get(reverse("pit:queue")).content.decode()
    # The oldest first (once for the "Review the oldest" button, then the rows).
    assert _queue_ids(html) == [work["old"].pk, work["old"].pk, work["new"].pk]
    assert '<span id="waiting">2</span>' in html
    assert "otto" not in html.lower()

    review_create(grade=work["old"], reviewer=pit_boss, comment="Count the payout again")
    html = client.get(reverse("pit:queue")).content.decode()
    assert _queue_ids(html) == [work["new"].pk, work["new"].pk]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"profile": "casino-double-deck"}, ["new"]),
        ({"profile": "casino-shoe"}, ["old"]),
        ({"skill": "push"}, ["new"]),
        ({"skill": "natural-3to2"}, ["old"]),
    ],
)
def test_the_queue_filters_by_table_and_skill(work, pit_boss, trainee, query, expected):
    html = client_for(pit_boss).get(reverse("pit:queue"), query).content.decode()
    assert _queue_ids(html)[1:] == [work[name].pk for name in expected]


def test_the_queue_filters_by_trainee_and_refuses_another_classes(work, pit_boss, trainee):
    client = client_for(pit_boss)
    mine = client.get(reverse("pit:queue"), {"trainee": trainee.pk}).content.decode()
    assert _queue_ids(mine)[1:] == [work["old"].pk, work["new"].pk]

    otto = work["theirs"].run.attempt.trainee
    html = client.get(reverse("pit:queue"), {"trainee": otto.pk}).content.decode()
    assert "The filter is not applied" in html
    # Nothing of otto's: not his mistake, not his name, not in the count.
    assert work["theirs"].pk not in _queue_ids(html)
    assert '<span id="waiting">2</span>' in html
    assert "otto" not in html.lower()


def test_mark_reviewed_and_next_keeps_the_filters_and_ends_at_the_queue(work, pit_boss, trainee):
    client = client_for(pit_boss)
    step = {"from": "queue", "trainee": str(trainee.pk), "then": "next"}
    page = client.get(
        reverse("pit:grade", args=[work["old"].pk]), {"from": "queue", "trainee": trainee.pk}
    ).content.decode()
    assert "Mark reviewed and next" in page
    assert f'<input type="hidden" name="trainee" value="{trainee.pk}">' in page

    response = client.post(
        reverse("pit:grade_review", args=[work["old"].pk]), {"comment": "Pays 15.00", **step}
    )
    assert response.status_code == 302
    # Through the review service: a review and its ledger entry.
    assert Review.objects.get().grade_id == work["old"].pk
    assert LedgerEntry.objects.filter(event=Event.REVIEW_RECORDED).count() == 1
    following = client.get(response["Location"])
    assert following.status_code == 302
    assert following["Location"] == (
        f"{reverse('pit:grade', args=[work['new'].pk])}?from=queue&trainee={trainee.pk}"
    )

    response = client.post(
        reverse("pit:grade_review", args=[work["new"].pk]), {"comment": "Push", **step}
    )
    done = client.get(response["Location"])
    assert done["Location"] == f"{reverse('pit:queue')}?trainee={trainee.pk}"
    html = client.get(done["Location"]).content.decode()
    assert "Nothing else waits for your review under these filters." in html
    assert 'id="queue-empty"' in html


def test_next_respects_the_filters_and_skipping_comes_back_round(work, pit_boss):
    trainees = trainees_actable_by(user=pit_boss)
    double = QueueFilter(profile="casino-double-deck")
    assert queue_next(trainees=trainees, filters=double, after=None) == work["new"].pk
    # After the last one, the first waiting one that is not it (skipped earlier).
    assert queue_next(trainees=trainees, after=work["new"]) == work["old"].pk
    assert queue_next(trainees=trainees, filters=double, after=work["new"]) is None
    # Skip from the page: a link to the next one, nothing written.
    client = client_for(pit_boss)
    page = client.get(
        reverse("pit:grade", args=[work["old"].pk]), {"from": "queue"}
    ).content.decode()
    skip = re.search(r'href="([^"]+)" id="skip"', page).group(1).replace("&amp;", "&")
    assert client.get(skip)["Location"] == (
        f"{reverse('pit:grade', args=[work['new'].pk])}?from=queue"
    )
    assert not Review.objects.exists()


def _names(html: str, user) -> bool:
    """Whether the page names the user: their username as a word (a made-up classmate may
    be a Christina) or their full name."""
    page, name = html.lower(), user.get_full_name().lower()
    return bool(re.search(rf"\b{re.escape(user.username)}\b", page)) or bool(name and name in page)


def test_a_pit_boss_of_another_class_cannot_see_or_act_through_the_queue(work, other_boss):
    client = client_for(other_boss)
    html = client.get(reverse("pit:queue")).content.decode()
    assert _queue_ids(html)[1:] == [work["theirs"].pk]
    assert '<span id="waiting">1</span>' in html
    tina = work["old"].run.attempt.trainee
    assert not _names(html, tina)
    for query in ({"trainee": tina.pk}, {"trainee": "999999"}, {"trainee": "x"}):
        refused = client.get(reverse("pit:queue"), query).content.decode()
        assert "The filter is not applied" in refused
        assert '<span id="waiting">1</span>' in refused
    # Another class's mistake: not found however it is asked for, and nothing is written.
    old = work["old"].pk
    assert client.get(reverse("pit:queue_next"), {"after": old}).status_code == 404
    assert client.get(reverse("pit:queue_next"), {"after": "x"}).status_code == 404
    assert client.get(reverse("pit:grade", args=[old]), {"from": "queue"}).status_code == 404
    posted = client.post(
        reverse("pit:grade_review", args=[old]),
        {"comment": "mine", "from": "queue", "then": "next"},
    )
    assert posted.status_code == 404
    # The next one under a filter naming tina goes back to the queue's refusal.
    response = client.get(reverse("pit:queue_next"), {"trainee": tina.pk})
    assert response.status_code == 302
    assert not _names(client.get(response["Location"]).content.decode(), tina)
    assert not Review.objects.exists()
    # Their dashboard counts their own class's only.
    dashboard = client.get(reverse("pit:dashboard")).content.decode()
    assert '<strong id="waiting">1</strong>' in dashboard


def test_a_trainee_who_is_also_a_pit_boss_never_meets_their_own_work(pit, work, pit_boss, trainee):
    duo = UserFactory(username="duo", roles=["trainee", "pit_boss"])
    pit["mine"].trainees.add(duo)
    pit["mine"].instructors.add(duo)
    own = _mistakes(make_attempt(trainee=duo, answers=[wrong("3.00")], submitted_at=_ago(20)))[0]
    client = client_for(duo)
    html = client.get(reverse("pit:queue")).content.decode()
    assert own.pk not in _queue_ids(html)
    assert _queue_ids(html)[1:] == [work["old"].pk, work["new"].pk]
    assert (
        "The filter is not applied"
        in client.get(reverse("pit:queue"), {"trainee": duo.pk}).content.decode()
    )
    assert client.get(reverse("pit:queue_next"), {"after": own.pk}).status_code == 404
    assert queue_next(trainees=trainees_actable_by(user=duo)) == work["old"].pk
    posted = client.post(
        reverse("pit:grade_review", args=[own.pk]), {"comment": "fine", "from": "queue"}
    )
    assert posted.status_code == 403
    dashboard = client.get(reverse("pit:dashboard")).content.decode()
    assert '<strong id="waiting">2</strong>' in dashboard
    # The other pit boss of the class reviews duo's mistake.
    boss = client_for(pit_boss).get(reverse("pit:queue")).content.decode()
    assert _queue_ids(boss)[0] == own.pk
    assert not Review.objects.exists()


def test_an_administrator_sees_every_class_but_never_themselves(work, admin_user, pit):
    pit["mine"].trainees.add(admin_user)
    own = _mistakes(make_attempt(trainee=admin_user, answers=[wrong("3.00")]))[0]
    html = client_for(admin_user).get(reverse("pit:queue")).content.decode()
    assert _queue_ids(html)[1:] == [work["theirs"].pk, work["old"].pk, work["new"].pk]
    assert own.pk not in _queue_ids(html)


def test_compliance_reads_every_classes_queue_and_count_but_reviews_nothing(
    work, compliance_officer
):
    client = client_for(compliance_officer)
    html = client.get(reverse("pit:queue")).content.decode()
    assert _queue_ids(html) == [work["theirs"].pk, work["old"].pk, work["new"].pk]
    assert "Read-only" in html
    assert 'id="start-reviewing"' not in html
    dashboard = client.get(reverse("pit:dashboard")).content.decode()
    assert '<strong id="waiting">3</strong>' in dashboard
    assert "wait for a pit boss's review" in dashboard
    # A mistake opened from it: read-only, no queue steps.
    page = client.get(reverse("pit:grade", args=[work["old"].pk]), {"from": "queue"})
    assert 'name="comment"' not in page.content.decode()
    posted = client.post(
        reverse("pit:grade_review", args=[work["old"].pk]),
        {"comment": "x", "from": "queue", "then": "next"},
    )
    assert posted.status_code == 403
    assert not Review.objects.exists()


def test_the_dashboard_counts_what_waits_per_trainee_and_links_to_the_queue(
    work, pit_boss, trainee
):
    html = client_for(pit_boss).get(reverse("pit:dashboard")).content.decode()
    assert '<strong id="waiting">2</strong>' in html
    assert f'href="{reverse("pit:queue")}"' in html
    assert f'href="{reverse("pit:queue")}?trainee={trainee.pk}"' in html
    overview = client_for(pit_boss).get(reverse("pit:trainee", args=[trainee.pk]))
    assert '<strong id="waiting">2</strong>' in overview.content.decode()


def test_a_regrade_replaces_what_waits(work, pit_boss, trainee):
    """Only the current run's mistakes wait: a regrade that finds the answer right takes it
    out of the queue (its old grade is not reviewed)."""
    assert set(waiting_reviews(trainees=[trainee.pk]).values_list("pk", flat=True)) == {
        work["old"].pk,
        work["new"].pk,
    }
    regraded = make_attempt(trainee=trainee, answers=[wrong("1.00")], runs=[[RIGHT]])
    assert not waiting_reviews(trainees=[trainee.pk]).filter(run__attempt=regraded).exists()


def test_mark_reviewed_from_the_queue_stays_on_the_mistake_in_the_queue(work, pit_boss):
    response = client_for(pit_boss).post(
        reverse("pit:grade_review", args=[work["new"].pk]), {"comment": "Push", "from": "queue"}
    )
    assert response["Location"] == f"{reverse('pit:grade', args=[work['new'].pk])}?from=queue"


def test_compliance_reads_a_mistake_opened_with_the_queues_address_without_a_queue(
    work, compliance_officer
):
    page = client_for(compliance_officer).get(
        reverse("pit:grade", args=[work["old"].pk]), {"from": "queue"}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("pit:queue") not in html
    assert 'id="skip"' not in html
