"""Remediation end to end: a flag, a refresher generated on its skills and assigned in one
step, the trainee plays it, it is graded, and lifting the flag shows its result."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import Refresher
from audit.services.remediation import refresher_assign, weak_skills
from audit.services.reviews import retraining_flag_create
from core.errors import ConflictError, ForbiddenError, ProductError
from ledger.events import Event
from ledger.models import LedgerEntry
from tests.graded import RIGHT, client_for, make_attempt, wrong
from trainer.models import Assignment, DrillKind, DrillPurpose, GradingRun, Mode
from trainer.services.attempts import attempt_start, attempt_submit
from trainer.services.grading.execute import grading_runs_execute

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged(pit, trainee, pit_boss):
    # Some graded work at the casino-shoe table: the refresher is dealt at that table.
    make_attempt(trainee=trainee, answers=[wrong("5.00"), wrong("2.50"), RIGHT])
    return retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="Naturals", skills=["natural-3to2"]
    )


def test_flag_refresher_play_grade_lift_shows_the_result(flagged, trainee, pit_boss):
    boss = client_for(pit_boss)
    response = boss.post(reverse("pit:flag_refresher", args=[flagged.pk]), {"due_in_days": "5"})
    assert response.status_code == 302, response.content.decode()[:3000]
    refresher = Refresher.objects.get()
    assert refresher.flag == flagged
    assignment = refresher.assignment
    assert (assignment.trainee, assignment.assigned_by, assignment.mode) == (
        trainee,
        pit_boss,
        Mode.PRACTICE,
    )
    assert assignment.drill.kind == DrillKind.GENERATED
    assert assignment.drill.purpose == DrillPurpose.PRACTICE
    assert assignment.drill.skills == ["natural-3to2"]
    due_in = assignment.due_at - timezone.now()
    assert dt.timedelta(days=4, hours=23) < due_in <= dt.timedelta(days=5)
    entry = LedgerEntry.objects.get(event=Event.REFRESHER_ASSIGNED)
    assert entry.actor_id == pit_boss.pk
    assert entry.payload["flag_id"] == flagged.pk

    # The trainee sees it in My record, with a way to play it, and plays it.
    mine = client_for(trainee).get(reverse("record:mine"))
    assert f'name="assignment" value="{assignment.pk}"' in mine.content.decode()
    attempt = attempt_start(
        trainee=trainee, drill=assignment.drill, mode=Mode.PRACTICE, assignment=assignment
    )
    attempt_submit(attempt=attempt, user=trainee)
    grading_runs_execute(
        run_ids=list(GradingRun.objects.filter(attempt=attempt).values_list("pk", flat=True))
    )
    attempt.refresh_from_db()
    assert attempt.passed is False  # nothing answered

    response = boss.post(reverse("pit:flag_lift", args=[flagged.pk]), {"reason": "Practised"})
    assert response.status_code == 302
    lift = LedgerEntry.objects.filter(event=Event.RETRAINING_FLAGGED).latest("pk")
    assert lift.payload["active"] is False
    [evidence] = lift.payload["refreshers"]
    assert evidence["assignment_id"] == assignment.pk
    assert evidence["score"] == str(attempt.score)
    assert evidence["passed"] is False
    page = boss.get(reverse("pit:trainee_retraining", args=[trainee.pk])).content.decode()
    assert "Evidence:" in page
    assert f"{attempt.score}%" in page
    record = client_for(trainee).get(reverse("record:mine")).content.decode()
    assert "On the evidence of" in record
    assert "not passed" in record


def test_a_refresher_from_mistakes_drills_the_weakest_skills(pit, trainee, pit_boss):
    make_attempt(trainee=trainee, answers=[wrong("5.00"), RIGHT], skills=("natural-3to2",))
    assert weak_skills(trainee=trainee) == ["natural-3to2"]
    response = client_for(pit_boss).post(
        reverse("pit:trainee_refresher", args=[trainee.pk]), {"due_in_days": "7"}
    )
    assert response.status_code == 302
    refresher = Refresher.objects.get()
    assert refresher.flag is None
    assert refresher.skills == ["natural-3to2"]


def test_no_weak_skill_no_refresher(pit, trainee, pit_boss):
    make_attempt(trainee=trainee, answers=[RIGHT, RIGHT])
    with pytest.raises(ProductError) as refused:
        refresher_assign(trainee=trainee, user=pit_boss)
    assert refused.value.field == "skills"
    assert not Assignment.objects.exists()


def test_refused_refreshers_write_nothing(flagged, trainee, pit_boss, other_boss, other_trainee):
    with pytest.raises(ForbiddenError):
        refresher_assign(trainee=trainee, user=other_boss, flag=flagged)
    with pytest.raises(ProductError):
        refresher_assign(trainee=other_trainee, user=pit_boss, flag=flagged)
    retraining_flag_create(
        trainee=trainee, flagged_by=pit_boss, reason="ok", active=False, corrects=flagged
    )
    with pytest.raises(ConflictError):
        refresher_assign(trainee=trainee, user=pit_boss, flag=flagged)
    assert not Refresher.objects.exists()
    assert not Assignment.objects.exists()
