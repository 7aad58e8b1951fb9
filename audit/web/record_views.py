"""The trainee's own record: what the pit has said and decided about their work (review
comments, retraining flags, certifications) and their progress by skill. It lives with
the pit's pages because it reads the pit's records; only the trainee sees it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from audit import selectors as audit_selectors
from audit.certification import CertificationRule
from audit.web.views import standing_badge
from config import pages
from core.access import role_required
from trainer.models import ErrorCategory
from trainer.selectors.progress import TARGET, skill_progress
from trainer.web.display import answer_label


@require_GET
@role_required(*pages.RECORD.roles, refusal=pages.RECORD.refusal)
def my_record(request: HttpRequest) -> HttpResponse:
    me: AbstractBaseUser = request.user  # type: ignore[assignment]
    rule = CertificationRule.from_settings()
    flags = audit_selectors.flags_in_force(trainee_ids=[me.pk]).get(me.pk, [])
    overview = audit_selectors.certification_overview(
        trainee_ids=[me.pk], rule=rule, flags={me.pk: flags}
    )
    tables = audit_selectors.standings_at_every_table(states=overview.states.get(me.pk, []))
    categories = dict(ErrorCategory.choices)
    reviews: list[dict[str, Any]] = [
        {
            "review": review,
            "attempt": review.grade.run.attempt,
            "round": review.grade.item.position,
            "question": review.grade.question,
            "category": categories.get(review.grade.category, ""),
            "given": answer_label(review.grade.given),
            "expected": answer_label(review.grade.expected),
        }
        for review in audit_selectors.reviews_for_trainee(trainee_id=me.pk)
    ]
    refreshers = audit_selectors.refresher_results(trainee_id=me.pk)
    context = {
        "reviews": reviews,
        "flags_in_force": flags,
        "flag_history": audit_selectors.flags_with_refreshers(
            audit_selectors.flag_history(trainee_id=me.pk), refreshers
        ),
        "refreshers": refreshers,
        "tables": [(state, standing_badge(state, with_table=False)) for state in tables],
        "progress": skill_progress(trainee_id=me.pk),
        "target": TARGET,
        "valid_months": rule.valid_months,
    }
    return render(request, "audit/record/mine.html", context)
