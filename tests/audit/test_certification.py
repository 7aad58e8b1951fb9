"""Certification sign-off rules (audit.services.reviews.certification_sign with
audit.certification) and each trainee's standing per table (audit.selectors.pit)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from audit.certification import CertificationRule, add_months
from audit.models import Certification
from audit.selectors.pit import TableStanding, certification_overview
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
)
from core.errors import ProductError
from core.roles import Role
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.verify import ledger_verify
from tests.audit.factories import table_test
from tests.factories import PASSWORD
from tests.graded import RIGHT, Answer, make_attempt, signing_request, wrong
from trainer.models import Drill, DrillPurpose, Mode, RuleProfile


@pytest.fixture
def shoe():
    return RuleProfile.objects.get(name="casino-shoe")


@pytest.fixture
def shoe_test(db):
    return table_test("casino-shoe")


def sit(trainee, drill, answers=None, **kwargs):
    """A graded sitting of ``drill``: 50 right answers in 3 s each unless told otherwise."""
    return make_attempt(trainee=trainee, answers=answers or [RIGHT] * 50, drill=drill, **kwargs)


def sign(trainee, attempt, signer, profile, **kwargs):
    return certification_sign(
        request=signing_request(),
        trainee=trainee,
        profile=profile,
        attempt=attempt,
        signer=signer,
        password=kwargs.pop("password", PASSWORD),
        statement=kwargs.pop("statement", "Dealt the shoe game to standard."),
        **kwargs,
    )


def refusal(call) -> ProductError:
    with pytest.raises(ProductError) as caught:
        call()
    assert not Certification.objects.exists(), "a refused sign-off writes nothing"
    assert not LedgerEntry.objects.filter(event=Event.CERTIFICATION_SIGNED).exists()
    return caught.value


# Signing.


def test_a_sitting_of_the_profiles_table_test_is_signed_with_its_expiry_and_role(
    pit, trainee, pit_boss, shoe, shoe_test, settings
):
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 12
    exam = sit(trainee, shoe_test)
    cert = sign(trainee, exam, pit_boss, shoe)
    assert cert.expires_at == add_months(cert.signed_at, 12)
    assert cert.expires_at.date() == cert.signed_at.date().replace(year=cert.signed_at.year + 1)
    assert cert.signer_role == Role.PIT_BOSS
    assert (cert.override_reason, cert.flags_overridden, cert.acknowledged) == ("", [], [])
    entry = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED)
    assert entry.payload["expires_at"].startswith(f"{cert.expires_at:%Y-%m-%dT%H:%M:%S}")
    assert entry.payload["signer_role"] == "pit_boss"
    assert ledger_verify().ok


def test_the_validity_is_a_setting(pit, trainee, pit_boss, shoe, shoe_test, settings):
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 6
    cert = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    assert cert.expires_at == add_months(cert.signed_at, 6)


def test_a_month_later_is_the_months_last_day_when_it_is_shorter():
    moment = dt.datetime(2027, 1, 31, 9, 30, tzinfo=dt.UTC)
    assert add_months(moment, 1) == dt.datetime(2027, 2, 28, 9, 30, tzinfo=dt.UTC)
    assert add_months(moment, 13) == dt.datetime(2028, 2, 29, 9, 30, tzinfo=dt.UTC)
    assert add_months(moment, 12) == dt.datetime(2028, 1, 31, 9, 30, tzinfo=dt.UTC)


def test_an_admin_signs_as_an_administrator(pit, trainee, admin_user, shoe, shoe_test):
    cert = sign(trainee, sit(trainee, shoe_test), admin_user, shoe)
    assert cert.signer_role == Role.ADMIN


# The sitting must be the profile's table test.


def test_an_exam_on_a_practice_drill_is_refused(pit, trainee, pit_boss, shoe):
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM)
    error = refusal(lambda: sign(trainee, exam, pit_boss, shoe))
    assert error.status == 409
    assert "is a practice drill, not a sealed exam" in error.message


def test_a_sealed_exam_that_is_no_tables_test_is_refused(pit, trainee, pit_boss, shoe):
    drill = table_test("casino-shoe", certifies=None, title="Mixed exam")
    error = refusal(lambda: sign(trainee, sit(trainee, drill), pit_boss, shoe))
    assert "“Mixed exam” is not a table test for any rule profile" in error.message


def test_another_tables_test_cannot_certify_this_table(pit, trainee, pit_boss):
    double = table_test("casino-double-deck")
    shoe = RuleProfile.objects.get(name="casino-shoe")
    error = refusal(lambda: sign(trainee, sit(trainee, double), pit_boss, shoe))
    assert f"“{double.title}” is the table test for Double deck, not for Six-deck shoe" in (
        error.message
    )
    assert "dealt under another table's rules, not Six-deck shoe" in error.message


def test_a_table_test_that_does_not_cover_its_table_never_certifies(
    pit, trainee, pit_boss, shoe, shoe_test
):
    # Altered after it was made (the admin can): the blueprint is checked at every sign-off.
    minimums = {k: v for k, v in shoe_test.skill_minimums.items() if k != "surrender"}
    Drill.objects.filter(pk=shoe_test.pk).update(skill_minimums=minimums)
    error = refusal(lambda: sign(trainee, sit(trainee, shoe_test), pit_boss, shoe))
    assert "does not deal enough rounds of: Late surrender" in error.message


def test_a_failed_sitting_is_refused(pit, trainee, pit_boss, shoe, shoe_test):
    failed = sit(trainee, shoe_test, [RIGHT] * 40 + [wrong("5.00")] * 10)
    error = refusal(lambda: sign(trainee, failed, pit_boss, shoe))
    assert "the trainee did not pass it" in error.message
    assert "under the pass mark 95%" in error.message


def test_the_existing_checks_still_hold(pit, trainee, pit_boss, shoe, shoe_test):
    slow = sit(trainee, shoe_test, [Answer(response_ms=11_000)] * 50)
    assert "not under 10 s" in refusal(lambda: sign(trainee, slow, pit_boss, shoe)).message
    short = sit(trainee, shoe_test, [RIGHT] * 49)
    assert "fewer than 50" in refusal(lambda: sign(trainee, short, pit_boss, shoe)).message


def test_every_reason_is_named_at_once(pit, trainee, pit_boss, shoe):
    exam = make_attempt(trainee=trainee, answers=[wrong("5.00")] * 49)
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    message = refusal(lambda: sign(trainee, exam, pit_boss, shoe)).message
    assert message.startswith("nothing was signed: ")
    for reason in ("practice drill", "did not pass", "fewer than 50", "retraining flag"):
        assert reason in message


# Who signs.


def test_a_compliance_officer_is_told_they_never_sign(pit, trainee, compliance_officer, shoe):
    exam = sit(trainee, table_test())
    error = refusal(lambda: sign(trainee, exam, compliance_officer, shoe))
    assert error.status == 403
    assert "compliance officers see certifications but never sign them" in error.message


def test_a_trainee_cannot_sign(pit, trainee, other_trainee, shoe):
    exam = sit(trainee, table_test())
    error = refusal(lambda: sign(trainee, exam, other_trainee, shoe))
    assert error.status == 403


def test_nobody_signs_their_own_certification(pit, pit_boss, shoe):
    # A pit boss who sat the table test in the class they teach.
    pit["mine"].trainees.add(pit_boss)
    exam = sit(pit_boss, table_test())
    error = refusal(lambda: sign(pit_boss, exam, pit_boss, shoe))
    assert error.status == 403
    assert "nobody signs their own certification" in error.message


def test_nobody_withdraws_their_own_certification(pit, pit_boss, admin_user, shoe):
    pit["mine"].trainees.add(pit_boss)
    cert = sign(pit_boss, sit(pit_boss, table_test()), admin_user, shoe)
    with pytest.raises(ProductError, match="nobody signs their own"):
        certification_withdraw(
            request=signing_request(),
            certification=cert,
            signer=pit_boss,
            password=PASSWORD,
            statement="mine",
        )


# Retraining flags.


def test_a_flag_in_force_needs_a_written_override(pit, trainee, pit_boss, shoe, shoe_test):
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Slow on 6:5")
    exam = sit(trainee, shoe_test)
    error = refusal(lambda: sign(trainee, exam, pit_boss, shoe))
    assert error.field == "override_reason"
    assert "retraining flag" in error.message
    assert "“Slow on 6:5”" in error.message
    assert "write why you sign regardless" in error.message
    assert refusal(lambda: sign(trainee, exam, pit_boss, shoe, override_reason="   ")).field == (
        "override_reason"
    )

    cert = sign(
        trainee, exam, pit_boss, shoe, override_reason="Retrained on 6:5 since; not this game"
    )
    assert cert.override_reason == "Retrained on 6:5 since; not this game"
    assert cert.flags_overridden == [flag.pk]
    payload = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED).payload
    assert payload["override_reason"] == cert.override_reason
    assert payload["flags_overridden"] == [flag.pk]


def test_a_lifted_flag_needs_no_override(pit, trainee, pit_boss, shoe, shoe_test):
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Fixed", active=False, corrects=flag
    )
    cert = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe, override_reason="ignored")
    assert (cert.override_reason, cert.flags_overridden) == ("", [])


# Answers faster than plausible.


def test_fast_answers_are_a_warning_the_signer_must_acknowledge(
    pit, trainee, pit_boss, shoe, shoe_test
):
    exam = sit(trainee, shoe_test, [Answer(response_ms=900)] * 50)
    error = refusal(lambda: sign(trainee, exam, pit_boss, shoe))
    assert error.field == "acknowledge_fast"
    assert "mean of 0.90 s a question, faster than the plausible floor of 1.5 s" in error.message
    assert "tick the box" in error.message

    cert = sign(trainee, exam, pit_boss, shoe, fast_acknowledged=True)
    assert cert.acknowledged == [
        "the answers came at a mean of 0.90 s a question, faster than the plausible floor of 1.5 s"
    ]
    payload = LedgerEntry.objects.get(event=Event.CERTIFICATION_SIGNED).payload
    assert payload["acknowledged"] == cert.acknowledged


def test_the_plausible_floor_is_a_setting(pit, trainee, pit_boss, shoe, shoe_test, settings):
    settings.SHOESCHOOL_CERT_MIN_MEAN_SECONDS = "3.5"
    exam = sit(trainee, shoe_test)  # 3 s a question
    assert refusal(lambda: sign(trainee, exam, pit_boss, shoe)).field == "acknowledge_fast"
    settings.SHOESCHOOL_CERT_MIN_MEAN_SECONDS = "1.5"
    assert sign(trainee, exam, pit_boss, shoe).acknowledged == []


def test_the_rule_reads_the_new_settings(settings):
    settings.SHOESCHOOL_CERT_MIN_MEAN_SECONDS = "2"
    settings.SHOESCHOOL_CERT_VALID_MONTHS = 24
    rule = CertificationRule.from_settings()
    assert (rule.min_mean_seconds, rule.valid_months) == (Decimal(2), 24)


# One sitting, one certification.


def test_a_sitting_backs_one_certification_only(pit, trainee, pit_boss, shoe, shoe_test):
    exam = sit(trainee, shoe_test)
    first = sign(trainee, exam, pit_boss, shoe)
    with pytest.raises(ProductError, match="already backed the certification") as caught:
        sign(trainee, exam, pit_boss, shoe)
    assert first.signer_full_name in caught.value.message
    assert Certification.objects.count() == 1


def test_a_withdrawn_certifications_sitting_never_backs_another(
    pit, trainee, pit_boss, shoe, shoe_test
):
    exam = sit(trainee, shoe_test)
    cert = sign(trainee, exam, pit_boss, shoe)
    certification_withdraw(
        request=signing_request(),
        certification=cert,
        signer=pit_boss,
        password=PASSWORD,
        statement="x",
    )
    with pytest.raises(ProductError, match=r"withdrawn on .*sits the table test again"):
        sign(trainee, exam, pit_boss, shoe)


def test_a_sitting_older_than_the_tables_last_signature_is_refused(
    pit, trainee, pit_boss, shoe, shoe_test
):
    older = sit(trainee, shoe_test, submitted_at=timezone.now() - dt.timedelta(days=3))
    sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    with pytest.raises(ProductError, match=r"it was sat before .* signed a certification"):
        sign(trainee, older, pit_boss, shoe)


def test_a_newer_sitting_renews_a_certification(pit, trainee, pit_boss, shoe, shoe_test):
    first = sign(
        trainee,
        sit(trainee, shoe_test, submitted_at=timezone.now() - dt.timedelta(days=300)),
        pit_boss,
        shoe,
    )
    Certification.objects.filter(pk=first.pk).update(
        signed_at=timezone.now() - dt.timedelta(days=299)
    )
    renewal = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    assert renewal.expires_at > first.expires_at


# Standing per table.


def standing(trainee, profile="casino-shoe"):
    overview = certification_overview(
        trainee_ids=[trainee.pk], rule=CertificationRule.from_settings()
    )
    found = {s.profile_id: s for s in overview.states[trainee.pk]}
    return found.get(RuleProfile.objects.get(name=profile).pk)


def test_never_sat_has_no_standing(pit, trainee):
    assert standing(trainee) is None


def test_a_failed_sitting_is_not_passed(pit, trainee, shoe_test):
    exam = sit(trainee, shoe_test, [wrong("1.00")] * 50)
    state = standing(trainee)
    assert (state.standing, state.when, state.ready) == (
        TableStanding.NOT_PASSED,
        exam.submitted_at,
        None,
    )


def test_a_qualifying_sitting_is_passed_not_signed_until_signed(
    pit, trainee, pit_boss, shoe, shoe_test
):
    exam = sit(trainee, shoe_test)
    assert (standing(trainee).standing, standing(trainee).ready) == (TableStanding.PASSED, exam.pk)
    cert = sign(trainee, exam, pit_boss, shoe)
    state = standing(trainee)
    assert (state.standing, state.when, state.ready) == (
        TableStanding.CERTIFIED,
        cert.expires_at,
        None,
    )


def test_a_flag_or_fast_answers_do_not_stop_a_sitting_being_ready(
    pit, trainee, pit_boss, shoe_test
):
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    exam = sit(trainee, shoe_test, [Answer(response_ms=800)] * 50)
    assert standing(trainee).ready == exam.pk


def test_a_certification_near_its_expiry_is_expiring_then_expired(
    pit, trainee, pit_boss, shoe, shoe_test
):
    cert = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    soon = timezone.now() + dt.timedelta(days=29)
    Certification.objects.filter(pk=cert.pk).update(expires_at=soon)
    assert (standing(trainee).standing, standing(trainee).when) == (TableStanding.EXPIRING, soon)
    past = timezone.now() - dt.timedelta(days=1)
    Certification.objects.filter(pk=cert.pk).update(
        signed_at=past - dt.timedelta(days=365), expires_at=past
    )
    assert (standing(trainee).standing, standing(trainee).when) == (TableStanding.EXPIRED, past)


def test_a_withdrawn_certification_offers_no_sitting(pit, trainee, pit_boss, shoe, shoe_test):
    cert = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    withdrawal = certification_withdraw(
        request=signing_request(),
        certification=cert,
        signer=pit_boss,
        password=PASSWORD,
        statement="Short-paid twice",
    )
    state = standing(trainee)
    assert (state.standing, state.when, state.ready) == (
        TableStanding.WITHDRAWN,
        withdrawal.signed_at,
        None,
    )
    newer = sit(trainee, shoe_test, submitted_at=timezone.now() + dt.timedelta(seconds=1))
    assert (standing(trainee).standing, standing(trainee).ready) == (TableStanding.PASSED, newer.pk)


def test_an_expired_certification_is_renewed_by_a_newer_sitting(
    pit, trainee, pit_boss, shoe, shoe_test
):
    cert = sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    Certification.objects.filter(pk=cert.pk).update(
        signed_at=timezone.now() - dt.timedelta(days=400),
        expires_at=timezone.now() - dt.timedelta(days=35),
    )
    newer = sit(trainee, shoe_test)
    assert (standing(trainee).standing, standing(trainee).ready) == (TableStanding.PASSED, newer.pk)


def test_a_certified_trainees_newer_sitting_is_ready_to_renew(
    pit, trainee, pit_boss, shoe, shoe_test
):
    sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    newer = sit(trainee, shoe_test, submitted_at=timezone.now() + dt.timedelta(seconds=1))
    assert (standing(trainee).standing, standing(trainee).ready) == (
        TableStanding.CERTIFIED,
        newer.pk,
    )


def test_each_table_has_its_own_standing(pit, trainee, pit_boss, shoe, shoe_test):
    sign(trainee, sit(trainee, shoe_test), pit_boss, shoe)
    sit(trainee, table_test("casino-double-deck"), [wrong("1.00")] * 50)
    assert standing(trainee).standing == TableStanding.CERTIFIED
    assert standing(trainee, "casino-double-deck").standing == TableStanding.NOT_PASSED


def test_the_drill_purpose_is_read_fresh_not_from_the_cache(pit, trainee, shoe_test):
    sit(trainee, shoe_test)
    assert standing(trainee).standing == TableStanding.PASSED
    Drill.objects.filter(pk=shoe_test.pk).update(purpose=DrillPurpose.PRACTICE)
    assert standing(trainee).standing == TableStanding.NOT_PASSED
