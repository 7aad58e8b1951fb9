"""A pit boss's reviews of mistakes, retraining flags and certification sign-offs.

Every one is a new row and a ledger entry in the same transaction; a correction is a new
row pointing at the one it corrects, never an edit.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from audit.authority import SignedForm
from audit.certification import CertificationRule, Refusal, profile_label, sign_off_check
from audit.models import Certification, RetrainingFlag, Review
from audit.selectors import pit as audit_selectors
from audit.selectors.evidence import attempt_evidence, evidence_mismatches
from audit.services.authority import signature_authorised
from audit.services.certificates import certificate_issue
from audit.services.practical import practical_refusal
from audit.services.signing import check_signature
from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from core.roles import Role, roles_of
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches
from ledger.services.vouch_check import vouch_problems
from trainer.labels import skill_codes
from trainer.models import Attempt, Grade, RuleProfile
from trainer.selectors import runs, visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

security_log = logging.getLogger("shoeschool.security")

MAX_TEXT = 4000


def _text(value: str, *, field: str) -> str:
    text = (value or "").strip()
    if not text:
        raise ProductError(f"{field} is required", field=field)
    if len(text) > MAX_TEXT:
        raise ProductError(f"{field} is longer than {MAX_TEXT} characters", field=field)
    return text


def _require_actor(*, user: User, trainee: User) -> None:
    visibility.act_for_required(user=user, trainee=trainee)


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
    if str(grade.question) not in (grade.item.questions_shown or {}):
        # The trainee reads every review of theirs (My record): one of a question never put
        # to them would publish a round they were never dealt at the table.
        raise ConflictError(
            "this question was never put to the trainee: only answers to questions shown "
            "are reviewed",
            field="grade",
            code="not_shown",
        )
    if not runs.grade_is_current(grade=grade):
        raise ConflictError(
            "this grade belongs to a grading run a regrade has replaced", field="grade"
        )
    if corrects is not None and corrects.grade_id != grade.pk:
        raise ProductError(
            "a correction must correct a review of the same mistake", field="corrects"
        )
    with transaction.atomic():
        review = Review.objects.create(
            grade=grade, reviewer=reviewer, comment=comment, corrects=corrects
        )
        ledger_append(
            event=Event.REVIEW_RECORDED,
            subject_type=Subject.GRADE,
            subject_id=grade.pk,
            payload={
                "review_id": review.pk,
                "trainee_id": trainee.pk,
                "attempt_id": grade.run.attempt_id,
                "run_id": grade.run_id,
                "comment": comment,
                "corrects": corrects.pk if corrects else None,
                "vouches": row_vouches(Review, [review.pk]),
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
    known = set(skill_codes())
    unknown = [s for s in skills if s not in known]
    if unknown:
        raise ProductError(f"unknown skill: {', '.join(unknown)}", field="skills")
    if corrects is not None and corrects.trainee_id != trainee.pk:
        raise ProductError("a correction must correct a flag of the same trainee", field="corrects")
    if not active and corrects is None:
        raise ProductError("lifting a flag must name the flag it lifts", field="corrects")
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
            subject_type=Subject.TRAINEE,
            subject_id=trainee.pk,
            payload={
                "flag_id": flag.pk,
                "active": active,
                "reason": reason,
                "skills": flag.skills,
                "corrects": corrects.pk if corrects else None,
                # A lift records the refreshers' results it rests on.
                "refreshers": [
                    result.evidence
                    for result in audit_selectors.refresher_results(trainee_id=trainee.pk)
                    if corrects is not None and result.refresher.flag_id == corrects.pk
                ]
                if not active
                else [],
                "vouches": row_vouches(RetrainingFlag, [flag.pk]),
            },
            actor=flagged_by,
        )
    return flag


def _require_signer(*, signer: User, trainee: User) -> Role:
    """The role a signer signs in: a pit boss of the trainee's class or an administrator,
    never the trainee themselves."""
    held = roles_of(signer)
    visibility.not_for_oneself(
        user=signer, trainee_id=trainee.pk, doing="signs their own certification"
    )
    if not visibility.viewer_may_act_for(user=signer, trainee=trainee):
        if Role.COMPLIANCE in held:
            raise ForbiddenError(
                "compliance officers see certifications but never sign them: a pit boss of "
                "the trainee's class or an administrator signs"
            )
        raise ForbiddenError(
            "only a pit boss of the trainee's class, or an administrator, signs a certification"
        )
    return Role.ADMIN if Role.ADMIN in held else Role.PIT_BOSS


def certification_sign(
    *,
    trainee: User,
    profile: RuleProfile,
    attempt: Attempt,
    signer: User,
    password: str,
    statement: str,
    request: HttpRequest,
    override_reason: str = "",
    fast_acknowledged: bool = False,
) -> Certification:
    """Sign a certification that the trainee may deal under ``profile``, on the evidence
    of a sitting of that profile's table test; the signer re-enters their password
    (``request``: where from, for the password lockout).

    Refused, every reason named, unless the sitting qualifies (audit.certification). A
    retraining flag in force needs ``override_reason`` (why the signer signs regardless);
    answers faster than plausible need ``fast_acknowledged``. Both are recorded.
    """
    role = _require_signer(signer=signer, trainee=trainee)
    authority = signature_authorised(signer=signer, form=SignedForm.CERTIFICATION)
    full_name = check_signature(signer=signer, password=password, request=request)
    statement = _text(statement, field="statement")
    override_reason = (override_reason or "").strip()
    if len(override_reason) > MAX_TEXT:
        raise ProductError(
            f"override_reason is longer than {MAX_TEXT} characters", field="override_reason"
        )
    if attempt.trainee_id != trainee.pk:
        raise NotFoundError("no such attempt of this trainee", field="attempt")
    evidence = attempt_evidence(attempt=attempt)
    if evidence is None:
        raise ConflictError("this attempt has not been graded", field="attempt")
    rule = CertificationRule.from_settings()
    with transaction.atomic():
        # Locks the sitting, so two signatures on it cannot both pass the checks below.
        locked = (
            Attempt.objects.select_for_update(of=("self",))
            .select_related("drill__certifies", "drill__profile_version__profile")
            .get(pk=attempt.pk)
        )
        check = sign_off_check(
            rule=rule,
            evidence=evidence,
            drill=locked.drill,
            profile=profile,
            certifications=Certification.objects.filter(trainee=trainee),
            flags=audit_selectors.flags_in_force(trainee_ids=[trainee.pk]).get(trainee.pk, []),
        )
        _require_vouched(attempt=locked, trainee=trainee)
        refusals = check.unanswered(
            override_reason=override_reason, fast_acknowledged=fast_acknowledged
        )
        # The observed practical test, checked again at sign-off (and its sheets vouched).
        practical = practical_refusal(trainee=trainee, profile=profile)
        if practical is not None:
            refusals.append(Refusal(practical, "profile"))
        if refusals:
            raise ConflictError(
                "nothing was signed: " + "; ".join(r.text for r in refusals),
                field=refusals[0].field,
            )
        signed_at = timezone.now()
        certification = Certification.objects.create(
            trainee=trainee,
            profile=profile,
            attempt=attempt,
            signed_by=signer,
            signer_full_name=full_name,
            signer_role=role.value,
            signer_rank=authority.rank.value,
            signer_licence=authority.licence_number,
            signed_at=signed_at,
            expires_at=rule.expiry(signed_at),
            statement=statement,
            evidence=evidence.as_dict(),
            override_reason=override_reason if check.flags else "",
            flags_overridden=[flag.pk for flag in check.flags],
            acknowledged=[check.fast] if check.fast else [],
        )
        ledger_append(
            event=Event.CERTIFICATION_SIGNED,
            subject_type=Subject.CERTIFICATION,
            subject_id=certification.pk,
            payload=_signature_payload(certification),
            actor=signer,
        )
        certificate_issue(certification=certification)
    return certification


def _require_vouched(*, attempt: Attempt, trainee: User) -> None:
    """Refuse to sign on records the ledger does not vouch for: the sitting's result, runs
    and grades, and the trainee's certifications and retraining flags, each as recorded."""
    problems = [
        *evidence_mismatches(attempt=attempt),
        *vouch_problems(
            Certification,
            Certification.objects.filter(trainee=trainee).values_list("pk", flat=True),
        ),
        *vouch_problems(
            RetrainingFlag,
            RetrainingFlag.objects.filter(trainee=trainee).values_list("pk", flat=True),
        ),
    ]
    if problems:
        security_log.error(
            "sign-off refused for trainee %s: records differ from the ledger: %s",
            trainee.pk,
            "; ".join(problems),
        )
        raise ConflictError(
            "nothing was signed: this trainee's exam results or certification records differ "
            "from what the audit ledger recorded, so they were changed outside the "
            "application. Ask compliance to run the ledger check before anyone signs",
            field="attempt",
        )


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
    role = _require_signer(signer=signer, trainee=trainee)
    authority = signature_authorised(signer=signer, form=SignedForm.WITHDRAWAL)
    full_name = check_signature(signer=signer, password=password, request=request)
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
            signer_role=role.value,
            signer_rank=authority.rank.value,
            signer_licence=authority.licence_number,
            signed_at=timezone.now(),
            statement=statement,
            evidence=certification.evidence,
            withdrawn=True,
            corrects=certification,
        )
        ledger_append(
            event=Event.CERTIFICATION_SIGNED,
            subject_type=Subject.CERTIFICATION,
            subject_id=withdrawal.pk,
            payload=_signature_payload(withdrawal),
            actor=signer,
        )
    return withdrawal


def _signature_payload(certification: Certification) -> dict[str, object]:
    return {
        "trainee_id": certification.trainee_id,
        "profile": certification.profile.name,
        "profile_title": profile_label(certification.profile),
        "attempt_id": certification.attempt_id,
        "signer_id": certification.signed_by_id,
        "signer_full_name": certification.signer_full_name,
        "signer_role": certification.signer_role,
        "signer_rank": certification.signer_rank,
        "signer_licence": certification.signer_licence,
        "signed_at": certification.signed_at,
        "expires_at": certification.expires_at,
        "statement": certification.statement,
        "evidence": certification.evidence,
        "override_reason": certification.override_reason,
        "flags_overridden": certification.flags_overridden,
        "acknowledged": certification.acknowledged,
        "withdrawn": certification.withdrawn,
        "corrects": certification.corrects_id,
        "vouches": row_vouches(Certification, [certification.pk]),
    }
