"""Calendar days as instants: the one conversion every date filter uses."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def day_start(day: dt.date) -> dt.datetime:
    """The first instant of the day in the current time zone."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=timezone.get_current_timezone())


def days_bounds(
    *, start: dt.date | None, end: dt.date | None
) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The instants [lower, upper) that the days start..end (both included) cover in the
    current time zone; None for a side left open."""
    return (
        day_start(start) if start is not None else None,
        day_start(end + dt.timedelta(days=1)) if end is not None else None,
    )
