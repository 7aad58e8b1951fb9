"""A pit boss's reviews of mistakes, retraining flags and certification sign-offs.

Every one is a new row and a ledger entry in the same transaction; a correction is a new
row pointing at the one it corrects, never an edit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import authenticate
from django.db import transaction
from django.utils import timezone

from audit.models import Certification, RetrainingFlag, Review
from audit.services.ledger import Event, ledger_append
from config.lockout import lockout_claim, lockout_message
from trainer.errors import ConflictError, ForbiddenError, NotFoundError, TrainerError
from trainer.models import Attempt, Grade, RuleProfile, Skill
from trainer.selectors import stats

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

security_log = logging.getLogger("shoeschool.security")

MAX_TEXT = 4000


@dataclass(frozen=True)
class CertificationRule:
    """What an exam must show before a pit boss may sign a certification on it.

    The defaults follow the training standard: at least 95 % right on an exam of at least
    50 scenarios, answered at a mean of under 10 seconds a question. Settings
    SHOESCHOOL_CERT_PASS_MARK, SHOESCHOOL_CERT_MIN_SCENARIOS and
    SHOESCHOOL_CERT_MAX_MEAN_SECONDS change them for a house.
    """

    pass_mark: Decimal = Decimal("95")
    min_scenarios: int = 50
    max_mean_seconds: Decimal = Decimal("10")

    @classmethod
    def from_settings(cls) -> CertificationRule:
        return cls(
            pass_mark=Decimal(str(getattr(settings, "SHOESCHOOL_CERT_PASS_MARK", "95"))),
            min_scenarios=int(getattr(settings, "SHOESCHOOL_CERT_MIN_SCENARIOS", 50)),
            max_mean_seconds=Decimal(
                str(getattr(settings, "SHOESCHOOL_CERT_MAX_MEAN_SECONDS", "10"))
            ),
        )

    def shortfalls(self, evidence: stats.AttemptEvidence, *, profile: str) -> list[str]:
        """Why this attempt cannot back a certification under ``profile`` (empty: it can)."""
        found = []
        if evidence.mode != "exam":
            found.append(f"it is a {evidence.mode} attempt, not an exam")
        if evidence.passed is not True:
            found.append("its current grading did not pass it")
        if evidence.score is None or evidence.score < self.pass_mark:
            found.append(f"its score {evidence.score}% is under the pass mark {self.pass_mark}%")
        if evidence.rounds < self.min_scenarios:
            found.append(f"it dealt {evidence.rounds} scenarios, fewer than {self.min_scenarios}")
        limit_ms = self.max_mean_seconds * 1000
        if evidence.mean_ms is None or Decimal(str(evidence.mean_ms)) >= limit_ms:
            mean = "no" if evidence.mean_ms is None else f"{evidence.mean_ms / 1000:.1f} s"
            found.append(f"its mean response time ({mean}) is not under {self.max_mean_seconds} s")
        if evidence.profiles != (profile,):
            dealt = ", ".join(evidence.profiles) or "no profile"
            found.append(f"it was dealt under {dealt}, not only {profile}")
        return found


def _text(value: str, *, field: str) -> str:
    text = (value or "").strip()
    if not text:
        raise TrainerError(f"{field} is required", field=field)
    if len(text) > MAX_TEXT:
        raise TrainerError(f"{field} is longer than {MAX_TEXT} characters", field=field)
    return text


def _require_actor(*, user: User, trainee: User) -> None:
    if not stats.viewer_may_act_for(user=user, trainee=trainee):
        raise ForbiddenError("only a pit boss of the trainee's class, or an admin, may do this")


def review_create(
    *, grade: Grade, reviewer: User, comment: str, corrects: Review | None = None
) -> Review:
    """Record that a pit boss reviewed a graded mistake; with ``corrects``, a correction
    of an earlier review of the same mistake."""
    comment = _text(comment, field="comment")
    trainee = grade.run.attempt.trainee
    _require_actor(user=reviewer, trainee=trainee)
    if grade.correct:
        raise ConflictError("this answer was right: only mistakes are reviewed", field="grade")
    if not stats.grade_is_current(grade=grade):
        raise ConflictError(
            "this grade belongs to a grading run a regrade has replaced", field="grade"
        )
    if corrects is not None and corrects.grade_id != grade.pk:
        raise TrainerError(
            "a correction must correct a review of the same mistake", field="corrects"
        )
    with transaction.atomic():
        review = Review.objects.create(
            grade=grade, reviewer=reviewer, comment=comment, corrects=corrects
        )
        ledger_append(
            event=Event.REVIEW_RECORDED,
            subject_type="grade",
            subject_id=grade.pk,
            payload={
                "review_id": review.pk,
                "trainee_id": trainee.pk,
                "attempt_id": grade.run.attempt_id,
                "run_id": grade.run_id,
                "comment": comment,
                "corrects": corrects.pk if corrects else None,
            },
            actor=reviewer,
        )
    return review


def retraining_flag_create(
    *,
    trainee: User,
    flagged_by: User,
    reason: str,
    skills: tuple[str, ...] | list[str] = (),
    active: bool = True,
    corrects: RetrainingFlag | None = None,
) -> RetrainingFlag:
    """Flag a trainee for retraining; ``active=False`` with ``corrects`` lifts a flag."""
    reason = _text(reason, field="reason")
    _require_actor(user=flagged_by, trainee=trainee)
    known = set(Skill.values)
    unknown = [s for s in skills if s not in known]
    if unknown:
        raise TrainerError(f"unknown skill: {', '.join(unknown)}", field="skills")
    if corrects is not None and corrects.trainee_id != trainee.pk:
        raise TrainerError("a correction must correct a flag of the same trainee", field="corrects")
    if not active and corrects is None:
        raise TrainerError("lifting a flag must name the flag it lifts", field="corrects")
    with transaction.atomic():
        flag = RetrainingFlag.objects.create(
            trainee=trainee,
            flagged_by=flagged_by,
            reason=reason,
            skills=list(dict.fromkeys(skills)),
            active=active,
            corrects=corrects,
        )
        ledger_append(
            event=Event.RETRAINING_FLAGGED,
            subject_type="trainee",
            subject_id=trainee.pk,
            payload={
                "flag_id": flag.pk,
                "active": active,
                "reason": reason,
                "skills": flag.skills,
                "corrects": corrects.pk if corrects else None,
            },
            actor=flagged_by,
        )
    return flag


def _check_signature(*, signer: User, password: str, request: HttpRequest) -> str:
    """The signer's full name, once their password is confirmed.

    The password is checked as a login checks it, through ``authenticate`` with the
    request, so wrong passwords count towards the signer's lockout (django-axes) and a
    locked-out signer is refused even with the right one: otherwise anyone at a pit
    boss's unlocked screen could guess at the password here without limit.
    """
    if not password:
        raise TrainerError("enter your password to sign: nothing was signed", field="password")
    confirmed = authenticate(request, username=signer.get_username(), password=password)
    if confirmed is None or confirmed.pk != signer.pk:
        # Not a change, so not a ledger entry (nothing is stored); the security log keeps it.
        if lockout_claim(request):
            security_log.warning("sign-off refused: user %s is locked out", signer.pk)
            raise TrainerError(
                f"{lockout_message()} Nothing was signed.",
                status=429,
                field="password",
                code="locked_out",
            )
        security_log.warning("failed sign-off password for user %s", signer.pk)
        raise TrainerError("the password is not right: nothing was signed", field="password")
    full_name = signer.get_full_name().strip()
    if not signer.first_name.strip() or not signer.last_name.strip():
        raise TrainerError(
            "a signature records your full name, never initials: ask an administrator to "
            "set your first and last name",
            field="signer",
        )
    return full_name


def certification_sign(
    *,
    trainee: User,
    profile: RuleProfile,
    attempt: Attempt,
    signer: User,
    password: str,
    statement: str,
    request: HttpRequest,
) -> Certification:
    """Sign a certification that the trainee may deal under ``profile``, on the evidence
    of an exam attempt; the signer re-enters their password (``request``: where from, for
    the password lockout)."""
    _require_actor(user=signer, trainee=trainee)
    full_name = _check_signature(signer=signer, password=password, request=request)
    statement = _text(statement, field="statement")
    if attempt.trainee_id != trainee.pk:
        raise NotFoundError("no such attempt of this trainee", field="attempt")
    evidence = stats.attempt_evidence(attempt=attempt)
    if evidence is None:
        raise ConflictError("this attempt has not been graded", field="attempt")
    shortfalls = CertificationRule.from_settings().shortfalls(evidence, profile=profile.name)
    if shortfalls:
        raise ConflictError(
            "this attempt cannot back a certification: " + "; ".join(shortfalls), field="attempt"
        )
    with transaction.atomic():
        certification = Certification.objects.create(
            trainee=trainee,
            profile=profile,
            attempt=attempt,
            signed_by=signer,
            signer_full_name=full_name,
            signed_at=timezone.now(),
            statement=statement,
            evidence=evidence.as_dict(),
        )
        ledger_append(
            event=Event.CERTIFICATION_SIGNED,
            subject_type="certification",
            subject_id=certification.pk,
            payload=_signature_payload(certification),
            actor=signer,
        )
    return certification


def certification_withdraw(
    *,
    certification: Certification,
    signer: User,
    password: str,
    statement: str,
    request: HttpRequest,
) -> Certification:
    """Withdraw a certification: a new signed row pointing back at it."""
    trainee = certification.trainee
    _require_actor(user=signer, trainee=trainee)
    full_name = _check_signature(signer=signer, password=password, request=request)
    statement = _text(statement, field="statement")
    if certification.withdrawn:
        raise ConflictError("this entry is itself a withdrawal", field="certification")
    with transaction.atomic():
        # Locks the original so two withdrawals cannot both pass the check below.
        Certification.objects.select_for_update().filter(pk=certification.pk).first()
        if certification.corrections.exists():
            raise ConflictError("this certification was already withdrawn", field="certification")
        withdrawal = Certification.objects.create(
            trainee=trainee,
            profile=certification.profile,
            attempt=certification.attempt,
            signed_by=signer,
            signer_full_name=full_name,
            signed_at=timezone.now(),
            statement=statement,
            evidence=certification.evidence,
            withdrawn=True,
            corrects=certification,
        )
        ledger_append(
            event=Event.CERTIFICATION_SIGNED,
            subject_type="certification",
            subject_id=withdrawal.pk,
            payload=_signature_payload(withdrawal),
            actor=signer,
        )
    return withdrawal


def _signature_payload(certification: Certification) -> dict[str, object]:
    return {
        "trainee_id": certification.trainee_id,
        "profile": certification.profile.name,
        "attempt_id": certification.attempt_id,
        "signer_id": certification.signed_by_id,
        "signer_full_name": certification.signer_full_name,
        "signed_at": certification.signed_at,
        "statement": certification.statement,
        "evidence": certification.evidence,
        "withdrawn": certification.withdrawn,
        "corrects": certification.corrects_id,
    }
