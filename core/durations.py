"""Durations as people read them: "1.6 s", "39 s", "1 min 40 s", "1 h 39 min 59 s".

The one writer for a time taken or left, on the pages (the `duration` filter of
`core.templatetags.house`), in the PDFs and in the CSVs' columns for people; the table's
countdown (static/js/table.js, `durationText`) writes whole seconds the same way. Columns
for programs keep their unit in their name (`response_ms`, `mean_seconds`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

NO_DURATION = "—"

_UNITS = {"s": Decimal(1), "ms": Decimal("0.001")}


def duration_text(value: object, unit: str = "s") -> str:
    """A duration given in `unit` ("s" or "ms"), written out: under ten seconds to the
    tenth where the tenth says something ("1.6 s", "8 s"), then whole seconds ("39 s"),
    minutes and seconds ("1 min 40 s", "5 min"), hours ("1 h 39 min 59 s", "2 h").
    None (or no number) is "—"."""
    if value is None or value == "" or isinstance(value, bool):
        return NO_DURATION
    try:
        seconds = Decimal(str(value)) * _UNITS[unit]
    except (InvalidOperation, ValueError):
        return NO_DURATION
    if not seconds.is_finite():
        return NO_DURATION
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    tenths = seconds.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if tenths < 10 and tenths != tenths.to_integral_value():
        return f"{sign}{tenths} s"
    whole = int(seconds.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return sign + whole_seconds_text(whole)


def whole_seconds_text(seconds: int) -> str:
    """Whole seconds written out, the parts that are not zero: "0 s", "59 s", "1 min",
    "1 min 5 s", "1 h 40 min", "1 h 39 min 59 s" (as the table's countdown writes them)."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs or not (hours or minutes) else "")
    return " ".join(part for part in parts if part)
