"""What the pit's pages share: their access decorator, a trainee's standing at a table in
words, times as the house reads them, and the page number of a list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Concatenate, ParamSpec

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from audit.selectors import pit as audit_selectors
from core import pages
from core.access import role_required
from core.roles import Role

P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponse]

NO_FIGURE = "—"


def pit_view(*, write: bool = False) -> Callable[[View[P]], View[P]]:
    """Pit bosses and admins act; compliance officers also read (core.pages, which the
    top bar follows too)."""
    roles = pages.PIT_ACTORS if write else pages.PIT.roles
    return role_required(*roles, refusal=pages.PIT.refusal)


@dataclass(frozen=True)
class Badge:
    """A trainee's standing at one table, written out: the words and their tone (good,
    warn, bad, plain or muted)."""

    text: str
    tone: str
    # Where to go about it (the practical test a signature waits on), if anywhere.
    url: str = ""


def day(when: datetime | None) -> str:
    return timezone.localtime(when).date().isoformat() if when else "?"


def minute(when: datetime | None) -> str:
    return timezone.localtime(when).strftime("%Y-%m-%d %H:%M") if when else "?"


def standing_badge(
    state: audit_selectors.TableState, *, with_table: bool = True, practical_url: str = ""
) -> Badge:
    """What the pit reads for a trainee's standing at a table (named first, unless the
    page already names it); with ``practical_url``, its passed sitting waits on the
    practical test, found there."""
    standing = audit_selectors.TableStanding
    when = day(state.when)
    renew = "; a passed sitting can renew it" if state.ready else ""
    if practical_url and state.ready:
        renew = "; a renewal waits on the practical test"
    match state.standing:
        case standing.CERTIFIED:
            text, tone = f"certified until {when}{renew}", "good"
        case standing.EXPIRING:
            text, tone = f"certified until {when}, expiring soon{renew}", "warn"
        case standing.EXPIRED:
            text, tone = f"certification expired {when}", "bad"
        case standing.WITHDRAWN:
            text, tone = f"certification withdrawn {when}", "bad"
        case standing.PASSED if practical_url:
            text, tone = "passed, not signed: the practical test is missing", "warn"
        case standing.PASSED:
            text, tone = "passed, not signed", "plain"
        case standing.NOT_PASSED:
            text, tone = "not passed", "muted"
        case _:
            text, tone = "not sat", "muted"
    text = f"{state.profile}: {text}" if with_table else text
    return Badge(text, tone, practical_url if state.ready else "")


def role_label(value: str) -> str:
    """The role a signer signed in, as a person reads it ("" when not recorded)."""
    try:
        return Role(value).label
    except ValueError:
        return ""


def page_number(request: HttpRequest) -> int:
    """A list's page from ?page=N; anything else is the first page."""
    raw = request.GET.get("page", "1")
    return int(raw) if raw.isdigit() and 0 < int(raw) < 100_000 else 1


def query_with_page(request: HttpRequest, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return query.urlencode()
