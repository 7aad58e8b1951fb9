"""Reviews, retraining flags and certification sign-offs (audit.services.reviews)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import Certification, RetrainingFlag, Review
from audit.selectors.evidence import AttemptEvidence
from audit.services.reviews import (
    CertificationRule,
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
    review_create,
)
from core.errors import ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.factories import table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, make_attempt, signing_request, wrong
from trainer.models import Grade, Mode, RuleProfile


def _mistake(trainee) -> Grade:
    attempt = make_attempt(trainee=trainee, answers=[RIGHT, wrong("5.00")])
    return Grade.objects.get(run__attempt=attempt, correct=False)


def _evidence(**changes) -> AttemptEvidence:
    base = {
        "attempt_id": 1,
        "run_id": 1,
        "trainee_id": 1,
        "mode": "exam",
        "passed": True,
        "score": Decimal("96.00"),
        "rounds": 50,
        "questions": 50,
        "correct": 48,
        "mean_ms": 4000.0,
        "profiles": ("casino-shoe",),
        "graded_at": None,
    }
    return AttemptEvidence(**{**base, **changes})


def sign(trainee, attempt, signer, profile, *, password=PASSWORD, statement="x"):
    """certification_sign with the signer's own password, unless another is given."""
    return certification_sign(
        trainee=trainee,
        profile=profile,
        attempt=attempt,
        signer=signer,
        password=password,
        statement=statement,
        request=signing_request(),
    )


# The certification rule: no database.


def test_the_rule_accepts_an_exam_that_meets_every_condition():
    assert CertificationRule().shortfalls(_evidence(), profile="casino-shoe") == []


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"mode": "practice"}, "not an exam"),
        ({"passed": False}, "did not pass"),
        ({"score": Decimal("94.99")}, "under the pass mark"),
        ({"rounds": 49}, "fewer than 50"),
        ({"mean_ms": 10000.0}, "not under 10"),
        ({"mean_ms": None}, "not under 10"),
        ({"profiles": ("casino-shoe", "scarne-4deck")}, "mixes the rules of 2 tables"),
        ({"profiles": ("scarne-4deck",)}, "another table's rules, not casino-shoe"),
    ],
)
def test_the_rule_names_each_shortfall(changes, reason):
    shortfalls = CertificationRule().shortfalls(_evidence(**changes), profile="casino-shoe")
    assert len(shortfalls) == 1
    assert reason in shortfalls[0]


def test_the_rule_reads_its_figures_from_settings(settings):
    settings.SHOESCHOOL_CERT_PASS_MARK = "90"
    settings.SHOESCHOOL_CERT_MIN_SCENARIOS = 20
    rule = CertificationRule.from_settings()
    assert rule.pass_mark == Decimal("90")
    assert rule.min_scenarios == 20
    assert rule.shortfalls(_evidence(score=Decimal(91), rounds=20), profile="casino-shoe") == []


# Reviews.


def test_a_pit_boss_reviews_a_mistake_of_their_trainee_with_a_ledger_entry(pit, trainee, pit_boss):
    grade = _mistake(trainee)
    review = review_create(grade=grade, reviewer=pit_boss, comment="  Count the 3:2 again.  ")
    assert review.comment == "Count the 3:2 again."
    entry = LedgerEntry.objects.get(event=Event.REVIEW_RECORDED)
    assert entry.subject_id == str(grade.pk)
    assert entry.actor_id == pit_boss.pk
    assert entry.payload["review_id"] == review.pk
    assert ledger_verify().ok


def test_a_correction_is_a_new_review_pointing_at_the_old_one(pit, trainee, pit_boss):
    grade = _mistake(trainee)
    first = review_create(grade=grade, reviewer=pit_boss, comment="Overpaid by 5")
    second = review_create(grade=grade, reviewer=pit_boss, comment="It was 5.00", corrects=first)
    first.refresh_from_db()
    assert first.comment == "Overpaid by 5"
    assert second.corrects == first
    assert Review.objects.count() == 2


