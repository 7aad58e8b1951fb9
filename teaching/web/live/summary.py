"""A live session's summary: its questions, the room's count of each answer, and who
attended, as a page and as a CSV (dealer words; times in the house's time zone)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_GET

from core.postgres import csv_line
from teaching.selectors import live_sessions as live
from teaching.web.live.driver import _me, teach_view


@require_GET
@teach_view
def summary(request: HttpRequest, session_id: int) -> HttpResponse:
    session = live.live_session_for_driver(session_id=session_id, user=_me(request))
    rows, people = live.live_summary(session)
    context = {"session": session, "rows": rows, "people": people}
    return render(request, "trainer/workspace/live_summary.html", context)


def _when(moment: object) -> str:
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[arg-type]


HEADINGS = (
    "Question",
    "Round",
    "Asked",
    "Right answer",
    "Answered",
    "Right",
    "Answer given",
    "How many gave it",
    "Opened",
    "Closed",
)


@require_GET
@teach_view
def summary_csv(request: HttpRequest, session_id: int) -> HttpResponse:
    session = live.live_session_for_driver(session_id=session_id, user=_me(request))
    rows, people = live.live_summary(session)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"class-session-{session.code}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'

    def line(*cells: object) -> None:
        response.write(csv_line([str(cell) for cell in cells]))

    line("Class session", session.drill.title)
    line("Class", session.training_class.name)
    line("Code", session.code)
    line("Started", _when(session.opened_at))
    line("Ended", _when(session.ended_at))
    line()
    line(
        "Question",
        "Round",
        "Asked",
        "Right answer",
        "Answered",
        "Right",
        "Answer given",
        "How many",
        "Opened",
        "Closed",
    )
    for row in rows:
        given = row.answers or [("", 0, False)]
        for words, count, _ in given:
            line(
                row.number,
                row.position,
                row.question,
                row.right_answer,
                row.answered,
                row.right,
                words,
                count if words else "",
                _when(row.opened_at),
                _when(row.closed_at),
            )
    line()
    line("Attended", "Questions answered")
    for person, answered in people:
        line(person, answered)
    return response


urlpatterns = [
    path("live/<id:session_id>/summary/", summary, name="live-summary"),
    path("live/<id:session_id>/summary.csv", summary_csv, name="live-summary-csv"),
]
