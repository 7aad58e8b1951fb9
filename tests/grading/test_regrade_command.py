from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.answered import PLAYER_WINS
from trainer.models import GradingRun, RunTrigger
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def graded(attempt_of):
    def build(**kwargs):
        attempt = attempt_of([PLAYER_WINS], **kwargs)
        grading_run_execute(run_id=grading_request(attempt=attempt).pk)
        return attempt

    return build


def regrade(*args: str) -> str:
    out = StringIO()
    call_command("regrade", *args, stdout=out)
    return out.getvalue()


def regrades() -> list[int]:
    return list(
        GradingRun.objects.filter(trigger=RunTrigger.REGRADE).values_list("attempt_id", flat=True)
    )


def test_it_regrades_one_attempt_by_id_with_the_reason(graded):
    attempt, _other = graded(), graded()
    assert "queued 1 regrade run(s)" in regrade("--attempt", str(attempt.pk), "--reason", "fix")
    run = GradingRun.objects.get(trigger=RunTrigger.REGRADE)
    assert (run.attempt_id, run.number, run.reason) == (attempt.pk, 2, "fix")


def test_it_regrades_every_attempt_with_a_round_under_a_profile(graded):
    first, second = graded(), graded()
    regrade("--profile", "casino-shoe")
    assert sorted(regrades()) == [first.pk, second.pk]
    assert regrade("--profile", "scarne-4deck").startswith("no submitted attempt")


def test_it_regrades_by_drill(graded):
    attempt, _other = graded(), graded()
    regrade("--drill", str(attempt.drill_id))
    assert regrades() == [attempt.pk]


def test_it_regrades_by_submission_dates_including_the_last_day(graded):
    attempt = graded()
    day = attempt.submitted_at.date().isoformat()
    regrade("--from", day, "--to", day)
    assert regrades() == [attempt.pk]


def test_a_dry_run_regrades_nothing(graded):
    graded()
    assert "1 attempt(s) would be regraded" in regrade("--profile", "casino-shoe", "--dry-run")
    assert regrades() == []


def test_it_skips_attempts_never_submitted(graded, attempt_of):
    attempt_of(submitted=False)
    attempt = graded()
    regrade("--profile", "casino-shoe")
    assert regrades() == [attempt.pk]


def test_it_needs_a_filter():
    with pytest.raises(CommandError, match="say which attempts"):
        regrade()


def test_it_names_a_malformed_date():
    with pytest.raises(CommandError, match="not a date"):
        regrade("--from", "yesterday")
