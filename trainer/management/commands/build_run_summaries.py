"""Write the summary of every graded run that has none (runs graded before summaries
existed, or loaded in bulk). Safe to run again: summarized runs are skipped. With
``--rebuild``, every graded run's summary is written again from its grades (after the
rules of the figures changed: a game's question_skills)."""

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from trainer.services.run_summaries import run_summaries_backfill, run_summaries_rebuild


class Command(BaseCommand):
    help = "Summarize every graded run that has no summary yet (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="runs per transaction")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="write every graded run's summary again from its grades",
        )

    def handle(self, *args: Any, **options: Any) -> str:
        started = time.perf_counter()
        if options["rebuild"]:
            written = run_summaries_rebuild(batch=options["batch"])
        else:
            written = run_summaries_backfill(batch=options["batch"])
        return f"summarized {written} run(s) in {time.perf_counter() - started:.1f} s"
