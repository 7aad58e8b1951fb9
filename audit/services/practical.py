"""The observed practical test: an evaluator signs the evaluation sheet they filled while
watching a trainee deal a table (``practical_sheet_sign``), and a certification asks for a
passed one (``practical_refusal``, which certification_sign applies at sign-off).

A sheet is the table's game's template (trainer.games.observing, through the seam), the
marks and the outcome of its pass rule, signed as a certification is: the evaluator
re-enters their password, and their full name, rank and licence number are recorded. The
evaluator is a pit boss of the trainee's class or an administrator, never the trainee, of
the rank the jurisdiction asks for a practical sheet. A signed sheet is never edited: a
correction is a new signed sheet pointing back at it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from audit.authority import SignedForm, jurisdiction_in_force
from audit.models import PracticalSheet
from audit.services.authority import signature_authorised
from audit.services.signing import MAX_TEXT, check_signature
from core.errors import ConflictError, ForbiddenError, NotFoundError, ProductError
from ledger.events import Event, Subject
from ledger.services.append import ledger_append
from ledger.services.vouch import row_vouches
from ledger.services.vouch_check import vouch_problems
from trainer.games import game_named
from trainer.games.observing import RUBRIC_HIGH, RUBRIC_LOW, Marks, SheetTemplate, sheet_outcome
from trainer.models import RuleProfile
from trainer.selectors import visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest


security_log = logging.getLogger("shoeschool.security")
MAX_SECONDS = Decimal("3600")


def sheet_template(profile: RuleProfile) -> SheetTemplate:
    """The evaluation sheet of this table now, from its game and its rules in force."""
    version = profile.current_version
    parameters = version.parameters if version is not None else {}
    return game_named(profile.game).practical_sheet(parameters)


def practical_required(profile: RuleProfile) -> bool:
    """Whether a certification at this table needs a passed sheet: the table's own setting
    when the house set one (RuleProfile.practical_required), else the jurisdiction's rule
    and the table's sheet both say so."""
    if profile.practical_required is not None:
        return profile.practical_required
    return jurisdiction_in_force().practical_required and sheet_template(profile).practical_required


def _seconds(value: Any, words: str) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        seconds = Decimal(str(value).strip())
    except InvalidOperation:
        raise ProductError(f"{words}: the time is not a number of seconds", field="timed") from None
    if not seconds.is_finite() or seconds < 0 or seconds > MAX_SECONDS:
        raise ProductError(f"{words}: the time must be 0 to {MAX_SECONDS} seconds", field="timed")
    return seconds.quantize(Decimal("0.1"))


def _score(value: Any, words: str) -> int:
    try:
        score = int(str(value).strip())
    except (TypeError, ValueError):
        raise ProductError(
            f"{words}: score it {RUBRIC_LOW} to {RUBRIC_HIGH}", field="rubric"
        ) from None
    if not RUBRIC_LOW <= score <= RUBRIC_HIGH:
        raise ProductError(f"{words}: score it {RUBRIC_LOW} to {RUBRIC_HIGH}", field="rubric")
    return score


def marks_parsed(template: SheetTemplate, given: Mapping[str, Any]) -> Marks:
    """The evaluator's marks, strictly: every rubric line scored, nothing the sheet does
    not have."""
    procedures = dict(given.get("procedures") or {})
    timed = dict(given.get("timed") or {})
    rubric = dict(given.get("rubric") or {})
    known = (
        ("procedures", procedures, {p.code for p in template.procedures}),
        ("timed", timed, {t.code for t in template.timed}),
        ("rubric", rubric, {r.code for r in template.rubric}),
    )
    for part, values, codes in known:
        unknown = sorted(set(values) - codes)
        if unknown:
            raise ProductError(f"this sheet has no such item: {', '.join(unknown)}", field=part)
    return Marks(
        procedures={p.code: bool(procedures.get(p.code)) for p in template.procedures},
        timed={t.code: _seconds(timed.get(t.code), t.words) for t in template.timed},
        rubric={r.code: _score(rubric.get(r.code), r.words) for r in template.rubric},
    )


def _require_evaluator(*, evaluator: User, trainee: User) -> None:
    visibility.not_for_oneself(
        user=evaluator, trainee_id=trainee.pk, doing="evaluates their own practical test"
    )
    if not visibility.viewer_may_act_for(user=evaluator, trainee=trainee):
        raise ForbiddenError(
            "only a pit boss of the trainee's class, or an administrator, evaluates their "
            "practical test"
        )


def _corrected(corrects: PracticalSheet | None, trainee: User, profile: RuleProfile) -> None:
    if corrects is None:
        return
    if corrects.trainee_id != trainee.pk or corrects.profile_id != profile.pk:
        raise NotFoundError("no such sheet of this trainee at this table", field="corrects")
    locked = PracticalSheet.objects.select_for_update().filter(pk=corrects.pk).first()
    if locked is None or PracticalSheet.objects.filter(corrects=corrects).exists():
        raise ConflictError(
            "this sheet was already corrected: correct the newest one", field="corrects"
        )