def test_a_correction_of_another_mistakes_review_is_refused(pit, trainee, pit_boss):
    grade, other = _mistake(trainee), _mistake(trainee)
    first = review_create(grade=grade, reviewer=pit_boss, comment="x")
    with pytest.raises(ProductError, match="same mistake"):
        review_create(grade=other, reviewer=pit_boss, comment="y", corrects=first)


def test_a_pit_boss_of_another_class_cannot_review(pit, trainee, other_boss):
    grade = _mistake(trainee)
    with pytest.raises(ProductError) as caught:
        review_create(grade=grade, reviewer=other_boss, comment="not mine")
    assert caught.value.status == 403
    assert not Review.objects.exists()
    assert not LedgerEntry.objects.exclude(event=Event.VOUCHED_BACKFILLED).exists()


def test_compliance_cannot_review_but_an_admin_can(pit, trainee, compliance_officer, admin_user):
    grade = _mistake(trainee)
    with pytest.raises(ProductError):
        review_create(grade=grade, reviewer=compliance_officer, comment="read-only")
    assert review_create(grade=grade, reviewer=admin_user, comment="admin looked").pk


def test_a_right_answer_is_not_reviewed(pit, trainee, pit_boss):
    attempt = make_attempt(trainee=trainee, answers=[RIGHT])
    grade = Grade.objects.get(run__attempt=attempt)
    with pytest.raises(ProductError, match="only mistakes"):
        review_create(grade=grade, reviewer=pit_boss, comment="fine")


def test_a_grade_of_a_replaced_run_is_not_reviewed(pit, trainee, pit_boss):
    attempt = make_attempt(trainee=trainee, answers=[wrong("5.00")], runs=[[RIGHT]])
    old = Grade.objects.get(run__attempt=attempt, run__number=1)
    with pytest.raises(ProductError, match="regrade"):
        review_create(grade=old, reviewer=pit_boss, comment="stale")


def test_an_empty_comment_is_refused_by_name(pit, trainee, pit_boss):
    with pytest.raises(ProductError) as caught:
        review_create(grade=_mistake(trainee), reviewer=pit_boss, comment="   ")
    assert caught.value.field == "comment"


# Retraining flags.


def test_a_flag_and_its_lifting_are_two_entries(pit, trainee, pit_boss):
    flag = retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Rounding", skills=["rounding"]
    )
    lifted = retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Fixed", active=False, corrects=flag
    )
    assert (flag.active, lifted.active, lifted.corrects) == (True, False, flag)
    assert LedgerEntry.objects.filter(event=Event.RETRAINING_FLAGGED).count() == 2


def test_lifting_must_name_the_flag(pit, trainee, pit_boss):
    with pytest.raises(ProductError, match="name the flag"):
        retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="x", active=False)


def test_an_unknown_skill_is_refused(pit, trainee, pit_boss):
    with pytest.raises(ProductError, match="unknown skill: juggling"):
        retraining_flag_create(
            trainee=trainee, flagged_by=pit_boss, reason="x", skills=["juggling"]
        )
    assert not RetrainingFlag.objects.exists()


def test_another_classes_pit_boss_cannot_flag(pit, trainee, other_boss):
    with pytest.raises(ProductError):
        retraining_flag_create(trainee=trainee, flagged_by=other_boss, reason="x")


# Certification.


@pytest.fixture
def exam(pit, trainee):
    return make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())


@pytest.fixture
def shoe():
    return RuleProfile.objects.get(name="casino-shoe")


