"""Remediation in one step: a refresher drill generated on a trainee's weak skills (those of
a retraining flag, or their weakest by their graded mistakes), assigned to them with a due
date, and linked to the flag so that lifting it shows the refresher's result."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from audit.models import Refresher, RetrainingFlag
from audit.selectors.progress import skill_progress
from core.errors import ConflictError, ProductError
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches
from teaching.services.assignments import assignment_create
from trainer.games import DocumentError, game_named
from trainer.labels import skill_codes, skill_words
from trainer.models import AttemptItem, DrillKind, DrillPurpose, Mode, RuleProfile
from trainer.selectors import visibility
from trainer.services.drills import drill_create

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from trainer.models import RuleProfileVersion

# The weakest skills a refresher drills when no flag names them.
WEAKEST = 3
REFRESHER_ROUNDS = 10


def _profile_version(trainee: User) -> RuleProfileVersion:
    """The newest version of the table the trainee last played at (else the first table)."""
    last = (
        AttemptItem.objects.filter(attempt__trainee_id=trainee.pk)
        .order_by("-id")
        .values_list("profile_version__profile_id", flat=True)
        .first()
    )
    profile = RuleProfile.objects.filter(pk=last).first() if last else None
    profile = profile or RuleProfile.objects.order_by("name").first()
    version = profile.current_version if profile else None
    if version is None:
        raise ProductError("there is no rule profile to deal a refresher at", field="profile")
    return version


def _dealable(version: RuleProfileVersion, skills: list[str]) -> list[str]:
    """The skills the generator can deal at this table (a 6:5 natural is not on a 3:2
    table's felt): a refresher on an undealable skill would fail at the table."""
    table = version.engine_profile
    game = game_named(version.profile.game)
    out = []
    for skill in skills:
        try:
            game.generate_rounds(
                rng=random.Random(0),  # noqa: S311 - a reproducible trial, not a secret
                parameters=version.parameters,
                profile=version.profile.name,
                rounds=[[skill]],
                min_stake=table.min_bet,
                max_stake=table.max_bet,
                max_boxes=1,
                round_prefix="trial",
            )
        except DocumentError:
            continue
        out.append(skill)
    return out


def weak_skills(*, trainee: User) -> list[str]:
    """The trainee's weakest skills below the target, weakest first (at most WEAKEST)."""
    known = set(skill_codes())
    return [
        p.skill
        for p in skill_progress(trainee_id=trainee.pk)
        if not p.meets_target and p.skill in known
    ][:WEAKEST]


def refresher_assign(
    *,
    trainee: User,
    user: User,
    flag: RetrainingFlag | None = None,
    skills: list[str] | None = None,
    due_in_days: int = 7,
) -> Refresher:
    """Generate a practice drill on the flag's skills (or ``skills``, or the trainee's
    weakest) and assign it to the trainee, due in ``due_in_days`` days; all or nothing."""
    visibility.act_for_required(user=user, trainee=trainee)
    if type(due_in_days) is not int or not 1 <= due_in_days <= 90:
        raise ProductError("due_in_days must be a whole number from 1 to 90", field="due_in_days")
    if flag is not None:
        if flag.trainee_id != trainee.pk:
            raise ProductError("this flag is another trainee's", field="flag")
        if not flag.active or flag.corrections.exists():
            raise ConflictError("this flag was lifted: there is nothing to refresh", field="flag")
    chosen = list(
        skills or (flag.skills if flag is not None else []) or weak_skills(trainee=trainee)
    )
    unknown = [s for s in chosen if s not in skill_codes()]
    if unknown:
        raise ProductError(f"unknown skill: {', '.join(unknown)}", field="skills")
    if not chosen:
        raise ProductError(
            "no weak skill to refresh: the trainee meets the target on every skill graded",
            field="skills",
        )
    version = _profile_version(trainee)
    dealable = _dealable(version, chosen)
    if not dealable:
        raise ProductError(
            f"none of these skills is dealt at {version.profile.title or version.profile.name}",
            field="skills",
        )
    labels = skill_words()
    title = "Refresher: " + ", ".join(str(labels[s]) for s in dealable)
    with transaction.atomic():
        drill = drill_create(
            title=title[:200],
            kind=DrillKind.GENERATED,
            purpose=DrillPurpose.PRACTICE,
            user=user,
            profile_version=version,
            skills=dealable,
            count=REFRESHER_ROUNDS,
            max_boxes=min(3, version.engine_profile.boxes),
            description=f"Generated for {trainee.get_full_name() or 'a trainee'}'s retraining.",
            made_for=trainee,
        )
        assignment = assignment_create(
            drill=drill,
            mode=Mode.PRACTICE,
            assigned_by=user,
            trainee=trainee,
            due_at=timezone.now() + timedelta(days=due_in_days),
        )
        refresher = Refresher.objects.create(
            trainee=trainee, flag=flag, assignment=assignment, skills=dealable, created_by=user
        )
        ledger_append(
            event=Event.REFRESHER_ASSIGNED,
            subject_type=Subject.TRAINEE,
            subject_id=trainee.pk,
            payload={
                "refresher_id": refresher.pk,
                "flag_id": flag.pk if flag else None,
                "assignment_id": assignment.pk,
                "drill_id": drill.pk,
                "skills": dealable,
                "vouches": row_vouches(Refresher, [refresher.pk]),
            },
            actor=user,
        )
    return refresher