def practical_sheet_sign(
    *,
    trainee: User,
    profile: RuleProfile,
    evaluator: User,
    password: str,
    request: HttpRequest,
    marks: Mapping[str, Any],
    comments: str = "",
    corrects: PracticalSheet | None = None,
) -> PracticalSheet:
    """Sign an evaluation sheet of ``trainee`` dealing ``profile``'s table; with
    ``corrects``, a correction of an earlier sheet (a new row pointing back at it)."""
    _require_evaluator(evaluator=evaluator, trainee=trainee)
    authority = signature_authorised(signer=evaluator, form=SignedForm.PRACTICAL_SHEET)
    full_name = check_signature(signer=evaluator, password=password, request=request)
    comments = (comments or "").strip()
    if len(comments) > MAX_TEXT:
        raise ProductError(f"comments are longer than {MAX_TEXT} characters", field="comments")
    template = sheet_template(profile)
    parsed = marks_parsed(template, marks)
    outcome = sheet_outcome(template, parsed)
    with transaction.atomic():
        _corrected(corrects, trainee, profile)
        sheet = PracticalSheet.objects.create(
            trainee=trainee,
            profile=profile,
            evaluator=evaluator,
            evaluator_full_name=full_name,
            evaluator_rank=authority.rank.value,
            evaluator_licence=authority.licence_number,
            signed_at=timezone.now(),
            template=template.as_dict(),
            marks={
                "procedures": dict(parsed.procedures),
                "timed": {k: None if v is None else str(v) for k, v in parsed.timed.items()},
                "rubric": dict(parsed.rubric),
            },
            comments=comments,
            score=outcome.score,
            passed=outcome.passed,
            shortfalls=list(outcome.shortfalls),
            corrects=corrects,
        )
        ledger_append(
            event=Event.PRACTICAL_SHEET_SIGNED,
            subject_type=Subject.PRACTICAL_SHEET,
            subject_id=sheet.pk,
            payload={
                "trainee_id": trainee.pk,
                "profile": profile.name,
                "evaluator_id": evaluator.pk,
                "evaluator_full_name": full_name,
                "evaluator_rank": sheet.evaluator_rank,
                "evaluator_licence": sheet.evaluator_licence,
                "signed_at": sheet.signed_at,
                "marks": sheet.marks,
                "comments": comments,
                "score": str(sheet.score),
                "passed": sheet.passed,
                "shortfalls": sheet.shortfalls,
                "corrects": corrects.pk if corrects else None,
                "vouches": row_vouches(PracticalSheet, [sheet.pk]),
            },
            actor=evaluator,
        )
    return sheet


def sheet_in_force(*, trainee_id: int, profile_id: int) -> PracticalSheet | None:
    """The trainee's newest sheet at this table that no later sheet corrects."""
    return (
        PracticalSheet.objects.filter(
            trainee_id=trainee_id, profile_id=profile_id, corrections__isnull=True
        )
        .order_by("-signed_at", "-pk")
        .first()
    )


def practical_refusal(*, trainee: User, profile: RuleProfile) -> str | None:
    """Why a certification of ``trainee`` at this table cannot rest on their practical
    test (None: a passed sheet is in force, or the table needs none). The trainee's sheets
    must be as the ledger recorded them."""
    if not practical_required(profile):
        return None
    ids = PracticalSheet.objects.filter(trainee=trainee).values_list("pk", flat=True)
    if vouch_problems(PracticalSheet, ids):
        security_log.error("sign-off refused: trainee %s's practical sheets differ", trainee.pk)
        return (
            "this trainee's practical evaluation sheets differ from what the audit ledger "
            "recorded, so they were changed outside the application: ask compliance to run "
            "the ledger check"
        )
    sheet = sheet_in_force(trainee_id=trainee.pk, profile_id=profile.pk)
    if sheet is None:
        return (
            "no practical evaluation sheet is signed for this table: an evaluator watches the "
            "trainee deal it and signs the sheet first"
        )
    if not sheet.passed:
        return (
            f"the practical evaluation sheet {sheet.evaluator_full_name} signed on "
            f"{timezone.localdate(sheet.signed_at):%Y-%m-%d} was not passed"
        )
    return None


def practical_waiting(*, ready: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Of these (trainee id, table id) pairs, each a table a passed sitting could be
    signed on, those whose table needs a passed practical sheet the trainee does not have
    in force, each with its table's name: what the pit's pages say before anyone tries to
    sign (the sign-off itself checks again with practical_refusal, the sheets against the
    ledger too). A query for the tables, one for each asked table's rules in force, one
    for the sheets."""
    pairs = set(ready)
    # Every table (a handful), read even when no sitting waits: a page's queries stay the
    # same whoever has passed what.
    tables = RuleProfile.objects.in_bulk()
    required = {
        pk
        for pk in {table for _, table in pairs}
        if pk in tables and practical_required(tables[pk])
    }
    asked = {(trainee, table) for trainee, table in pairs if table in required}
    if not asked:
        return {}
    in_force: dict[tuple[int, int], bool] = {}
    for trainee, table, passed in (
        PracticalSheet.objects.filter(
            trainee_id__in={t for t, _ in asked},
            profile_id__in=required,
            corrections__isnull=True,
        )
        .order_by("signed_at", "pk")
        .values_list("trainee_id", "profile_id", "passed")
    ):
        in_force[(trainee, table)] = passed  # the newest wins
    return {pair: tables[pair[1]].name for pair in asked if not in_force.get(pair, False)}
