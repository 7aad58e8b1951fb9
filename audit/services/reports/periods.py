"""The report's preset periods: last month, last quarter, year to date, in whole days of the
house's time zone (today is `django.utils.timezone.localdate`, the house's date)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

# Their words on the request form, in the order offered.
PRESETS = {
    "last_month": "Last month",
    "last_quarter": "Last quarter",
    "year_to_date": "Year to date",
}


def preset_period(name: str, *, today: dt.date | None = None) -> tuple[dt.date, dt.date]:
    """The first and last day (both included) of a preset period, as of `today` (the
    house's date unless given): the last whole calendar month or quarter before today's, or
    1 January to today."""
    today = today or timezone.localdate()
    if name == "last_month":
        end = today.replace(day=1) - dt.timedelta(days=1)
        return end.replace(day=1), end
    if name == "last_quarter":
        quarter_start = today.replace(month=(today.month - 1) // 3 * 3 + 1, day=1)
        end = quarter_start - dt.timedelta(days=1)
        return end.replace(month=(end.month - 1) // 3 * 3 + 1, day=1), end
    if name == "year_to_date":
        return today.replace(month=1, day=1), today
    raise ValueError(f"no preset period {name!r}")


def preset_choices(*, today: dt.date | None = None) -> list[tuple[str, str]]:
    """The presets as the form offers them, each with its days: "Last month (1 Oct to 31 Oct
    2026)"."""
    choices = []
    for name, label in PRESETS.items():
        start, end = preset_period(name, today=today)
        choices.append((name, f"{label} ({_day(start)} – {_day(end)})"))
    return choices


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%b %Y}"
