"""Grade submitted attempts again as new grading runs, after a profile or scenario fix."""

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from core.dates import days_bounds
from core.errors import ProductError, echo
from trainer.selectors.runs import regrade_candidates
from trainer.services.grading.request import regrade_request


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{echo(text)} is not a date like 2026-01-31") from None


class Command(BaseCommand):
    help = (
        "Regrade submitted attempts (by profile, drill, attempt or submission dates) as new "
        "grading runs; the earlier runs stay for the record and the newest is current."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--profile", help="attempts with a round under this rule profile")
        parser.add_argument("--drill", type=int, help="attempts at this drill (id)")
        parser.add_argument("--attempt", type=int, help="this attempt (id)")
        parser.add_argument("--from", dest="date_from", help="submitted on or after this day")
        parser.add_argument("--to", dest="date_to", help="submitted on or before this day")
        parser.add_argument("--reason", default="", help="what was corrected (recorded)")
        parser.add_argument(
            "--dry-run", action="store_true", help="list the attempts, regrade nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        date_from = _date(options["date_from"]) if options["date_from"] else None
        date_to = _date(options["date_to"]) if options["date_to"] else None
        if date_from and date_to and date_to < date_from:
            raise CommandError("--to is before --from")
        submitted_from, submitted_to = days_bounds(start=date_from, end=date_to)
        try:
            attempts = regrade_candidates(
                profile=options["profile"],
                drill_id=options["drill"],
                attempt_id=options["attempt"],
                # The whole of the --to day is included.
                submitted_from=submitted_from,
                submitted_to=submitted_to,
            )
        except ProductError as exc:
            raise CommandError(exc.message) from exc
        chosen = list(attempts)
        if options["dry_run"]:
            for attempt in chosen:
                self.stdout.write(str(attempt))
            self.stdout.write(f"{len(chosen)} attempt(s) would be regraded")
            return
        if not chosen:
            self.stdout.write("no submitted attempt matches; nothing to regrade")
            return
        reason = options["reason"] or "regraded with manage.py regrade " + " ".join(
            f"--{key}={options[key]}"
            for key in ("profile", "drill", "attempt", "date_from", "date_to")
            if options[key]
        )
        try:
            with transaction.atomic():
                runs = regrade_request(attempts=chosen, reason=reason)
        except ProductError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            self.style.SUCCESS(f"queued {len(runs)} regrade run(s) for {len(chosen)} attempt(s)")
        )
