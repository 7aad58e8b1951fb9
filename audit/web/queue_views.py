"""The review queue: the mistakes waiting for the viewer's review across their trainees,
oldest first, and the step to the next one ("Mark reviewed and next", "Skip")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from audit.certification import profile_label
from audit.forms import ReviewQueueFilter
from audit.selectors import queue as queue
from audit.web.pit_common import minute, page_number, pit_view, query_with_page
from core import pages
from core.roles import roles_of
from trainer.games import game_named
from trainer.labels import category_label, points_text
from trainer.models import Grade
from trainer.selectors import visibility


@dataclass(frozen=True)
class _QueueRow:
    """One waiting mistake as the queue lists it, written out."""

    url: str
    trainee: str
    submitted: str
    drill: str
    mode: str
    table: str
    position: int
    question: str
    category: str
    money: str  # the money a mistake moved, or the points it lost in a game counting points
    in_points: bool


def _row(grade: Grade, query: str) -> _QueueRow:
    attempt = grade.run.attempt
    trainee = attempt.trainee
    name = trainee.get_full_name()
    return _QueueRow(
        url=f"{reverse('pit:grade', args=[grade.pk])}?{urlencode([('from', 'queue')])}"
        + (f"&{query}" if query else ""),
        trainee=f"{name} ({trainee.username})" if name else trainee.username,
        submitted=minute(attempt.submitted_at),
        drill=attempt.drill.title,
        mode=attempt.get_mode_display(),
        table=profile_label(grade.item.profile_version.profile),
        position=grade.item.position,
        question=game_named(attempt.drill.game).kind_words(grade.kind),
        category=category_label(grade.category) or "missed",
        money=str(grade.money_diff)
        if grade.points_diff is None
        else points_text(grade.points_diff),
        in_points=grade.points_diff is not None,
    )


def queue_trainees(user: Any) -> QuerySet[Any]:
    """Whose mistakes a queue holds: the trainees one reviews (a pit boss: their classes'; an
    administrator: everyone's; never one's own); for a compliance officer, who reviews
    nobody, every trainee's, read-only (the department's backlog)."""
    if roles_of(user) & set(pages.PIT_ACTORS):
        return visibility.trainees_actable_by(user=user)
    return visibility.trainees_visible_to(user=user)


@require_GET
@pit_view()
def review_queue(request: HttpRequest) -> HttpResponse:
    """Mistakes waiting for a review, oldest first, 25 to a page; by table, skill, trainee."""
    trainees = queue_trainees(request.user)
    filterset = ReviewQueueFilter(request.GET or None, trainees=trainees)
    query = filterset.query()
    waiting = queue.waiting_reviews(trainees=trainees, filters=filterset.as_queue_filter())
    paginator = Paginator(queue.queue_rows(waiting), queue.QUEUE_PER_PAGE)
    page = paginator.get_page(page_number(request))
    first = page.object_list[0] if page.object_list else None
    rows = [_row(grade, query) for grade in page.object_list]
    context = {
        "filterset": filterset,
        "rows": rows,
        # A page with a game counting points heads the column for both, never adding them.
        "cost_heading": "Money or points" if any(row.in_points for row in rows) else "Money",
        "page": page,
        "count": paginator.count,
        "start_url": _row(first, query).url if first is not None else "",
        "reviews": bool(roles_of(request.user) & set(pages.PIT_ACTORS)),
        "previous_page": query_with_page(request, page.number - 1) if page.has_previous() else None,
        "next_page": query_with_page(request, page.number + 1) if page.has_next() else None,
    }
    return render(request, "audit/pit/queue.html", context)


@require_GET
@pit_view()
def queue_next(request: HttpRequest) -> HttpResponse:
    """The next waiting mistake after ``after`` (the one just reviewed or skipped), under
    the queue's filters; the queue itself once nothing else waits."""
    trainees = queue_trainees(request.user)
    filterset = ReviewQueueFilter(request.GET, trainees=trainees)
    query = filterset.query()
    queue_url = reverse("pit:queue") + (f"?{query}" if query else "")
    if filterset.refused:
        return redirect(f"{reverse('pit:queue')}?{request.GET.urlencode()}")
    after = None
    raw = request.GET.get("after", "")
    if raw:
        after = (
            Grade.objects.select_related("run__attempt", "item")
            .filter(pk=int(raw) if raw.isdigit() else 0, run__attempt__trainee__in=trainees)
            .first()
        )
        if after is None:
            raise Http404("no such mistake among those you review")
    found = queue.queue_next(trainees=trainees, filters=filterset.as_queue_filter(), after=after)
    if found is None:
        messages.success(
            request,
            "Nothing else waits for your review" + (" under these filters." if query else "."),
        )
        return redirect(queue_url)
    return redirect(
        f"{reverse('pit:grade', args=[found])}?from=queue" + (f"&{query}" if query else "")
    )
