"""A trainee who is on another instructor's class joins a pit boss's class in one of two
ways, never by a plain add:

- a **join request**: the pit boss asks, and an instructor of every class the trainee is on
  (that the asker does not teach) accepts or declines it; accepted, the trainee joins the
  asker's class and stays on their own;
- a **transfer** by an administrator: the trainee leaves every other class and joins this
  one.

Each is a ledger entry in its transaction (docs/security.md, *Class boundaries*).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError, echo
from core.roles import Role, has_role, roles_of
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from teaching.models import ClassJoinRequest, JoinRequestStatus
from teaching.selectors.classes import NOT_ADDABLE, classes_of_others
from teaching.services.classes.membership import may_manage_class
from trainer.models import TrainingClass

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

NOTE_MAX = 500


def _trainee_required(trainee: AbstractBaseUser) -> None:
    if Role.TRAINEE not in roles_of(trainee):
        raise NotFoundError(NOT_ADDABLE, field="username")


def class_join_request_create(
    *,
    actor: AbstractBaseUser,
    training_class: TrainingClass,
    trainee: AbstractBaseUser,
    note: str = "",
) -> ClassJoinRequest:
    """Ask for a trainee who is on another instructor's class to join ``training_class``
    (one the actor runs). Their instructor answers; until then nothing changes."""
    may_manage_class(actor, training_class)
    _trainee_required(trainee)
    if trainee.pk == actor.pk:
        raise ForbiddenError("nobody asks for themselves to join a class they run")
    note = " ".join((note or "").split())
    if len(note) > NOTE_MAX:
        raise ProductError(f"a note is at most {NOTE_MAX} characters", field="note")
    if training_class.trainees.filter(pk=trainee.pk).exists():
        raise ConflictError(
            f"{echo(trainee.get_username())} is already on {training_class.name}",
            field="username",
        )
    if not classes_of_others(trainee=trainee, user=actor).exists():
        raise ConflictError(
            f"{echo(trainee.get_username())} is on no other instructor's class: add them directly",
            field="username",
        )
    try:
        with transaction.atomic():
            request = ClassJoinRequest.objects.create(
                training_class=training_class,
                trainee_id=trainee.pk,
                requested_by_id=actor.pk,
                note=note,
            )
            ledger_append(
                event=Event.CLASS_JOIN_REQUESTED,
                subject_type=Subject.TRAINING_CLASS,
                subject_id=training_class.pk,
                payload={
                    "request_id": request.pk,
                    "trainee_id": trainee.pk,
                    "username": trainee.get_username(),
                    "note": note,
                },
                actor=actor,
            )
    except IntegrityError:
        raise ConflictError(
            f"{training_class.name} already asked for {echo(trainee.get_username())}: the "
            "request is waiting for their instructor",
            field="username",
        ) from None
    return request


def may_answer(*, actor: AbstractBaseUser, request: ClassJoinRequest) -> None:
    """Who answers a join request: an administrator, or a pit boss who teaches every class
    the trainee is on that the asker does not teach (their current instructor). Never the
    asker, and never the trainee."""
    if has_role(actor, Role.ADMIN):
        pass
    elif not has_role(actor, Role.PIT_BOSS):
        raise ForbiddenError("only the trainee's instructor or an administrator answers this")
    else:
        theirs = classes_of_others(trainee=request.trainee, user=request.requested_by)
        if not theirs.exists() or theirs.exclude(instructors=actor.pk).exists():
            raise NotFoundError("no such request waiting for you", field="request")
    if actor.pk in (request.requested_by_id, request.trainee_id):
        raise ForbiddenError(
            "a join request is answered by the trainee's instructor, not by the one who asked "
            "or the trainee"
        )


def _decide(
    *, actor: AbstractBaseUser, request: ClassJoinRequest, accept: bool
) -> ClassJoinRequest:
    may_answer(actor=actor, request=request)
    with transaction.atomic():
        locked = ClassJoinRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status != JoinRequestStatus.PENDING:
            raise ConflictError(
                f"this request was already answered ({locked.get_status_display().lower()})",
                field="request",
            )
        locked.status = JoinRequestStatus.ACCEPTED if accept else JoinRequestStatus.DECLINED
        locked.decided_by_id = actor.pk
        locked.decided_at = timezone.now()
        locked.save(update_fields=["status", "decided_by", "decided_at"])
        joined = False
        if accept and not locked.training_class.trainees.filter(pk=locked.trainee_id).exists():
            locked.training_class.trainees.add(locked.trainee_id)
            joined = True
        ledger_append(
            event=Event.CLASS_JOIN_ACCEPTED if accept else Event.CLASS_JOIN_DECLINED,
            subject_type=Subject.TRAINING_CLASS,
            subject_id=locked.training_class_id,
            payload={
                "request_id": locked.pk,
                "trainee_id": locked.trainee_id,
                "requested_by": locked.requested_by_id,
                "joined": joined,
            },
            actor=actor,
        )
    return locked


def class_join_request_accept(
    *, actor: AbstractBaseUser, request: ClassJoinRequest
) -> ClassJoinRequest:
    """The trainee's instructor agrees: the trainee joins the asker's class too."""
    return _decide(actor=actor, request=request, accept=True)


def class_join_request_decline(
    *, actor: AbstractBaseUser, request: ClassJoinRequest
) -> ClassJoinRequest:
    """The trainee's instructor refuses: nothing changes but the request's answer."""
    return _decide(actor=actor, request=request, accept=False)


def class_trainee_transfer(
    *, actor: AbstractBaseUser, training_class: TrainingClass, trainee: AbstractBaseUser
) -> list[str]:
    """An administrator moves a trainee to ``training_class``: off every other class, onto
    this one. Returns the names of the classes they left. Administrators only; never
    oneself."""
    if not has_role(actor, Role.ADMIN):
        raise ForbiddenError("only an administrator transfers a trainee between classes")
    _trainee_required(trainee)
    if trainee.pk == actor.pk:
        raise ForbiddenError("nobody transfers themselves: another administrator does it")
    with transaction.atomic():
        left = list(
            TrainingClass.objects.filter(trainees=trainee.pk)
            .exclude(pk=training_class.pk)
            .order_by("name")
        )
        already = training_class.trainees.filter(pk=trainee.pk).exists()
        if already and not left:
            raise ConflictError(
                f"{echo(trainee.get_username())} is on {training_class.name} only already",
                field="username",
            )
        for other in left:
            other.trainees.remove(trainee.pk)
        if not already:
            training_class.trainees.add(trainee.pk)
        # Requests for them that wait no longer mean anything: declined by the transfer.
        ClassJoinRequest.objects.filter(
            trainee=trainee.pk, status=JoinRequestStatus.PENDING
        ).update(status=JoinRequestStatus.DECLINED, decided_by=actor.pk, decided_at=timezone.now())
        ledger_append(
            event=Event.CLASS_TRAINEE_TRANSFERRED,
            subject_type=Subject.TRAINING_CLASS,
            subject_id=training_class.pk,
            payload={
                "trainee_id": trainee.pk,
                "username": trainee.get_username(),
                "from_class_ids": [c.pk for c in left],
            },
            actor=actor,
        )
    return [c.name for c in left]
