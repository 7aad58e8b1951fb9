"""Import scenarios into the library from a file (JSON array, one object, or JSON Lines)."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core.errors import ProductError
from trainer.services.scenarios import (
    ImportResult,
    scenario_entries_from_text,
    scenario_import_detailed,
)

LIBRARY_DIR = Path(settings.BASE_DIR) / "fixtures" / "scenarios"


def import_text(text: str, label: str) -> ImportResult:
    """Import one file's text; CommandError (naming the file) when any entry is refused."""
    try:
        entries, lines = scenario_entries_from_text(text)
        return scenario_import_detailed(documents=entries, line_numbers=lines)
    except ProductError as err:
        raise CommandError(f"{label}: {err.message}; nothing was imported") from err


def summary(result: ImportResult) -> str:
    return (
        f"{len(result.created)} created, {len(result.revised)} revised, "
        f"{len(result.unchanged)} unchanged"
    )


class Command(BaseCommand):
    help = (
        "Import blackjack-scenario/1 documents (or library entries) from FILE, '-' for "
        "standard input; all or nothing. --library loads fixtures/scenarios/."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", nargs="?", help="the file to import, or - for stdin")
        parser.add_argument(
            "--library", action="store_true", help="import every fixtures/scenarios/*.jsonl"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["library"]:
            self.stdout.write(load_library())
            return
        name = options["file"]
        if not name:
            raise CommandError("name a FILE to import (or - for standard input), or --library")
        if name == "-":
            text = sys.stdin.read()
        else:
            try:
                text = Path(name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as err:
                raise CommandError(f"cannot read {name}: {err}") from err
        result = import_text(text, name)
        self.stdout.write(f"{name}: {summary(result)}")


def load_library() -> str:
    """Import the shipped library (every fixtures/scenarios/*.jsonl, in name order)."""
    files = sorted(LIBRARY_DIR.glob("*.jsonl"))
    if not files:
        raise CommandError(f"no library files in {LIBRARY_DIR}")
    texts = [(f.name, f.read_text(encoding="utf-8")) for f in files]
    # One transaction for the whole library: a bad file leaves the others unimported too.
    with transaction.atomic():
        results = [import_text(text, name) for name, text in texts]
    total = ImportResult()
    for result in results:
        total.created += result.created
        total.revised += result.revised
        total.unchanged += result.unchanged
    return f"library ({len(files)} files): {summary(total)}"
