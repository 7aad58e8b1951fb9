"""The observed practical test in the pit: the evaluation sheet an evaluator fills on a
tablet while watching the trainee deal a table (procedure items, timed items with a
stopwatch, rubric lines, comments), signed with their password; the trainee's signed
sheets, each correctable by a new signed sheet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from audit.authority import SignedForm, rank_label, signature_text
from audit.certification import profile_label
from audit.models import PracticalSheet
from audit.services import practical
from audit.web.authority_words import signature_words
from audit.web.pit_common import minute, pit_view
from audit.web.trainee_views import _head, _trainee
from core.errors import ProductError
from trainer.games.observing import RUBRIC_HIGH, RUBRIC_LOW, SheetTemplate
from trainer.models import RuleProfile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class _SheetRow:
    sheet: PracticalSheet
    table: str
    signature: str
    signed: str
    corrected: bool
    procedures: list[tuple[str, bool, bool]]
    timed: list[tuple[str, str, int]]
    rubric: list[tuple[str, int, int]]


def _sheet_row(sheet: PracticalSheet, corrected: set[int]) -> _SheetRow:
    template = SheetTemplate.from_dict(sheet.template)
    marks = sheet.marks
    return _SheetRow(
        sheet=sheet,
        table=profile_label(sheet.profile),
        signature=signature_text(
            sheet.evaluator_full_name, sheet.evaluator_rank, sheet.evaluator_licence
        ),
        signed=minute(sheet.signed_at),
        corrected=sheet.pk in corrected,
        procedures=[
            (p.words, bool(marks["procedures"].get(p.code)), p.critical)
            for p in template.procedures
        ],
        timed=[
            (t.words, marks["timed"].get(t.code) or "not timed", t.target_seconds)
            for t in template.timed
        ],
        rubric=[(r.words, marks["rubric"].get(r.code, 0), r.weight) for r in template.rubric],
    )


def _table(request: HttpRequest) -> RuleProfile | None:
    name = request.POST.get("table") or request.GET.get("table")
    tables = RuleProfile.objects.order_by("title", "name")
    return (tables.filter(name=name).first() if name else None) or tables.first()


def _corrects(request: HttpRequest, trainee: User) -> PracticalSheet | None:
    value = request.POST.get("corrects") or request.GET.get("corrects") or ""
    if not value.isdigit():
        return None
    return PracticalSheet.objects.filter(pk=int(value), trainee=trainee).first()


def _posted_marks(request: HttpRequest, template: SheetTemplate) -> dict[str, Any]:
    post = request.POST
    return {
        "procedures": {p.code: post.get(f"proc-{p.code}") == "on" for p in template.procedures},
        "timed": {t.code: post.get(f"time-{t.code}", "") for t in template.timed},
        "rubric": {r.code: post.get(f"rubric-{r.code}", "") for r in template.rubric},
    }


def _page(
    request: HttpRequest, trainee: User, *, error: str = "", status: int = 200
) -> HttpResponse:
    context = _head(request, trainee, "practical")
    profile = _table(request)
    template = practical.sheet_template(profile) if profile is not None else None
    sheets = list(
        PracticalSheet.objects.filter(trainee=trainee)
        .select_related("profile")
        .order_by("-signed_at", "-pk")
    )
    corrected = {s.corrects_id for s in sheets if s.corrects_id}
    posted = request.POST if request.method == "POST" else {}
    context.update(
        tables=[(t.name, profile_label(t)) for t in RuleProfile.objects.order_by("title", "name")],
        table=profile,
        table_label=profile_label(profile) if profile else "",
        template=template,
        scores=range(RUBRIC_LOW, RUBRIC_HIGH + 1),
        posted=posted,
        corrects=_corrects(request, trainee),
        sheets=[_sheet_row(s, corrected) for s in sheets],
        signature=signature_words(request.user, SignedForm.PRACTICAL_SHEET),
        rank_label=rank_label,
        error=error,
    )
    return render(request, "audit/pit/trainee_practical.html", context, status=status)


@require_http_methods(["GET", "POST"])
@pit_view()
def trainee_practical(request: HttpRequest, trainee_id: int) -> HttpResponse:
    """The trainee's practical evaluation sheets, and a new one to fill and sign."""
    trainee = _trainee(request, trainee_id)
    if request.method == "GET":
        return _page(request, trainee)
    profile = _table(request)
    if profile is None:
        return _page(request, trainee, error="choose a table", status=400)
    try:
        sheet = practical.practical_sheet_sign(
            trainee=trainee,
            profile=profile,
            evaluator=request.user,  # type: ignore[arg-type]
            password=request.POST.get("password", ""),
            request=request,
            marks=_posted_marks(request, practical.sheet_template(profile)),
            comments=request.POST.get("comments", ""),
            corrects=_corrects(request, trainee),
        )
    except ProductError as error:
        if error.status == 404 or (error.status == 403 and error.field is None):
            raise
        return _page(request, trainee, error=error.message, status=error.status)
    outcome = "passed" if sheet.passed else "not passed"
    messages.success(
        request,
        f"Signed by {sheet.evaluator_full_name}: the practical test at "
        f"{profile_label(profile)}, {sheet.score} %, {outcome}.",
    )
    return redirect(reverse("pit:trainee_practical", args=[trainee.pk]) + f"?table={profile.name}")
