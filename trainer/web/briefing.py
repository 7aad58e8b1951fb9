"""The sitting's briefing: before an exam, a table test or a speed round starts, the
trainee reads what it is and what a pass counts for, and starts it with a button of its
own. Reading the page (GET) starts nothing; a start from the trainee's pages that did not
come through it is sent to it (issue #24)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.errors import NotFoundError, ProductError
from trainer.models import AttemptStatus
from trainer.selectors.attempts import assignments_for_trainee, attempts_for_trainee
from trainer.selectors.sittings import briefing_of


def briefing_page(
    request: HttpRequest, assignment_id: int, *, error: ProductError | None = None
) -> HttpResponse:
    user = request.user
    assert isinstance(user, AbstractBaseUser)  # the trainee's pages require one
    assignment = assignments_for_trainee(user=user).filter(pk=assignment_id).first()
    if assignment is None:
        raise NotFoundError("no such assignment", field="assignment")
    in_progress = (
        attempts_for_trainee(user=user)
        .filter(assignment=assignment, status=AttemptStatus.IN_PROGRESS)
        .first()
    )
    context = {
        "briefing": briefing_of(assignment=assignment, trainee_id=user.pk),
        "in_progress": in_progress,
        "error": error,
    }
    return render(request, "trainer/briefing.html", context, status=error.status if error else 200)
