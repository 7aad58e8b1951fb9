"""Write the summary of every graded run that has none (runs graded before summaries
existed, or loaded in bulk). Safe to run again: summarized runs are skipped."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from trainer.services.run_summaries import run_summaries_backfill


class Command(BaseCommand):
    help = "Summarize every graded run that has no summary yet (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="runs per transaction")

    def handle(self, *args: Any, **options: Any) -> str:
        started = time.perf_counter()
        written = run_summaries_backfill(batch=options["batch"])
        return f"summarized {written} run(s) in {time.perf_counter() - started:.1f} s"
