"""Recompute the ledger's hash chain and check it against its anchors: `manage.py verify_audit_log`.

Prints how many entries were checked against how many anchors and the head hash; exits 1
naming the first broken entry, or what else is wrong, when the ledger cannot be trusted.

The whole chain by default: this is the check an auditor runs, and the periodic one
(docs/operations.md), and only it catches an entry changed in place before the last
checkpoint. --since-checkpoint recomputes only the entries after the newest trusted
checkpoint, as the compliance reports do (docs/security.md says what that trusts).
"""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.services.anchors import checkpoint_file
from ledger.services.verify import ledger_verify


class Command(BaseCommand):
    help = (
        "Recompute the audit ledger's hash chain, check it against its stored head, the "
        "heads the compliance reports state and the checkpoint file, and name the first "
        "broken entry, if any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--anchors",
            type=Path,
            metavar="FILE",
            help=(
                "heads kept outside the system, one a line: the entry count and the head "
                "hash separated by a space, or a line copied from the checkpoint file"
            ),
        )
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help=(
                "recompute only the entries after the newest checkpoint whose HMAC holds and "
                "whose head the stored entries still have (the whole chain when there is none)"
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        anchors_file: Path | None = options["anchors"]
        if anchors_file is not None and not anchors_file.is_file():
            raise CommandError(f"no such anchors file: {anchors_file}", returncode=2)
        checkpoints = checkpoint_file()
        if not checkpoints.is_file():
            self.stdout.write(f"checkpoint file: none at {checkpoints}")
        result = ledger_verify(anchors_file=anchors_file, full=not options["since_checkpoint"])
        if result.incremental:
            self.stdout.write(
                f"verified: since the checkpoint at entry {result.verified_from} "
                f"({result.verified_from_source})"
            )
            self.stdout.write(f"entries recomputed: {result.entries - result.verified_from}")
        else:
            self.stdout.write("verified: every entry, from the first")
        self.stdout.write(f"entries checked: {result.entries}")
        self.stdout.write(f"anchors checked: {result.anchors}")
        if result.rows_scope:
            self.stdout.write(f"rows checked against the ledger: {result.rows_checked}")
            self.stdout.write(f"rows checked: {result.rows_scope}")
        for warning in result.warnings:
            self.stdout.write(f"warning: {warning}")
        for problem in result.problems:
            self.stdout.write(f"problem: {problem}")
        if result.first_break is not None:
            # Past the break nothing is vouched for, so the last hash that still holds is shown.
            self.stdout.write(f"last intact hash: {result.head_hash}")
            raise CommandError(
                f"BROKEN at entry {result.first_break.sequence}: {result.first_break.reason}",
                returncode=1,
            )
        self.stdout.write(f"head hash: {result.head_hash}")
        if result.problems:
            raise CommandError(
                f"NOT VERIFIED: {len(result.problems)} problem(s): {result.problems[0]}",
                returncode=1,
            )
        self.stdout.write(
            self.style.SUCCESS(
                "OK: the chain holds, with its head and every anchor, and the rows it vouches "
                "for match it"
            )
        )
