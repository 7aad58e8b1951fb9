"""Rows the ledger vouches for (#23, finding 2): grades, runs, attempts' results,
certifications, flags, refreshers and reviews edited, inserted or deleted in the database
behind the services are named by verify_audit_log and the compliance report's verification
(table and row), refused by a sign-off; a stored report is checked against the sha256 in
the ledger, not its row's. Run on SQLite and, with DATABASE_URL set, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from audit.models import Certification, ComplianceReport, RetrainingFlag, Review
from audit.services.reports.lifecycle import (
    compliance_report_download,
    compliance_report_request,
)
from audit.services.reviews import (
    certification_sign,
    certification_withdraw,
    retraining_flag_create,
    review_create,
)
from core.errors import ConflictError
from ledger.events import Event
from ledger.models import LedgerEntry
from ledger.services.anchors import ledger_checkpoint_write
from ledger.services.verify import ledger_verify
from tests.answered import make_attempt as answered_attempt
from tests.answered import right
from tests.audit.factories import table_test
from tests.factories import PASSWORD
from tests.graded import RIGHT, make_attempt, signing_request, wrong
from trainer.models import Attempt, Grade, GradingRun, Mode, RuleProfile
from trainer.services.grading.execute import grading_run_execute
from trainer.services.grading.request import grading_request, regrade_request

pytestmark = pytest.mark.django_db


def verify(*args: str) -> tuple[int, str]:
    """verify_audit_log's exit status and output."""
    out = StringIO()
    try:
        call_command("verify_audit_log", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def graded(trainee, answer=right) -> Attempt:
    """An exam answered by `answer` and graded by the grading service."""
    attempt = answered_attempt(trainee, answer=answer)
    # Every answered question was put to the trainee first (a review needs it shown).
    for item in attempt.items.all():
        item.questions_shown = {
            str(decision.question): decision.shown_at.isoformat()
            for decision in item.decisions.all()
        }
        item.save(update_fields=["questions_shown"])
    grading_run_execute(run_id=grading_request(attempt=attempt).pk)
    attempt.refresh_from_db()
    return attempt


def wrong_money(item):
    if item["kind"] == "settle_hand":
        return {"action": "take", "amount": "10.00"}
    return right(item)


@pytest.fixture
def shoe():
    return RuleProfile.objects.get(name="casino-shoe")


@pytest.fixture
def signed(pit, trainee, pit_boss, shoe):
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())
    return sign(trainee, exam, pit_boss, shoe)


def sign(trainee, exam, signer, profile):
    return certification_sign(
        trainee=trainee,
        profile=profile,
        attempt=exam,
        signer=signer,
        password=PASSWORD,
        statement="Ready for the shoe game.",
        request=signing_request(),
    )


def raw(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# Normal operation stays verified.


def test_grading_a_regrade_flags_reviews_and_signatures_stay_verified(pit, trainee, pit_boss, shoe):
    failed = graded(trainee, answer=wrong_money)
    assert failed.passed is False
    regrade_request(attempts=[failed], reason="the key was corrected", requested_by=pit_boss)
    grading_run_execute(run_id=failed.grading_runs.order_by("-number").first().pk)
    mistake = Grade.objects.filter(run__attempt=failed, correct=False).order_by("-run__number")[0]
    review = review_create(grade=mistake, reviewer=pit_boss, comment="Paid a losing hand.")
    review_create(grade=mistake, reviewer=pit_boss, comment="Took it, in fact.", corrects=review)
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Money errors")
    retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Retrained", active=False, corrects=flag
    )
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())
    cert = sign(trainee, exam, pit_boss, shoe)
    certification_withdraw(
        certification=cert,
        signer=pit_boss,
        password=PASSWORD,
        statement="Withdrawn.",
        request=signing_request(),
    )
    full = ledger_verify(full=True)
    assert full.ok, full.problems
    assert full.rows_checked > 0
    assert "every one of the grades" in full.rows_scope
    status, output = verify()
    assert status == 0, output
    assert "the rows it vouches for match it" in output
    ledger_checkpoint_write()
    status, output = verify("--since-checkpoint")
    assert status == 0, output
    assert "vouched for since the checkpoint" in output


