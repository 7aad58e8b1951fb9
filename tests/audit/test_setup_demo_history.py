"""The setup_demo_history command: the demo trainee's graded history, made once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.management.commands import setup_demo_history
from audit.services.ledger import ledger_verify
from tests.factories import UserFactory
from trainer.models import Attempt, Grade, GradingStatus, Mode
from trainer.selectors import stats


@pytest.fixture
def demo(db, settings, monkeypatch):
    settings.ENVIRONMENT = "development"
    # Two short drills instead of the demo's four: the same path, a fraction of the time.
    monkeypatch.setattr(
        setup_demo_history,
        "HISTORY",
        [
            ("Short practice", Mode.PRACTICE, 3, 0.5, ["natural-3to2"]),
            ("Short exam", Mode.EXAM, 2, 0.5, ["dealer-bust"]),
        ],
    )
    trainee = UserFactory(username="trainee", roles=["trainee"])
    boss = UserFactory(username="pitboss", roles=["pit_boss"])
    return trainee, boss


def _run() -> str:
    out = io.StringIO()
    call_command("setup_demo_history", stdout=out)
    return out.getvalue()


def test_it_refuses_outside_development(db, settings):
    settings.ENVIRONMENT = "production"
    with pytest.raises(CommandError, match="only in development"):
        _run()


def test_it_needs_the_demo_accounts(db, settings):
    settings.ENVIRONMENT = "development"
    with pytest.raises(CommandError, match="setup_demo"):
        _run()


def test_it_gives_the_pit_boss_graded_mistakes_to_review(demo):
    trainee, boss = demo
    _run()
    attempts = Attempt.objects.filter(trainee=trainee)
    assert attempts.count() == 2
    assert set(attempts.values_list("grading_status", flat=True)) == {GradingStatus.GRADED}
    grades = stats.grades_for_viewer(user=boss)
    assert grades.filter(correct=False).exists()
    assert not Grade.objects.filter(decision__isnull=True).exists()
    assert ledger_verify().ok


def test_running_it_again_changes_nothing(demo):
    _run()
    before = Attempt.objects.count()
    assert "nothing to do" in _run()
    assert Attempt.objects.count() == before
