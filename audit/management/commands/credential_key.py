"""Make the key credentials are signed with, or show its public half (docs/operations.md,
*The credential key*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.services.credential_key import jwks, key_make


class Command(BaseCommand):
    help = "Make a new Ed25519 credential key (--make PATH), or print the published keys."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--make", metavar="PATH", help="write a new private key there (0600)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["make"]:
            path = Path(options["make"])
            if path.exists():
                raise CommandError(f"{path} exists: a key is never overwritten")
            key_make(path)
            self.stdout.write(f"Made {path} (0600). Set SHOESCHOOL_CREDENTIAL_KEY_FILE={path}")
            return
        import json

        self.stdout.write(json.dumps(jwks(), indent=2))