def test_the_run_entry_carries_the_digests_of_the_run_its_grades_and_the_attempt(trainee):
    attempt = graded(trainee)
    run = attempt.grading_runs.get()
    entry = LedgerEntry.objects.get(event=Event.RUN_FINISHED, subject_id=str(run.pk))
    assert set(entry.payload["vouches"]) == {
        f"trainer_gradingrun:{run.pk}",
        f"trainer_grade:{run.pk}",
        f"trainer_attempt:{attempt.pk}",
    }


# Forged rows: named, with the table and the row, and a non-zero exit.


def test_a_failed_exam_forged_to_a_pass_is_named_row_by_row(trainee):
    attempt = graded(trainee, answer=wrong_money)
    run = attempt.grading_runs.get()
    Grade.objects.filter(run=run).update(correct=True, money_diff=Decimal("0.00"), category="")
    GradingRun.objects.filter(pk=run.pk).update(
        correct=run.questions, score=Decimal("100.00"), passed=True
    )
    Attempt.objects.filter(pk=attempt.pk).update(score=Decimal("100.00"), passed=True)
    status, output = verify()
    assert status == 1
    assert f"table trainer_grade, the rows with run_id {run.pk}" in output
    assert f"table trainer_gradingrun, row {run.pk}" in output
    assert f"table trainer_attempt, row {attempt.pk}" in output
    assert "changed outside the application" in output
    assert "OK" not in output.splitlines()[-1]
    assert not ledger_verify(full=True).ok


def test_an_extended_expiry_is_named_in_raw_sql(signed):
    later = timezone.now() + dt.timedelta(days=3650)
    raw("UPDATE audit_certification SET expires_at = %s WHERE id = %s", [later, signed.pk])
    status, output = verify()
    assert status == 1
    assert f"table audit_certification, row {signed.pk}" in output


def test_an_inserted_certification_is_named(signed, trainee, pit_boss):
    forged = Certification.objects.bulk_create(
        [
            Certification(
                trainee=trainee,
                profile=signed.profile,
                signed_by=pit_boss,
                signer_full_name="Nobody",
                signed_at=timezone.now(),
                expires_at=timezone.now() + dt.timedelta(days=365),
                statement="Forged.",
            )
        ]
    )[0]
    status, output = verify()
    assert status == 1
    assert f"table audit_certification, row {forged.pk}): no ledger entry vouches for it" in output


def test_a_deleted_review_and_a_lifted_flag_are_named(pit, trainee, pit_boss):
    attempt = graded(trainee, answer=wrong_money)
    mistake = Grade.objects.filter(run__attempt=attempt, correct=False).first()
    review = review_create(grade=mistake, reviewer=pit_boss, comment="Paid a losing hand.")
    flag = retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Money errors")
    Review.objects.filter(pk=review.pk).delete()
    RetrainingFlag.objects.filter(pk=flag.pk).update(active=False)
    status, output = verify()
    assert status == 1
    assert f"table audit_review, row {review.pk}" in output
    assert "deleted outside the application" in output
    assert f"table audit_retrainingflag, row {flag.pk}" in output


def test_a_deleted_grade_is_named(trainee):
    attempt = graded(trainee)
    run = attempt.grading_runs.get()
    Grade.objects.filter(pk=Grade.objects.filter(run=run).first().pk).delete()
    status, output = verify()
    assert status == 1
    assert f"table trainer_grade, the rows with run_id {run.pk}" in output


def test_the_incremental_verification_checks_the_rows_vouched_since_the_checkpoint(signed, trainee):
    ledger_checkpoint_write()
    attempt = graded(trainee, answer=wrong_money)
    Attempt.objects.filter(pk=attempt.pk).update(score=Decimal("100.00"), passed=True)
    raw(
        "UPDATE audit_certification SET statement = %s WHERE id = %s",
        ["Something else.", signed.pk],
    )
    status, output = verify("--since-checkpoint")
    assert status == 1
    assert "rows checked: the rows vouched for since the checkpoint" in output
    assert f"table trainer_attempt, row {attempt.pk}" in output
    # The certifications are checked whole, the incremental verification too.
    assert f"table audit_certification, row {signed.pk}" in output


def test_the_compliance_report_states_the_ledger_not_verified(signed, compliance_officer, settings):
    raw(
        "UPDATE audit_certification SET expires_at = %s WHERE id = %s",
        [timezone.now() + dt.timedelta(days=3650), signed.pk],
    )
    today = timezone.now().date()
    report = compliance_report_request(start=today, end=today, fmt="csv", user=compliance_officer)
    assert report.ledger_ok is False


