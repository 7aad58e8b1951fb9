"""Write a compliance report to a file and log the export to the ledger.

manage.py export_compliance_report --from 2026-01-01 --to 2026-03-31 --format pdf --out q1.pdf
"""

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.services.reports.lifecycle import compliance_report_export
from audit.services.reports.rows import FORMATS
from core.errors import ProductError, echo
from core.usernames import users_with_username


def _date(name: str, value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--{name} must be a date as YYYY-MM-DD, not {echo(value)}") from None


class Command(BaseCommand):
    help = "Write the compliance report of a period as CSV or PDF and log the export."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="start", required=True, help="first day, YYYY-MM-DD")
        parser.add_argument("--to", dest="end", required=True, help="last day, YYYY-MM-DD")
        parser.add_argument("--format", dest="fmt", required=True, choices=FORMATS)
        parser.add_argument("--out", required=True, help="the file to write")
        parser.add_argument("--user", help="the username the ledger records as exporting")

    def handle(self, *args: Any, **options: Any) -> None:
        start, end = _date("from", options["start"]), _date("to", options["end"])
        if start > end:
            raise CommandError(f"--from ({start}) is after --to ({end})")
        out = Path(options["out"])
        if not out.parent.is_dir():
            raise CommandError(f"--out: the folder {out.parent} does not exist")
        actor = None
        if options["user"]:
            actor = users_with_username(options["user"]).first()
            if actor is None:
                raise CommandError(f"--user: no user named {echo(options['user'])}")
        try:
            exported = compliance_report_export(
                start=start, end=end, fmt=options["fmt"], out=out, actor=actor
            )
        except ProductError as exc:
            raise CommandError(exc.message) from exc
        verification = exported.verification
        self.stdout.write(f"wrote {exported.path} ({exported.size_bytes} bytes)")
        self.stdout.write(f"sha256: {exported.sha256}")
        self.stdout.write(
            f"ledger: {verification.entries} entries, "
            f"{'OK' if verification.ok else 'BROKEN'}, head hash {verification.head_hash}"
        )
