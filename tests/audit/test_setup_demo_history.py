"""The setup_demo_history command: the demo trainee's graded history, made once."""

from __future__ import annotations

import datetime as dt
import io
from random import Random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from audit.certification import CertificationRule
from audit.management.commands import setup_demo_history
from audit.models import Certification
from audit.selectors import grades
from audit.selectors.certificates import State, standing_of
from audit.selectors.pit import TableStanding, certification_overview
from ledger.services.verify import ledger_verify
from teaching.management.commands.setup_demo import DEMO_PASSWORD
from tests.factories import UserFactory, profile_version
from trainer import rules
from trainer.games.blackjack import demo as demo_trainee
from trainer.models import Attempt, Drill, DrillPurpose, Grade, GradingStatus, Mode
from trainer.selectors import visibility
from trainer.selectors.runs import current_run_of
from trainer.services.drills import table_test_create


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
    # The practice left part-way has a test of its own.
    monkeypatch.setattr(setup_demo_history, "LEFT_PART_WAY", None)
    trainee = UserFactory(username="trainee", roles=["trainee"])
    boss = UserFactory(username="pitboss", roles=["pit_boss"])
    # As setup_demo makes it: the sign-off is signed with the demo password.
    boss.set_password(DEMO_PASSWORD)
    boss.save()
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


def _standings(trainee) -> dict[str, object]:
    overview = certification_overview(
        trainee_ids=[trainee.pk], rule=CertificationRule.from_settings()
    )
    return {state.profile: state for state in overview.states[trainee.pk]}


# Each run deals two 50-round table tests: one run serves the whole history's checks.


def test_it_makes_mistakes_to_review_an_expired_certification_and_a_sitting_to_sign(demo):
    trainee, boss = demo
    out = _run()
    attempts = Attempt.objects.filter(trainee=trainee)
    # The history's drills (two here), four table-test sittings (the expired, withdrawn and
    # valid certifications' and the one ready), last month's practice, and Casino's practice
    # and table-test sitting.
    assert attempts.count() == 9
    assert set(attempts.values_list("grading_status", flat=True)) == {GradingStatus.GRADED}
    visible = visibility.trainees_visible_to(user=boss).values("pk")
    assert grades.grades_list(trainees=visible).filter(correct=False).exists()
    assert not Grade.objects.filter(decision__isnull=True).exists()

    expired, withdrawn, withdrawal, valid = Certification.objects.filter(trainee=trainee).order_by(
        "signed_at", "pk"
    )
    # At the expired one's table: a certification later withdrawn, then one valid now, each
    # with its certificate for the verify page.
    assert withdrawal.withdrawn
    assert withdrawal.corrects == withdrawn
    assert valid.profile == withdrawn.profile == expired.profile
    assert valid.expires_at > timezone.now()
    assert standing_of(valid.certificate).state == State.VALID
    assert standing_of(withdrawn.certificate).state == State.WITHDRAWN
    assert standing_of(expired.certificate).state == State.EXPIRED
    assert expired.signed_by == boss
    assert expired.signed_at < timezone.now() - dt.timedelta(days=365)
    assert expired.expires_at < timezone.now()
    assert expired.attempt.submitted_at < expired.signed_at
    shoe_test = Drill.objects.get(certifies__name="casino-shoe", purpose=DrillPurpose.EXAM)
    standings = _standings(trainee)
    assert standings[expired.profile.title].standing == TableStanding.CERTIFIED
    ready = standings["Six-deck shoe"]
    assert ready.standing == TableStanding.PASSED
    assert Attempt.objects.get(pk=ready.ready).drill == shoe_test
    assert "expired" in out
    assert f"exam #{ready.ready}" in out
    assert ledger_verify().ok
    # The history's drills are the demo trainee's own: no other trainee practises them.
    history = Drill.objects.filter(title__in=["Short practice", "Short exam"])
    assert set(history.values_list("made_for", flat=True)) == {trainee.pk}

    before = (Attempt.objects.count(), Certification.objects.count())
    assert "nothing to do" in _run()
    assert (Attempt.objects.count(), Certification.objects.count()) == before


def test_it_sits_the_table_test_setup_demo_made(demo):
    trainee, boss = demo
    made = table_test_create(profile_version=profile_version("casino-shoe"), user=boss)
    _run()
    assert Drill.objects.filter(certifies__name="casino-shoe").get() == made
    assert Attempt.objects.filter(trainee=trainee, drill=made).count() == 1


def test_without_the_demo_password_it_signs_nothing_and_says_so(demo):
    _, boss = demo
    boss.set_password("changed-since")
    boss.save()
    out = _run()
    assert not Certification.objects.exists()
    assert "demo password" in out


