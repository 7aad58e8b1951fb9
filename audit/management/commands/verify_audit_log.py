"""Recompute the ledger's hash chain: `manage.py verify_audit_log`.

Prints how many entries were checked and the head hash; exits 1 naming the first broken
entry when the chain does not hold.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from audit.services.ledger import ledger_verify


class Command(BaseCommand):
    help = "Recompute the audit ledger's hash chain and name the first broken entry, if any."

    def handle(self, *args: Any, **options: Any) -> None:
        result = ledger_verify()
        self.stdout.write(f"entries checked: {result.entries}")
        if result.first_break is not None:
            # Past the break nothing is vouched for, so the last hash that still holds is shown.
            self.stdout.write(f"last intact hash: {result.head_hash}")
            raise CommandError(
                f"BROKEN at entry {result.first_break.sequence}: {result.first_break.reason}",
                returncode=1,
            )
        self.stdout.write(f"head hash: {result.head_hash}")
        self.stdout.write(self.style.SUCCESS("OK: the chain holds"))