def test_the_compliance_page_names_the_forged_row(signed, compliance_officer):
    from tests.graded import client_for

    raw(
        "UPDATE audit_certification SET expires_at = %s WHERE id = %s",
        [timezone.now() + dt.timedelta(days=3650), signed.pk],
    )
    page = client_for(compliance_officer).post("/compliance/verify/").content.decode()
    assert "The log cannot be vouched for." in page
    assert f"Certification {signed.pk} (table audit_certification, row {signed.pk})" in page


# A sign-off refuses evidence the ledger does not vouch for.


def test_a_sign_off_refuses_a_sitting_forged_to_a_pass(pit, trainee, pit_boss, shoe):
    exam = make_attempt(
        trainee=trainee, answers=[wrong("5.00")] * 50, mode=Mode.EXAM, drill=table_test()
    )
    run = exam.grading_runs.get()
    Grade.objects.filter(run=run).update(correct=True, money_diff=Decimal("0.00"), category="")
    GradingRun.objects.filter(pk=run.pk).update(correct=50, score=Decimal("100.00"), passed=True)
    Attempt.objects.filter(pk=exam.pk).update(score=Decimal("100.00"), passed=True)
    with pytest.raises(ConflictError) as caught:
        sign(trainee, exam, pit_boss, shoe)
    assert "changed outside the application" in str(caught.value)
    assert not Certification.objects.exists()


def test_a_sign_off_refuses_when_a_certification_of_the_trainee_was_forged(
    signed, trainee, pit_boss, shoe
):
    exam = make_attempt(trainee=trainee, answers=[RIGHT] * 50, mode=Mode.EXAM, drill=table_test())
    raw("UPDATE audit_certification SET withdrawn = %s WHERE id = %s", [True, signed.pk])
    with pytest.raises(ConflictError) as caught:
        sign(trainee, exam, pit_boss, shoe)
    assert "audit ledger" in str(caught.value)
    assert Certification.objects.count() == 1


# A stored report is checked against the ledger's sha256, not its row's.


def test_a_report_altered_with_its_rows_sha256_is_refused(
    settings, tmp_path, compliance_officer, trainee
):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    }
    today = timezone.now().date()
    report = compliance_report_request(start=today, end=today, fmt="csv", user=compliance_officer)
    assert compliance_report_download(report_id=report.pk, user=compliance_officer)
    path = settings.MEDIA_ROOT / report.file.name
    path.write_bytes(b"summary,overpaid (USD),0.00\n")
    import hashlib

    ComplianceReport.objects.filter(pk=report.pk).update(
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(), size_bytes=path.stat().st_size
    )
    with pytest.raises(ConflictError) as caught:
        compliance_report_download(report_id=report.pk, user=compliance_officer)
    assert caught.value.code == "file_changed"
    assert "audit ledger" in str(caught.value)


# Rows older than vouching: the migrations vouch for them as they are.


def test_the_backfill_migrations_vouch_for_the_rows_written_before_vouching(
    trainee, pit_boss, shoe
):
    from importlib import import_module

    from django.apps import apps

    older = Certification.objects.bulk_create(
        [
            Certification(
                trainee=trainee,
                profile=shoe,
                signed_by=pit_boss,
                signer_full_name="Bea Boss",
                signed_at=timezone.now(),
                expires_at=timezone.now() + dt.timedelta(days=365),
                statement="Signed before vouching.",
            )
        ]
    )[0]
    status, output = verify()
    assert status == 1
    assert f"table audit_certification, row {older.pk}): no ledger entry vouches" in output
    for migration in (
        "trainer.migrations.0016_vouch_existing_grades",
        "audit.migrations.0008_vouch_existing_records",
    ):
        import_module(migration).vouch_existing(apps, None)
    # (The pit boss's signer authority, a factory's, is vouched as the backfill vouches.)
    entry = LedgerEntry.objects.get(event=Event.VOUCHED_BACKFILLED, subject_type="certification")
    assert entry.subject_id == str(older.pk)
    assert verify()[0] == 0
    raw("UPDATE audit_certification SET statement = %s WHERE id = %s", ["Changed.", older.pk])
    status, output = verify()
    assert status == 1
    assert f"does not match what ledger entry {entry.sequence:,} recorded" in output
