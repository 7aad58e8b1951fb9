"""Calendar days as instants, and instants as people read them: the one conversion every
date filter uses, and the house's time (settings.TIME_ZONE, the current time zone) as the
pages, PDFs and CSVs write it."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from core.errors import ProductError


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


def house_moment(moment: dt.datetime, *, field: str) -> dt.datetime:
    """A date and time typed without an offset, read in the house's time zone (a moment
    with an offset is kept as it is). Of the hour the clocks go back, the first pass is
    meant; a time the clocks skip (02:30 the night they go forward) is refused, naming
    `field`."""
    if moment.utcoffset() is not None:
        return moment
    zone = timezone.get_current_timezone()
    local = moment.replace(tzinfo=zone, fold=0)
    try:
        back = local.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None)
    except OverflowError:
        raise ProductError("the date is out of range", field=field) from None
    if back != moment:
        raise ProductError(
            f"{moment:%H:%M} on {moment:%Y-%m-%d} does not exist in {house_zone_name()}: "
            "the clocks go forward that night; give a time after the change",
            field=field,
        )
    return local


def house_zone_name() -> str:
    """The house's time zone by its IANA name ("America/New_York")."""
    return timezone.get_current_timezone_name()


def house_minute(instant: dt.datetime) -> str:
    """An instant as the PDFs write it, in the house's time zone with the zone's
    abbreviation then in force: "2026-11-23 09:39 EST"."""
    local = timezone.localtime(instant)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def house_second(instant: dt.datetime | None) -> str:
    """An instant as the CSVs write it, to the second: "2026-11-23 09:39:05 EST" ("" for
    None). The abbreviation tells the two 01:30s of the night the clocks go back apart."""
    if instant is None:
        return ""
    local = timezone.localtime(instant)
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname()}"


def utc_offset_text(offset: dt.timedelta) -> str:
    """ "UTC", "UTC+01:00", "UTC-05:00", "UTC+05:45"."""
    minutes = round(offset.total_seconds() / 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def zone_abbreviations(*, start: dt.date, end: dt.date) -> dict[int, str]:
    """The abbreviation the house's zone goes by at each of its UTC offsets (in seconds)
    over the days start..end (a month either side), read every six hours: what a SQL writer
    needs to spell an instant as `house_second` does. An offset that went by two names in
    the range is left out (its instants then carry their offset, "UTC-05:00")."""
    zone = timezone.get_current_timezone()
    moment = dt.datetime.combine(start - dt.timedelta(days=31), dt.time.min, tzinfo=dt.UTC)
    last = dt.datetime.combine(end + dt.timedelta(days=32), dt.time.min, tzinfo=dt.UTC)
    seen: dict[int, set[str]] = {}
    while moment <= last:
        local = moment.astimezone(zone)
        offset = local.utcoffset()
        if offset is not None:
            seen.setdefault(int(offset.total_seconds()), set()).add(local.tzname() or "")
        moment += dt.timedelta(hours=6)
    return {offset: names.pop() for offset, names in seen.items() if len(names) == 1}


def zone_statement(*, on: dt.date | None = None) -> str:
    """The sentence every PDF and CSV that shows times states: "Times are in
    America/New_York (EST, UTC-05:00; EDT, UTC-04:00 in daylight saving time)." The zone's
    names over the year around `on` (today if None); "Times are in UTC." for UTC."""
    name = house_zone_name()
    zone = timezone.get_current_timezone()
    day = on or timezone.localdate()
    names: dict[tuple[str, dt.timedelta], bool] = {}
    for month in (1, 7):
        noon = dt.datetime(day.year, month, 1, 12, tzinfo=zone)
        offset, dst = noon.utcoffset(), noon.dst()
        if offset is not None:
            names.setdefault((noon.tzname() or "", offset), bool(dst))
    if name == "UTC" or list(names) == [("UTC", dt.timedelta(0))]:
        return "Times are in UTC."
    parts = [
        f"{abbreviation}, {utc_offset_text(offset)}" + (" in daylight saving time" if dst else "")
        for (abbreviation, offset), dst in sorted(names.items(), key=lambda item: item[1])
    ]
    return f"Times are in {name} ({'; '.join(parts)})."