def test_it_assigns_the_trainee_a_refresher_once(demo):
    from audit.models import Refresher

    trainee, boss = demo
    _run()
    refresher = Refresher.objects.get(trainee=trainee)
    assert refresher.assignment.assigned_by == boss
    assert refresher.assignment.trainee == trainee
    assert refresher.skills
    _run()
    assert Refresher.objects.filter(trainee=trainee).count() == 1


def test_its_chip_work_has_chip_mistakes_apart_from_money_mistakes(demo, monkeypatch):
    monkeypatch.setattr(
        setup_demo_history,
        "HISTORY",
        [("Short chip work", Mode.PRACTICE, 6, 0.0, ["pay-in-chips", "colour-up", "change"])],
    )
    _run()
    chip_grades = Grade.objects.filter(
        run__attempt__drill__title="Short chip work", kind__in=list(rules.CHIP_KINDS)
    )
    categories = set(chip_grades.values_list("category", flat=True))
    assert "wrong_chips" in categories
    assert categories <= {"wrong_chips", "underpay", "overpay"}


@pytest.mark.parametrize("seed", range(20))
def test_a_chip_slip_is_a_wrong_stack(seed):
    expected = {"action": "pay", "amount": "37.50", "chips": ["25", "5", "5", "2.50"]}
    slip = demo_trainee.slip({"kind": "pay_in_chips", "expected": expected}, Random(seed))
    assert slip["action"] == "pay"
    assert sorted(slip["chips"]) != sorted(expected["chips"])


def test_a_practice_left_after_its_first_round_counts_the_rest_apart(demo, monkeypatch):
    from trainer.selectors.attempts import attempt_results

    trainee, _ = demo
    monkeypatch.setattr(
        setup_demo_history, "LEFT_PART_WAY", ("Left part-way", 3, ["double", "split"])
    )
    _run()
    attempt = Attempt.objects.get(trainee=trainee, drill__title="Left part-way")
    results = attempt_results(attempt=attempt, user=trainee)
    assert results.graded
    shown = {grade.item.position for grade in results.grades}
    assert shown == {1}
    assert results.not_reached > 0
    assert results.not_reached + len(results.grades) == results.run.questions
    # Only the questions of round 1 that exercise its skill count for any skill.
    assert sum(row.questions for row in results.skills) <= len(results.grades)
    assert "nothing to do" in _run()


def test_it_gives_casino_rulings_with_mistakes_in_points_and_a_failed_table_test(demo):
    trainee, _boss = demo
    out = _run()
    practice = Attempt.objects.get(trainee=trainee, drill__title="Demo history: Casino rulings")
    assert practice.mode == Mode.PRACTICE
    assert practice.grading_status == GradingStatus.GRADED
    assert practice.drill.profile_version.profile.name == "scarne-casino"
    assert practice.drill.made_for == trainee
    wrong = Grade.objects.filter(run__attempt=practice, correct=False)
    categories = set(wrong.values_list("category", flat=True))
    # A score's line miscounted (its cost the points missed), the right call for the wrong reason.
    assert {"misscored_line", "wrong_reason"} <= categories, categories
    assert all(grade.points_diff is not None and grade.points_diff > 0 for grade in wrong)
    assert Grade.objects.filter(run__attempt=practice, correct=True).exists()
    kinds = set(Grade.objects.filter(run__attempt=practice).values_list("kind", flat=True))
    assert {"is_legal", "score_hand"} <= kinds

    sitting = Attempt.objects.get(trainee=trainee, drill__certifies__name="scarne-casino")
    assert sitting.mode == Mode.EXAM
    assert sitting.drill.purpose == DrillPurpose.EXAM
    score = current_run_of(attempt=sitting).score
    assert score is not None
    assert 50 < score < sitting.drill.pass_mark  # short of the mark: its mistakes to review
    assert _standings(trainee)["Scarne's Casino"].standing == TableStanding.NOT_PASSED
    assert "Demo history: Casino rulings: practice #" in out
    assert "Table test: Scarne's Casino: exam #" in out

    # Every row vouched by the ledger: the audit log verifies.
    verified = io.StringIO()
    call_command("verify_audit_log", stdout=verified)
    assert "problem:" not in verified.getvalue()
    assert ledger_verify().ok

    before = Attempt.objects.count()
    assert "nothing to do" in _run()
    assert Attempt.objects.count() == before


@pytest.mark.parametrize("seed", range(20))
def test_a_casino_slip_on_an_illegal_play_is_the_wrong_call_or_the_wrong_reason(seed):
    from trainer.games.casino import demo as casino_demo

    question = {"kind": "is_legal", "expected": {"legal": False, "reason": "wrong_sum"}}
    slip = casino_demo.slip(question, Random(seed))
    assert slip != {"legal": False, "reason": "wrong_sum"}
    assert slip == {"legal": True} or (slip["legal"] is False and slip["reason"] != "wrong_sum")
