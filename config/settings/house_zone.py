"""The house's time zone: where every time a person reads or types is read.

`SHOESCHOOL_TIME_ZONE` names it (an IANA name: `America/New_York`, `Europe/London`, `UTC`);
`TIME_ZONE`, its older name, is still read. Left unset, it is this computer's own zone (the
`TZ` variable, `/etc/timezone`, or the zone `/etc/localtime` points to), UTC if none can be
found; the tests use UTC unless told. A name that is not a zone stops the start, naming
the variable (docs/operations.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

VARIABLE = "SHOESCHOOL_TIME_ZONE"


# The names of UTC itself, said the one way.
_UTC_NAMES = {"Etc/UTC", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu", "Etc/GMT", "GMT"}


def system_zone_name(
    *, tz: str | None = None, timezone_file: Path | None = None, localtime: Path | None = None
) -> str:
    """This computer's time zone by its IANA name, "UTC" when it cannot be told."""
    name = _system_zone_name(tz=tz, timezone_file=timezone_file, localtime=localtime)
    return "UTC" if name in _UTC_NAMES else name


def _system_zone_name(*, tz: str | None, timezone_file: Path | None, localtime: Path | None) -> str:
    tz = os.environ.get("TZ", "") if tz is None else tz
    if tz.lstrip(":").strip():
        return tz.lstrip(":").strip()
    try:
        named = (timezone_file or Path("/etc/timezone")).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        named = ""
    if named:
        return named
    target = os.path.realpath(localtime or Path("/etc/localtime"))
    if "/zoneinfo/" in target:
        return target.split("/zoneinfo/", 1)[1]
    return "UTC"


def zone_checked(name: str, *, source: str = VARIABLE) -> str:
    """The name, once zoneinfo knows it as a zone; ImproperlyConfigured naming `source`
    otherwise."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ImproperlyConfigured(
            f"{source} is {name!r}, which is not a time zone: give the house's zone by its "
            "IANA name, such as America/New_York, Europe/London or UTC"
        ) from None
    return name


def house_zone_name(*, given: dict[str, str], environment: str) -> str:
    """The zone the settings use: the first variable of `given` set (by name, in order),
    else (tests: UTC) this computer's."""
    for variable, value in given.items():
        if value.strip():
            return zone_checked(value.strip(), source=variable)
    if environment == "test":
        return "UTC"
    found = system_zone_name()
    return zone_checked(found, source=f"this computer's time zone (set {VARIABLE} instead)")