def test_a_signature_records_the_full_name_time_statement_and_evidence(
    exam, trainee, pit_boss, shoe
):
    cert = certification_sign(
        trainee=trainee,
        profile=shoe,
        attempt=exam,
        signer=pit_boss,
        password=PASSWORD,
        statement="Ready for the shoe game.",
        request=signing_request(),
    )
    assert cert.signer_full_name == f"{pit_boss.first_name} {pit_boss.last_name}"
    assert cert.signed_at is not None
    assert cert.statement == "Ready for the shoe game."
    assert cert.evidence["attempt_id"] == exam.pk
    assert cert.evidence["score"] == "100.00"
    assert cert.evidence["rounds"] == 50
    assert cert.evidence["run_id"] == exam.grading_runs.get().pk
    entry = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED)
    assert entry.payload["signer_full_name"] == cert.signer_full_name
    assert entry.payload["evidence"]["attempt_id"] == exam.pk


def test_a_wrong_password_signs_nothing(exam, trainee, pit_boss, shoe, caplog):
    with pytest.raises(ProductError) as caught:
        sign(trainee, exam, pit_boss, shoe, password="guess")
    assert caught.value.field == "password"
    assert not Certification.objects.exists()
    assert not LedgerEntry.objects.exclude(event=Event.VOUCHED_BACKFILLED).exists()
    assert "failed sign-off password" in caplog.text


def test_a_signer_without_a_full_name_is_refused(exam, trainee, pit_boss, shoe):
    pit_boss.last_name = ""
    pit_boss.save()
    with pytest.raises(ProductError, match="never initials"):
        sign(trainee, exam, pit_boss, shoe)
    assert not Certification.objects.exists()


def test_an_exam_short_of_the_rule_is_not_signed(pit, trainee, pit_boss, shoe):
    short = make_attempt(trainee=trainee, answers=[RIGHT] * 49)
    with pytest.raises(ProductError, match="fewer than 50") as caught:
        sign(trainee, short, pit_boss, shoe)
    assert caught.value.status == 409
    assert not Certification.objects.exists()


def test_another_trainees_attempt_is_not_found(exam, other_trainee, pit, shoe):
    boss = pit["other_boss"]
    with pytest.raises(ProductError) as caught:
        sign(other_trainee, exam, boss, shoe)
    assert caught.value.status == 404


def test_a_pit_boss_of_another_class_cannot_sign(exam, trainee, other_boss, shoe):
    with pytest.raises(ProductError) as caught:
        sign(trainee, exam, other_boss, shoe)
    assert caught.value.status == 403


def test_a_withdrawal_is_a_new_signed_row_pointing_back(exam, trainee, pit_boss, shoe):
    cert = sign(trainee, exam, pit_boss, shoe, statement="ok")
    withdrawal = certification_withdraw(
        certification=cert,
        signer=pit_boss,
        password=PASSWORD,
        statement="Dealt short twice",
        request=signing_request(),
    )
    assert (withdrawal.withdrawn, withdrawal.corrects) == (True, cert)
    cert.refresh_from_db()
    assert cert.withdrawn is False
    with pytest.raises(ProductError, match="already withdrawn"):
        certification_withdraw(
            certification=cert,
            signer=pit_boss,
            password=PASSWORD,
            statement="again",
            request=signing_request(),
        )
    assert LedgerEntry.objects.filter(event=Event.CERTIFICATION_SIGNED).count() == 2


def test_a_withdrawal_needs_the_password_too(exam, trainee, pit_boss, shoe):
    cert = sign(trainee, exam, pit_boss, shoe, statement="ok")
    with pytest.raises(ProductError, match="password"):
        certification_withdraw(
            certification=cert,
            signer=pit_boss,
            password="",
            statement="x",
            request=signing_request(),
        )
    assert Certification.objects.count() == 1


def test_a_fresh_user_without_names_cannot_sign(exam, trainee, pit, shoe):
    nameless = UserFactory(username="nameless", roles=["pit_boss"], first_name="", last_name="")
    pit["mine"].instructors.add(nameless)
    with pytest.raises(ProductError, match="full name"):
        sign(trainee, exam, nameless, shoe)
