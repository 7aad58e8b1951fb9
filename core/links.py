"""How long an e-mailed link to choose a password works (an invitation's or a reset's),
in the words the e-mails and pages say it: Django's PASSWORD_RESET_TIMEOUT, set in days
by SHOESCHOOL_PASSWORD_LINK_DAYS (7 by default)."""

from __future__ import annotations

from django.conf import settings


def link_validity_words() -> str:
    """ "7 days", "1 day"; a timeout set shorter or uneven (a test's) in hours or minutes."""
    seconds = int(settings.PASSWORD_RESET_TIMEOUT)
    size, unit = 60, "minute"
    for whole, name in ((86400, "day"), (3600, "hour")):
        if seconds >= whole and seconds % whole == 0:
            size, unit = whole, name
            break
    count = max(1, seconds // size)
    return f"{count} {unit}{'' if count == 1 else 's'}"
