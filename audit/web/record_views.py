"""The trainee's own record: what the pit has said and decided about their work (review
comments, retraining flags, certifications) and their progress by skill. It lives with
the pit's pages because it reads the pit's records; only the trainee sees it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from audit.certification import CertificationRule
from audit.selectors import pit as audit_selectors
from audit.selectors.progress import TARGET, skill_progress
from audit.web.pit_common import standing_badge
from core import pages
from core.access import role_required
from trainer.games import game_named
from trainer.labels import category_label
from trainer.selectors.pools import PoolState, pool_state


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
    reviews = _reviews_to_read(me)
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
        # Their certifications (not the withdrawals), each with its certificate's links.
        "certifications": [
            c for c in audit_selectors.certification_history(trainee_id=me.pk) if not c.withdrawn
        ],
    }
    return render(request, "audit/record/mine.html", context)


def _reviews_to_read(me: AbstractBaseUser) -> list[dict[str, Any]]:
    """The pit's comments as the trainee may read them. Never one on a question that was
    not put to them (the services refuse such a review; one recorded before is left out),
    and while a fixed exam pool is sealed (trainer.selectors.pools) neither the comment,
    which may name the answer, nor the right answer nor the kind of mistake: only that a
    review waits."""
    pools: dict[int, PoolState] = {}
    out: list[dict[str, Any]] = []
    for review in audit_selectors.reviews_for_trainee(trainee_id=me.pk):
        grade = review.grade
        if str(grade.question) not in (grade.item.questions_shown or {}):
            continue
        attempt = grade.run.attempt
        if attempt.drill_id not in pools:
            pools[attempt.drill_id] = pool_state(drill=attempt.drill)
        pool = pools[attempt.drill_id]
        game = game_named(attempt.drill.game)
        out.append(
            {
                "review": review,
                "attempt": attempt,
                "round": grade.item.position,
                "question": grade.question,
                "sealed": pool.sealed,
                "until": pool.until,
                "category": "" if pool.sealed else category_label(grade.category),
                "given": game.answer_words(grade.given),
                "expected": "" if pool.sealed else game.answer_words(grade.expected),
            }
        )
    return out
