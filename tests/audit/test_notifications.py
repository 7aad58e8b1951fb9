"""E-mail notifications, each sent once: on an assignment (to each trainee concerned), a
day before it is due, on a retraining flag, on a certification signed and on one expiring
within 30 days. Running a task again sends nothing new."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.core import mail
from django.utils import timezone

from audit.models import Certification
from audit.services.reviews import certification_sign, retraining_flag_create
from audit.tasks import send_audit_notifications
from teaching.models import Notification, NotificationKind
from teaching.services.assignments import assignment_cancel, assignment_create, assignment_reassign
from teaching.tasks import notify_assignment, send_assignment_notifications
from tests.audit.factories import TrainingClassFactory, table_test
from tests.factories import PASSWORD, UserFactory
from tests.graded import RIGHT, make_attempt, signing_request
from tests.trainer.factories import DrillFactory, natural_document
from trainer.models import Attempt, AttemptStatus, Mode, RuleProfile


def _class(pit_boss, *names, email=True):
    people = [
        UserFactory(username=n, email=f"{n}@example.test" if email else "", roles=["trainee"])
        for n in names
    ]
    return TrainingClassFactory(trainees=people, instructors=[pit_boss]), people


@pytest.mark.django_db
def test_an_assignment_mails_each_trainee_once(pit_boss):
    group, _ = _class(pit_boss, "ann", "ben")
    drill = DrillFactory(title="Naturals", documents=[natural_document()])
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=group, assigned_by=pit_boss
    )
    assert notify_assignment(assignment.pk) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.test", "ben@example.test"]
    assert "Naturals" in mail.outbox[0].subject
    # The queued task and the beat sweep both see it: nothing more is sent.
    assert notify_assignment(assignment.pk) == 0
    assert send_assignment_notifications() == 0
    assert len(mail.outbox) == 2
    assert Notification.objects.filter(kind=NotificationKind.ASSIGNED).count() == 2


@pytest.mark.django_db
def test_a_cancelled_assignment_and_a_trainee_without_address_get_nothing(pit_boss):
    group, _ = _class(pit_boss, "cat", email=False)
    drill = DrillFactory(documents=[natural_document()])
    assignment = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=group, assigned_by=pit_boss
    )
    assert notify_assignment(assignment.pk) == 0
    other, _ = _class(pit_boss, "dan")
    cancelled = assignment_create(
        drill=drill, mode=Mode.PRACTICE, training_class=other, assigned_by=pit_boss
    )
    assignment_cancel(assignment=cancelled, user=pit_boss)
    assert send_assignment_notifications() == 0
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_day_before_due_reminds_those_who_have_not_passed_once(pit_boss):
    group, (_, fay) = _class(pit_boss, "eve", "fay")
    drill = DrillFactory(title="Payouts", documents=[natural_document()])
    assignment = assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=group,
        assigned_by=pit_boss,
        due_at=timezone.now() + dt.timedelta(hours=20),
    )
    Attempt.objects.create(
        trainee=fay,
        drill=drill,
        mode=Mode.PRACTICE,
        assignment=assignment,
        sitting=1,
        status=AttemptStatus.SUBMITTED,
        passed=True,
    )
    send_assignment_notifications()
    reminders = [m for m in mail.outbox if m.subject.startswith("Due tomorrow")]
    assert [m.to for m in reminders] == [["eve@example.test"]]
    mail.outbox.clear()
    assert send_assignment_notifications() == 0
    assert mail.outbox == []
    # A new due date is a new reminder.
    assignment_reassign(
        assignment=assignment, user=pit_boss, due_at=timezone.now() + dt.timedelta(hours=10)
    )
    assert send_assignment_notifications() == 1
    assert mail.outbox[0].to == ["eve@example.test"]


@pytest.mark.django_db
def test_flags_signatures_and_expiries_are_mailed_once(pit, trainee, pit_boss):
    trainee.email = "tina@example.test"
    trainee.save()
    retraining_flag_create(trainee=trainee, flagged_by=pit_boss, reason="Rounding")
    certified = make_attempt(trainee=trainee, answers=[RIGHT] * 50, drill=table_test())
    certification = certification_sign(
        trainee=trainee,
        profile=RuleProfile.objects.get(name="casino-shoe"),
        attempt=certified,
        signer=pit_boss,
        password=PASSWORD,
        statement="ok",
        request=signing_request(),
        override_reason="Rounding is not on this table",
    )
    assert send_audit_notifications() == 2
    subjects = sorted(m.subject for m in mail.outbox)
    assert subjects[0].startswith("Certified")
    assert subjects[1] == "You have been flagged for retraining"
    # Twenty days before it lapses, the expiry warning; once.
    Certification.objects.filter(pk=certification.pk).update(
        expires_at=timezone.now() + dt.timedelta(days=20)
    )
    assert send_audit_notifications() == 1
    assert mail.outbox[-1].subject.startswith("Your certification expires soon")
    assert send_audit_notifications() == 0
    assert len(mail.outbox) == 3


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_beat_task_twice_and_sends_once(celery_worker):
    boss = UserFactory(roles=["pit_boss"])
    group, _ = _class(boss, "gus")
    drill = DrillFactory(documents=[natural_document()])
    assignment_create(
        drill=drill,
        mode=Mode.PRACTICE,
        training_class=group,
        assigned_by=boss,
        due_at=timezone.now() + dt.timedelta(hours=10),
    )
    # The assignment queued its own e-mail on commit: wait for the worker to send it (its
    # two processes could otherwise take the beat task first), then the beat task twice:
    # the reminder once.
    deadline = time.monotonic() + 30
    while not Notification.objects.filter(kind="assigned").exists():
        assert time.monotonic() < deadline, "the assignment's own e-mail was never sent"
        time.sleep(0.1)
    first = send_assignment_notifications.delay().get(timeout=30)
    second = send_assignment_notifications.delay().get(timeout=30)
    assert (first, second) == (1, 0)
    assert sorted(Notification.objects.values_list("kind", flat=True)) == ["assigned", "due_soon"]
    assert len(mail.outbox) == 2
